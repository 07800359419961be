/** The group's list, as every GroupRoles operation but create and update reads it. */
import type { GroupRolesClient } from "../../client";
import { NotFoundError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
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
