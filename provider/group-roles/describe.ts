/**
 * A catalogue in words, for other resources' messages: by its name in the program when the SDK sent it,
 * and by the roles it declares.
 */
import { isUnknown } from "../shared/fields";
import { someNames } from "./name-errors";
import type { Props } from "./types";

/** A catalogue named by what it declares: `the one declaring "Support", "Billing" and 3 more`. */
export function describeEntries(roles: Props): string {
  const names = Object.values(roles)
    .map((e) => (e && typeof e === "object" ? (e as Props).name : undefined))
    .filter((n): n is string => typeof n === "string");
  return `the one declaring ${someNames(names, 3) || "no roles"}`;
}

/**
 * A catalogue as other resources' messages name it: by its name in the program when known,
 * `the GroupRoles "ops-cat" (group 42, declaring "A" and "B")`, else `the GroupRoles of group 42
 * declaring "A" and "B"` (a provider called without the SDK, or the state of a delete).
 */
export function describeCatalogue(groupId: unknown, roles: unknown, name?: string): string {
  const declaring =
    roles && typeof roles === "object" && !isUnknown(roles)
      ? describeEntries(roles as Props).slice("the one ".length)
      : "";
  if (name !== undefined)
    return `the GroupRoles "${name}" (group ${String(groupId)}${declaring ? `, ${declaring}` : ""})`;
  return `the GroupRoles of group ${String(groupId)}${declaring ? ` ${declaring}` : ""}`;
}
