/**
 * The Role dynamic provider: Pulumi's ResourceProvider methods for one role of a group (create and
 * update in ./role-create and ./role-update). Runs in the dynamic-provider host; reads settings at call
 * time (see ./config) and writes through the writer of ./role-services, which batches the writes of
 * every resource of the deployment.
 */
import type { dynamic } from "@pulumi/pulumi";
import { ConflictError, NotFoundError, RoleInUseError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
import { setStackConfig, type ConfigSource } from "../../config/stack-config";
import { checkCreateCredentials, credentialRefusal } from "../shared/preview-listing";
import { deploymentLedger } from "../shared/deployment-ledger";
import { confirmRoleGone, isGroupGone, unprovenNotFound } from "../shared/gone";
import { create } from "./create";
import { inContext } from "../shared/errors";
import { inUseDeleteMessage, inUseReplaceMessage } from "./errors";
import {
  checkRoleInputs,
  formatRoleId,
  isUnknown,
  parseRoleId,
  toRoleInputs,
  unconfirmedGroup,
  type RoleInputs,
  type RoleOutputs,
} from "./inputs";
import { listedEntry, readBack } from "./readback";
import { services } from "./services";
import { sameSettings } from "../shared/settings";
import { update } from "./update";

type Props = Record<string, unknown>;

// ---- configure / check / diff ----------------------------------------------------------------------

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(req.config);
}

export async function check(olds: Props, news: Props) {
  const ledger = deploymentLedger();
  ledger.noteRegistration();
  const failures = await checkCreateCredentials(olds, news, checkRoleInputs(news));
  if (!failures.length && Object.keys(olds).length === 0 && typeof news.groupId === "number") {
    // A create declares a role this program does not hold yet: a resource letting it go leaves it here.
    if (typeof news.importId === "string") {
      const imported = /^\d+\/(\d+)$/.exec(news.importId);
      if (imported) ledger.wantRole(news.groupId, Number(imported[1]));
    } else if (typeof news.name === "string") ledger.wantName(news.groupId, news.name);
  }
  if (failures.length) ledger.noteFailure("check of a Role");
  return { inputs: news, failures };
}

/** Which inputs differ. Cheap: no request, except to refuse replacing an in-use role. */
export function changedProperties(olds: Props, news: Props): string[] {
  const changed: string[] = [];
  if (isUnknown(news.groupId) || olds.groupId !== news.groupId) changed.push("groupId");
  if (isUnknown(news.name) || olds.name !== news.name) changed.push("name");
  if (isUnknown(news.description) || (olds.description ?? "") !== (news.description ?? "")) changed.push("description");
  if (!sameSettings(olds.settings, news.settings)) changed.push("settings");
  return changed;
}

export async function diff(id: string, olds: Props, news: Props) {
  deploymentLedger().noteRegistration();
  return deploymentLedger().observe(`diff of role ${id}`, () => diffRole(id, olds, news));
}

async function diffRole(id: string, olds: Props, news: Props) {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) {
    // A create of an earlier run that was never confirmed: replace the record with a create that
    // adopts the role if that run made it (see findUnconfirmed), and deletes it otherwise.
    if (typeof news.groupId === "number" && typeof news.name === "string") {
      deploymentLedger().noteUnconfirmed(news.groupId, news.name, { groupId: unconfirmed, name: String(olds.name) });
    }
    return { changes: true, replaces: ["roleId"], deleteBeforeReplace: false };
  }
  const changed = changedProperties(olds, news);
  const replaces = changed.filter((p) => p === "groupId");
  // A write is planned: its credentials must work for the group it writes to.
  if (changed.length && typeof news.groupId === "number") {
    const refusal = await credentialRefusal(news.groupId);
    if (refusal) throw refusal;
  }
  if (replaces.length && !isUnknown(news.groupId)) await refuseReplaceIfInUse(id, olds, news.groupId);
  if (!replaces.length && typeof olds.name === "string" && typeof news.name === "string") {
    // Every existing role of the program is diffed as it registers: what a rename elsewhere can wait for.
    const { groupId, roleId } = parseRoleId(id);
    deploymentLedger().declare(groupId, roleId, { currentName: olds.name, plannedName: news.name, by: "role" });
  }
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

async function refuseReplaceIfInUse(id: string, olds: Props, newGroupId: unknown): Promise<void> {
  const { groupId, roleId } = parseRoleId(id);
  const entry = await findInList(
    groupId,
    roleId,
    `replacing role "${String(olds.name)}" (id ${id}): checking whether it is in use`,
  );
  if (entry?.inUse) {
    throw new RoleInUseError(inUseReplaceMessage({ ...entry, groupId }, newGroupId));
  }
}

/**
 * The role's list entry, or undefined when it is certainly gone: absent from the group's list and 404
 * itself, or its group gone (see ./gone: a 404 that proves nothing, e.g. from a wrong URL, throws).
 */
