/**
 * The Role's Delete, and the in-use lookup it shares with a replacement's Diff: a role is deleted only
 * when no user holds it and no resource of this deployment adopted or keeps it.
 */
import { ConflictError, NotFoundError, RoleInUseError } from "../../client/status-errors";
import type { RoleSummary } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import { inContext } from "../shared/errors";
import { isGroupGone, unprovenNotFound } from "../shared/gone";
import { deleteApplied, isAmbiguous } from "../shared/lost-replies";
import { inUseDeleteMessage } from "./errors";
import { formatRoleId, parseRoleId, unconfirmedGroup } from "./inputs";
import { listedEntry } from "./readback";
import { services } from "./services";
import type { Props } from "../shared/props";

export async function deleteRole(id: string, props: Props): Promise<void> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return deleteUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A resource of this deployment adopted this role (a renamed resource with `import`, an unconfirmed
  // create settled by its replacement, a GroupRoles that took it over with adoptExisting), or a
  // GroupRoles of the program keeps it: it is theirs, not this resource's to delete. (Deletes run after
  // every create and update.)
  const ledger = deploymentLedger();
  const view = ledger.view(groupId);
  if (view.claimed(roleId) || view.declared(roleId)?.by === "catalogue") return;
  const entry = await findInList(
    groupId,
    roleId,
    `deleting role "${String(props.name)}" (id ${id}): checking whether it is in use`,
  );
  if (!entry) return; // already gone: nothing to do
  if (entry.inUse) throw new RoleInUseError(inUseDeleteMessage({ ...entry, groupId }, ledger.run.operation));
  try {
    await services().writer.delete(groupId, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    if (error instanceof ConflictError) {
      // Assigned between our check and the delete (the only conflict a delete can meet).
      throw new RoleInUseError(inUseDeleteMessage({ name: entry.name, groupId, roleId }, ledger.run.operation), {
        cause: error,
        status: 409,
      });
    }
    // Every reply lost: done if the role is gone (state must not keep a role the service deleted).
    const applied = isAmbiguous(error) && (await deleteApplied(services().client, groupId, [roleId]));
    if (!applied) throw inContext(error, `deleting role "${entry.name}" (id ${id})`);
  }
  ledger.run.noteDeleted({ by: `the Role of group ${groupId}, id ${id}`, groupId, names: [entry.name] });
}

/**
 * The record of an unconfirmed create goes: with the role that create made, if it made one. Found by
 * name, so a role a create of this deployment made or adopted (its replacement's) is never taken.
 */
async function deleteUnconfirmed(groupId: number, props: Props): Promise<void> {
  const view = deploymentLedger().view(groupId);
  const made = await services()
    .writer.list(groupId)
    .then((roles) => roles.find((r) => r.name === props.name && !view.ofThisDeployment(r.roleId)))
    .catch((e) => {
      throw inContext(e, `deleting role "${String(props.name)}" (create unconfirmed)`);
    });
  if (made) await deleteRole(formatRoleId(groupId, made.roleId), props);
}

/**
 * The role's list entry, or undefined when it is certainly gone: absent from the group's list and 404
 * itself, or its group gone (see ../shared/gone: a 404 that proves nothing, e.g. from a wrong URL, throws).
 */
export async function findInList(groupId: number, roleId: number, what: string): Promise<RoleSummary | undefined> {
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
