import type { RoleSummary } from "../../client/types";

/**
 * Users holding a listed role. The list's `userCount` is optional in the service's documentation;
 * without it an in-use role counts as one user, so it is never reported as free.
 */
export function userCountOf(role: Pick<RoleSummary, "inUse" | "userCount">): number {
  return role.userCount ?? (role.inUse ? 1 : 0);
}