async function findInList(groupId: number, roleId: number, what: string): Promise<RoleSummary | undefined> {
  try {
    const { client, writer } = services();
    const entry = (await writer.list(groupId)).find((r) => r.roleId === roleId);
    if (entry) return entry;
    // Absent from the list. Callers act on "gone" (a delete drops the role from state), so confirm it:
    // a truncated list must not make a role that still exists look deleted.
    try {
      await client.roles.get(groupId, roleId);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined; // the list answered without it: gone
      throw error;
    }
    return await listedEntry(groupId, roleId);
  } catch (error) {
    if (isGroupGone(error)) return undefined;
    if (error instanceof NotFoundError) throw unprovenNotFound(error, groupId, what);
    throw inContext(error, what);
  }
}

// ---- read --------------------------------------------------------------------------------------------

export async function read(
  id: string,
  props: Props = {},
): Promise<{ id: string; props?: RoleOutputs; inputs?: RoleInputs }> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return readUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A refresh knows the managed inputs; import and Role.get know only the ID.
  const known = typeof props.name === "string";
  let outs: RoleOutputs;
  const what = `reading role ${typeof props.name === "string" ? `"${props.name}" (id ${id})` : id}`;
  try {
    outs = await readBack(groupId, roleId, known ? toRoleInputs({ ...props, groupId }) : undefined);
  } catch (error) {
    // Gone from the service (role or group), as the service shows it (./gone): an empty ID tells the
    // engine to drop it from state. A 404 that proves nothing (a wrong URL) is an error.
    if (error instanceof NotFoundError && (await confirmRoleGone(services().client, groupId, roleId, error, what)))
      return { id: "" };
    throw inContext(error, what);
  }
  if (known) return { id, props: outs };
  // An import: the outputs hold every setting; the inputs (what `pulumi import` writes) declare none,
  // so the program manages only the settings it lists (see ../plugin/declared-settings).
  const inputs: RoleInputs = { groupId, name: outs.name };
  if (outs.description !== undefined) inputs.description = outs.description;
  return { id, props: outs, inputs };
}

/** `pulumi refresh` settles an unconfirmed create: the role it made, under its real ID, or gone. */
async function readUnconfirmed(groupId: number, props: Props) {
  const what = `reading role "${String(props.name)}" (create unconfirmed)`;
  const made = await services()
    .writer.list(groupId)
    .then((roles) => roles.find((r) => r.name === props.name))
    .catch((e) => {
      throw inContext(e, what);
    });
  if (!made) return { id: "" };
  return read(formatRoleId(groupId, made.roleId), props);
}

// ---- delete ------------------------------------------------------------------------------------------

export async function deleteRole(id: string, props: Props): Promise<void> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return deleteUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A resource of this deployment adopted this role (a renamed resource with `import`, an unconfirmed
  // create settled by its replacement, a GroupRoles that took it over with adoptExisting), or a
  // GroupRoles of the program keeps it: it is theirs, not this resource's to delete. (Deletes run after
  // every create and update.)
  const ledger = deploymentLedger();
  if (ledger.isClaimed(groupId, roleId) || ledger.declaration(groupId, roleId)?.by === "catalogue") return;
  const entry = await findInList(
    groupId,
    roleId,
    `deleting role "${String(props.name)}" (id ${id}): checking whether it is in use`,
  );
  if (!entry) return; // already gone: nothing to do
  if (entry.inUse) throw new RoleInUseError(inUseDeleteMessage({ ...entry, groupId }));
  try {
    await services().writer.delete(groupId, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    if (error instanceof ConflictError) {
      // Assigned between our check and the delete (the only conflict a delete can meet).
      throw new RoleInUseError(inUseDeleteMessage({ name: entry.name, groupId, roleId }), {
        cause: error,
        status: 409,
      });
    }
    throw inContext(error, `deleting role "${entry.name}" (id ${id})`);
  }
}

/**
 * The record of an unconfirmed create goes: with the role that create made, if it made one. Found by
 * name, so a role a create of this deployment made or adopted (its replacement's) is never taken.
 */
async function deleteUnconfirmed(groupId: number, props: Props): Promise<void> {
  const ledger = deploymentLedger();
  const made = await services()
    .writer.list(groupId)
    .then((roles) => roles.find((r) => r.name === props.name && !ledger.isOfThisDeployment(groupId, r.roleId)))
    .catch((e) => {
      throw inContext(e, `deleting role "${String(props.name)}" (create unconfirmed)`);
    });
  if (made) await deleteRole(formatRoleId(groupId, made.roleId), props);
}

/**
 * The Role resource's dynamic provider, as the dynamic-provider host calls it. `satisfies` proves the
 * methods fit Pulumi's `ResourceProvider` while keeping their precise result types.
 */
export const roleProvider = {
  configure,
  check,
  diff,
  create: (inputs: Props) => deploymentLedger().track(() => create(inputs)),
  read,
  update: (id: string, olds: Props, news: Props) => deploymentLedger().track(() => update(id, olds, news)),
  delete: (id: string, props: Props) => deploymentLedger().track(() => deleteRole(id, props)),
} satisfies dynamic.ResourceProvider<Props, Props>;
