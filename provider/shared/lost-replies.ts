/**
 * Replies that never came: when a write may have been applied although no usable reply came back. Role
 * and GroupRoles creates share the rule: such a create is settled by listing the group (names are
 * unique), never by sending it again; one the list does not show yet is kept unconfirmed in state.
 * A delete or an update is settled by reading each role it named ({@link deleteApplied},
 * {@link updateApplied}: Role and GroupRoles alike).
 */
import type { GroupRolesClient } from "../../client";
import { changedTextFields } from "../../client/role-fields";
import type { RoleSummary, RoleUpdateInput } from "../../client/types";
import { ConnectionError, type GroupRolesError, ReplyTooLargeError, UnexpectedReplyError } from "../../client/errors";
import { NotFoundError, ServerError } from "../../client/status-errors";
import { TimeoutError } from "../../client/timeout-errors";

/** True when a create may have been applied although no usable reply came back. */
export function isAmbiguous(error: unknown): error is GroupRolesError {
  return (
    (error instanceof ConnectionError && error.requestSent) ||
    (error instanceof TimeoutError && error.phase !== "connect") ||
    error instanceof ServerError ||
    error instanceof UnexpectedReplyError ||
    // A reply cut at the size cap was sent after the service acted.
    error instanceof ReplyTooLargeError
  );
}

/**
 * True when a create that met `error` may still be in the service's hands and be applied after a list
 * (a request that timed out once sent): what a list does not show is kept unconfirmed, never said not made.
 */
export const stillPending = (error: unknown): boolean => error instanceof TimeoutError && error.phase !== "connect";

/**
 * The group's list that settles a create which met `error`: a list can be short (a truncated page, a bad
 * reply), so one that does not show all the create made (`showsAll`) is read once more (a read, safe to
 * repeat) before anything is said not to be made, and a role either list shows counts (simulation history
 * 57625: the role made was orphaned). A create still pending is kept unconfirmed without it.
 */
export async function listSettlingCreate(
  list: () => Promise<RoleSummary[]>,
  showsAll: (listed: readonly RoleSummary[]) => boolean,
  error: unknown,
): Promise<RoleSummary[]> {
  const first = await list();
  if (stillPending(error) || showsAll(first)) return first;
  const again = await list();
  const seen = new Set(again.map((r) => r.roleId));
  return [...first.filter((r) => !seen.has(r.roleId)), ...again];
}

/**
 * After a delete of `roleIds` that met an ambiguous error (every retry's reply lost): true when the
 * service no longer has any of them, each one's own read answering 404, so the delete was applied and
 * the caller reports it done (state must not keep roles the service deleted). Any other answer (the
 * role is there, the read fails) is false: the caller fails as before and the next run deletes again.
 * One read per role, never a wait: a delete the service applies later is found by the next run.
 */
export async function deleteApplied(client: GroupRolesClient, groupId: number, roleIds: number[]): Promise<boolean> {
  for (const roleId of roleIds) {
    const gone = await client.roles.get(groupId, roleId).then(
      () => false,
      (error: unknown) => error instanceof NotFoundError,
    );
    if (!gone) return false;
  }
  return true;
}

/**
 * After an update of `roles` that met an ambiguous error (every retry's reply lost or unreadable): true
 * when each role reads back as sent (name, text fields, every setting sent), so the update was applied
 * and the caller goes on as if confirmed. Anything else (a role that differs, a failed read) is false:
 * the caller fails as before. One read per role, never a wait.
 */
export async function updateApplied(
  client: GroupRolesClient,
  groupId: number,
  roles: readonly RoleUpdateInput[],
): Promise<boolean> {
  for (const sent of roles) {
    const held = await client.roles.get(groupId, sent.roleId).catch(() => undefined);
    if (!held || held.name !== sent.name || changedTextFields(sent, held).length) return false;
    // `null` unsets a key (../shared/settings.ts settingsForUpdate): applied when the role no longer has it.
    if (Object.entries(sent.settings ?? {}).some(([key, value]) => held.settings[key] !== (value ?? undefined)))
      return false;
  }
  return true;
}
