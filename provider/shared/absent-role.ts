/**
 * A role the group's list leaves out is not yet gone: a list can be short (a truncated page, a proxy,
 * a bad reply), and reading it as "gone" would drop the role from state, so the next `up` fails on a
 * role "not managed by this resource" and destroy leaves it behind. The role's own detail read
 * decides: a 404 there, with the group present (its list just answered), is the service saying so.
 */
import type { GroupRolesClient } from "../../client";
import { UnexpectedReplyError } from "../../client/errors";
import { NotFoundError } from "../../client/status-errors";
import { ROUTES, pathOf } from "../../client/routes";

/**
 * Resolves when role `roleId`, absent from the group's list, is gone (its detail read answers 404);
 * throws when the service still has it (the list is wrong) or the read fails otherwise.
 */
export async function confirmAbsentRoleGone(
  client: GroupRolesClient,
  groupId: number,
  roleId: number,
  what: string,
): Promise<void> {
  let name: string;
  try {
    name = (await client.roles.get(groupId, roleId)).name;
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
  throw new UnexpectedReplyError(
    `${what}: role ${roleId} ("${name}") is missing from the list of group ${groupId}, but the service still ` +
      "has it (its details answer): the list is incomplete, so nothing was removed from the state; run again " +
      "once the service lists every role",
    undefined,
    { request: { method: ROUTES.listRoles.method, path: pathOf(ROUTES.listRoles, { groupId }) }, status: 200 },
  );
}
