import type { RoleSummary } from "../../client/types";

/**
 * Users holding a listed role. The list's `userCount` is optional in the service's documentation;
 * without it an in-use role counts as one user, so it is never reported as free.
 */
export function userCountOf(role: Pick<RoleSummary, "inUse" | "userCount">): number {
  return role.userCount ?? (role.inUse ? 1 : 0);
}

const users = (n: number | undefined) => (n === undefined ? "users" : `${n} user${n === 1 ? "" : "s"}`);
/** `no users`, `3 users`, or `users` (in use, count not given): a listed role as the messages and the plan name it. */
export const usersOf = (r: { inUse?: boolean; userCount?: number } | undefined): string =>
  r?.inUse ? users(r.userCount) : "no users";
