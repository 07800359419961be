/**
 * Two Role resources of one deployment that declare one name in one group would collide at `up`
 * (names are unique in a group). The dynamic Role learns it in the program (sdk/role.ts `sameNameAs`);
 * a plugin serves programs in any language, so it learns it here: every Check of a Role passes through
 * the provider instance, which remembers who declared each name first and fails the second, naming
 * both resources, in the preview, before any request.
 */
import { sameNameReason } from "../role/inputs";
import { isUnknown } from "../shared/fields";

const declaredBy = new Map<string, string>();

/** The resource name in a URN (its last part). */
const resourceName = (urn: string): string => urn.split("::").slice(3).join("::");

export function sameNameFailures(
  urn: string,
  news: Record<string, unknown>,
): Array<{ property: string; reason: string }> {
  const { groupId, name } = news;
  if (typeof name !== "string" || isUnknown(name) || isUnknown(groupId) || typeof groupId !== "number") return [];
  const key = JSON.stringify([groupId, name]);
  const first = declaredBy.get(key);
  if (first === undefined || first === urn) {
    declaredBy.set(key, urn);
    return [];
  }
  return [{ property: "name", reason: sameNameReason(resourceName(first), name, groupId) }];
}
