/** The group's list, as every GroupRoles operation but create and update reads it. */
import type { GroupRolesClient } from "../../client";
import { NotFoundError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
import { inContext } from "../role-errors";

/**
 * The group's roles, or undefined when the group is gone (404): its roles went with it, so there is
 * nothing to check, read or delete. Any other failure names `what` was being done.
 */
export async function listGroup(
  client: GroupRolesClient,
  groupId: number,
  what: string,
): Promise<RoleSummary[] | undefined> {
  try {
    return await client.roles.list(groupId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw inContext(error, what);
  }
}
