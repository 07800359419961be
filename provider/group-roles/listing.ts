/** The group's list, as every GroupRoles operation but create and update reads it. */
import type { GroupRolesClient } from "../../client";
import { UnexpectedReplyError } from "../../client/errors";
import { NotFoundError } from "../../client/status-errors";
import type { RoleSummary } from "../../client/types";
import { confirmAbsentRoleGone } from "../shared/absent-role";
import { listUnlessGone } from "../shared/gone";
import { inContext } from "../shared/errors";

/**
 * The group's roles, or undefined when the service says the group is gone (../shared/gone): its roles went
 * with it, so there is nothing to check, read or delete. A 404 that says nothing more, and any other
 * failure, name what was being done.
 */
export async function listGroup(
  client: GroupRolesClient,
  groupId: number,
  what: string,
): Promise<RoleSummary[] | undefined> {
  try {
    return await listUnlessGone(client, groupId, what);
  } catch (error) {
    if (error instanceof NotFoundError) throw error; // already says what was being done, and why
    throw inContext(error, what);
  }
}

/**
 * The group's list for an apply, checked against the roles `state` records: a list can be short (a
 * truncated page, a bad reply), and a recorded role it leaves out would be planned as gone (its entry
 * dropped from state, never deleted: an orphan) or, still declared, as a role to create again (the
 * create meets its name). Each such role's own details decide (404: gone); when the service still has
 * one, the list is read once more (a read, safe to repeat), and if it is short again the apply stops
 * before any write (found by the simulation, history 3647).
 */
export async function listCoveringState(
  client: GroupRolesClient,
  groupId: number,
  recorded: readonly number[],
  what: string,
): Promise<RoleSummary[]> {
  for (let attempt = 1; ; attempt++) {
    const listed = await client.roles.list(groupId);
    const ids = new Set(listed.map((r) => r.roleId));
    const left = recorded.filter((id) => !ids.has(id));
    try {
      await Promise.all(left.map((id) => confirmAbsentRoleGone(client, groupId, id, what)));
      return listed;
    } catch (error) {
      if (attempt >= 2 || !(error instanceof UnexpectedReplyError)) throw error;
    }
  }
}
