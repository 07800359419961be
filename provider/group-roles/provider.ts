/**
 * The GroupRoles dynamic provider: a group's roles as one resource. Check and diff in ./check and
 * ./diff; create and update list the group once, plan (./plan) and apply at the array endpoints
 * (./apply); refresh in ./read, delete in ./delete. It shares the Role provider's settings (./../config)
 * and client, and none of its per-role machinery: one resource sees the whole set, so it needs no
 * batching window and no coordination between resources.
 */
import type { dynamic } from "@pulumi/pulumi";
import { checkCreateCredentials } from "../credential-check";
import { batchOptions, clientFromConfig, resolveConfig, setStackConfig, type ConfigSource } from "../config";
import { DEFAULT_BATCH_OPTIONS } from "../role-batcher";
import { inContext } from "../role-errors";
import { apply } from "./apply";
import { checkGroupRolesInputs } from "./check";
import { deleteGroupRoles } from "./delete";
import { diff } from "./diff";
import { planApply } from "./plan";
import { read } from "./read";
import {
  formatGroupId,
  parseGroupId,
  toInputs,
  toState,
  type GroupRolesInputs,
  type GroupRolesState,
  type Props,
} from "./types";

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(req.config);
}

export async function check(olds: Props, news: Props) {
  return { inputs: news, failures: await checkCreateCredentials(olds, news, checkGroupRolesInputs(news)) };
}

/** Most roles per array request: `grouproles:maxBatchSize`, default 100. */
const maxBatchSize = (): number => batchOptions(resolveConfig()).maxBatchSize ?? DEFAULT_BATCH_OPTIONS.maxBatchSize;

/** Lists the group once, plans (refusing what would fail half-way) and applies. */
async function converge(
  what: string,
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  providerRef: unknown,
): Promise<GroupRolesState> {
  const client = clientFromConfig();
  const listed = await client.roles.list(inputs.groupId).catch((e) => {
    throw inContext(e, `${what}: listing the group (nothing was changed)`);
  });
  const plan = planApply(state, inputs, listed);
  return apply({ client, maxBatchSize: maxBatchSize(), providerRef, what, listed }, plan);
}

export async function create(props: Props): Promise<{ id: string; outs: GroupRolesState }> {
  const inputs = toInputs(props);
  const outs = await converge(
    `creating the roles of group ${inputs.groupId}`,
    { groupId: inputs.groupId, roles: {} },
    inputs,
    props.__provider,
  );
  return { id: formatGroupId(inputs.groupId), outs };
}

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: GroupRolesState }> {
  const groupId = parseGroupId(id);
  const inputs = toInputs({ ...news, groupId });
  return { outs: await converge(`updating the roles of group ${groupId}`, toState(olds), inputs, news.__provider) };
}

async function deleteRoles(id: string, props: Props): Promise<void> {
  await deleteGroupRoles(id, props, maxBatchSize());
}

/**
 * The GroupRoles resource's dynamic provider, as the dynamic-provider host calls it. `satisfies`
 * proves the methods fit Pulumi's `ResourceProvider` while keeping their precise result types.
 */
export const groupRolesProvider = {
  configure,
  check,
  diff,
  create,
  read,
  update,
  delete: deleteRoles,
} satisfies dynamic.ResourceProvider<Props, Props>;
