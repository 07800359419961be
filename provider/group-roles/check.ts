/**
 * `check` of GroupRoles: every entry by the rules of a Role (./../role-fields, same messages, paths
 * like `roles.support.name`), plus what only a whole catalogue can get wrong: keys, and two entries
 * with one name. Unknown values (preview) pass; nothing here sends a request.
 */
import { describeTyped as describe, hasControlChar, idRule } from "../../client/rules";
import { checkField, checkRoleFields, isUnknown, type CheckFailure } from "../role-fields";
import type { Props } from "./types";

/** Longest entry key: keys name entries in messages and state, like resource names. */
export const ENTRY_KEY_MAX = 100;

const TOP_LEVEL = new Set(["groupId", "roles", "adoptExisting", "__provider"]);
const ENTRY_FIELDS = new Set(["name", "description", "settings", "retain"]);

function checkBoolean(value: unknown, property: string, failures: CheckFailure[]): void {
  if (value !== undefined && !isUnknown(value) && typeof value !== "boolean") {
    failures.push({ property, reason: `${property} must be true or false, got ${describe(value)}` });
  }
}

function checkKey(key: string, failures: CheckFailure[]): void {
  const property = `roles.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`;
  const problem =
    key.trim() === ""
      ? "must not be empty or blank"
      : key.length > ENTRY_KEY_MAX
        ? `must be at most ${ENTRY_KEY_MAX} characters, got ${key.length}`
        : hasControlChar(key)
          ? "must not contain control characters"
          : undefined;
  if (problem) failures.push({ property, reason: `role keys ${problem} (key ${JSON.stringify(key.slice(0, 40))})` });
}

function checkEntry(key: string, entry: unknown, failures: CheckFailure[]): void {
  const at = `roles.${key}`;
  if (isUnknown(entry)) return;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    failures.push({
      property: at,
      reason: `${at} must be a role: { name, description?, settings?, retain? }, got ${describe(entry)}`,
    });
    return;
  }
  const fields = entry as Props;
  checkRoleFields(fields, `${at}.`, failures);
  checkBoolean(fields.retain, `${at}.retain`, failures);
  for (const field of Object.keys(fields)) {
    if (!ENTRY_FIELDS.has(field) && fields[field] !== undefined) {
      failures.push({
        property: `${at}.${field}`,
        reason: `unknown property "${field}" of ${at}; a role takes name, description, settings and retain`,
      });
    }
  }
}

/** Two entries with one name would collide in the service: the later one is refused, naming the first. */
function checkNamesUnique(roles: Record<string, unknown>, failures: CheckFailure[]): void {
  const first = new Map<string, string>();
  for (const [key, entry] of Object.entries(roles)) {
    const name = entry && typeof entry === "object" ? (entry as Props).name : undefined;
    if (typeof name !== "string" || isUnknown(name)) continue;
    const holder = first.get(name);
    if (holder === undefined) {
      first.set(name, key);
      continue;
    }
    failures.push({
      property: `roles.${key}.name`,
      reason:
        `roles.${key}.name ${JSON.stringify(name)} is also the name of roles.${holder}; role names are unique within ` +
        `a group, so \`pulumi up\` would fail. Rename one of the two, or remove one.`,
    });
  }
}

/**
 * Checks GroupRoles inputs, listing every problem at once so that a bad program fails in
 * `pulumi preview`, before any request.
 */
export function checkGroupRolesInputs(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  checkField(idRule, news.groupId, "groupId", failures);
  checkBoolean(news.adoptExisting, "adoptExisting", failures);
  const roles = news.roles;
  if (roles === undefined) {
    failures.push({
      property: "roles",
      reason: "roles is required: a map of a stable key to { name, description?, settings?, retain? }",
    });
  } else if (!isUnknown(roles)) {
    if (roles === null || typeof roles !== "object" || Array.isArray(roles)) {
      failures.push({
        property: "roles",
        reason: `roles must be a map of a stable key to a role, got ${describe(roles)}`,
      });
    } else {
      for (const [key, entry] of Object.entries(roles as Props)) {
        checkKey(key, failures);
        checkEntry(key, entry, failures);
      }
      checkNamesUnique(roles as Props, failures);
    }
  }
  for (const key of Object.keys(news)) {
    if (!TOP_LEVEL.has(key) && news[key] !== undefined) {
      failures.push({
        property: key,
        reason: `unknown property "${key}"; GroupRoles takes groupId, roles and adoptExisting`,
      });
    }
  }
  return failures;
}
