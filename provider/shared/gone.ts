/**
 * When a 404 is evidence that a group or a role is gone (invariant 10, docs/design/invariants.md).
 *
 * The service documents no error bodies, and a 404 also comes from a wrong `grouproles:baseUrl` (a
 * gateway or another web server that knows no such path, a path prefix with a typo). Read as "gone",
 * such a 404 would let `pulumi refresh` empty the state and `pulumi destroy` succeed having deleted
 * nothing. So a 404 alone never removes anything from state:
 * - a group is gone only when its list answers 404 with the body code `group_not_found` (the
 *   emulator's; against a service whose 404 bodies say nothing, a deleted group is an error that names
 *   the URL, and `pulumi state delete` removes the resource);
 * - a role is gone when the group's list answers and does not hold it (a 404 on the role itself is
 *   confirmed by that list), or when its group is gone.
 */
import type { GroupRolesClient } from "../../client";
import { NotFoundError } from "../../client/status-errors";
import { resolveConfig } from "../../config/stack-config";

/** The body code of the 404 that says a group does not exist. */
export const GROUP_GONE_CODE = "group_not_found";

/** True when `error` is the service saying that the group does not exist. */
export function isGroupGone(error: unknown): boolean {
  return error instanceof NotFoundError && error.serviceCode === GROUP_GONE_CODE;
}

/**
 * A 404 that proves nothing: the error says so, names the URL and how to check it. `consequence` says
 * what the operation did about it (a refresh or delete: nothing; a preview: the change cannot apply).
 */
export function unprovenNotFound(
  error: NotFoundError,
  groupId: number,
  what: string,
  consequence = "so nothing was removed from the state and nothing counts as deleted",
): NotFoundError {
  const url = error.request
    ? `${error.request.method} ${error.request.origin ?? ""}${error.request.path}`
    : "a request";
  const said = error.serviceMessage ? ` ("${error.serviceMessage.slice(0, 200)}")` : "";
  let baseUrl = "";
  try {
    baseUrl = ` (now ${resolveConfig().baseUrl})`;
  } catch {
    // the URL of the request says enough
  }
  return error.rephrase(
    `${what}: ${url} answered 404${said} without saying that group ${groupId} or its role is gone, ` +
      `${consequence}. Check grouproles:baseUrl${baseUrl}: it ` +
      `must be the service's root, under which /api/v0/groups/${groupId}/roles lists the group's roles. If the ` +
      `group was deleted in the service, remove its resources from the stack with \`pulumi state delete <urn>\`.`,
  );
}

/** The group's list, or undefined when the service says the group is gone; any other 404 throws. */
export async function listUnlessGone(
  client: GroupRolesClient,
  groupId: number,
  what: string,
): Promise<Awaited<ReturnType<GroupRolesClient["roles"]["list"]>> | undefined> {
  try {
    return await client.roles.list(groupId);
  } catch (error) {
    if (isGroupGone(error)) return undefined;
    if (error instanceof NotFoundError) throw unprovenNotFound(error, groupId, what);
    throw error;
  }
}

/**
 * After a 404 on a role: true when the service shows it is gone (the group's list answers without it,
 * or the group is gone); otherwise throws (a wrong URL, or a list that still holds the role).
 */
export async function confirmRoleGone(
  client: GroupRolesClient,
  groupId: number,
  roleId: number,
  notFound: NotFoundError,
  what: string,
): Promise<true> {
  const listed = await listUnlessGone(client, groupId, what);
  if (!listed?.some((r) => r.roleId === roleId)) return true;
  throw unprovenNotFound(notFound, groupId, `${what} (the group's list still holds role ${roleId})`);
}
