/**
 * The client and the writer a Role operation uses, built from the settings at call time (see
 * ../../config/stack-config). One writer per client, so every operation of the deployment shares its batches.
 */
import type { GroupRolesClient } from "../../client";
import { batchOptions, clientFromConfig, resolveConfig } from "../../config/stack-config";
import { batchingWriter } from "./batcher";
import type { RoleWriter } from "./writes";

const writers = new WeakMap<GroupRolesClient, RoleWriter>();

export function services(): { client: GroupRolesClient; writer: RoleWriter } {
  const client = clientFromConfig();
  let writer = writers.get(client);
  if (!writer) {
    // Options are read on every write, so `grouproles:maxBatchSize` set in the stack config applies
    // although `configure` runs after the first client may exist; `maxBatchSize: 1` is the direct path.
    writer = batchingWriter(client, () => batchOptions(resolveConfig()));
    writers.set(client, writer);
  }
  return { client, writer };
}
