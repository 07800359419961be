/**
 * `check` of GroupRoles: every entry by the rules of a Role (../shared/fields, same messages, paths
 * like `roles.support.name`), plus what only a whole catalogue can get wrong: keys, and two entries
 * with one name. Unknown values (preview) pass; nothing here sends a request.
 */
import { ROLE_FIELD_NAMES, inProse, roleShape } from "../../client/role-fields";
import { describeTyped as describe, hasControlChar, idRule } from "../../client/rules";
import { checkField, checkRoleFields, isUnknown, type CheckFailure } from "../shared/fields";
import type { Props } from "./types";

/** Longest entry key: keys name entries in messages and state, like resource names. */
export const ENTRY_KEY_MAX = 100;

const TOP_LEVEL = new Set(["groupId", "roles", "adoptExisting", "exclusive", "__provider", "__structure"]);
const ENTRY_FIELDS = new Set([...ROLE_FIELD_NAMES, "retain"]);
const ENTRY_SHAPE = roleShape("retain");

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
      reason: `${at} must be a role: ${ENTRY_SHAPE}, got ${describe(entry)}`,
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
        reason: `unknown property "${field}" of ${at}; a role takes ${inProse([...ENTRY_FIELDS])}`,
      });
    }
  }
}

/** Characters that show as nothing: soft hyphen, joiners, zero-width spaces, direction marks, BOM. */
const INVISIBLE = new Set(
  [0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180e, 0xfeff]
    .concat(Array.from({ length: 0x200f - 0x200b + 1 }, (_, i) => 0x200b + i))
    .concat(Array.from({ length: 0x202e - 0x202a + 1 }, (_, i) => 0x202a + i))
    .concat(Array.from({ length: 0x206f - 0x2060 + 1 }, (_, i) => 0x2060 + i)),
);
/** Spaces of every width, no-break ones included. */
const SPACES = /[\s\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/** What people see of a name: case, surrounding and repeated spaces and invisible characters aside. */
export const lookOf = (name: string): string =>
  Array.from(name.normalize("NFKC"))
    .filter((c) => !INVISIBLE.has(c.codePointAt(0)!))
    .join("")
    .replace(SPACES, " ")
    .trim()
    .toLowerCase();

/**
 * Two entries with one name would collide in the service; two whose names differ only by case,
 * spaces or invisible characters would be two roles people cannot tell apart. The later one is
 * refused, naming the first.
 */
function checkNamesUnique(roles: Record<string, unknown>, failures: CheckFailure[]): void {
  const first = new Map<string, { key: string; name: string }>();
  for (const [key, entry] of Object.entries(roles)) {
    const name = entry && typeof entry === "object" ? (entry as Props).name : undefined;
    if (typeof name !== "string" || isUnknown(name)) continue;
    const look = lookOf(name);
    const holder = first.get(look);
    if (holder === undefined) {
      first.set(look, { key, name });
      continue;
    }
    const same = holder.name === name;
    failures.push({
      property: `roles.${key}.name`,
      reason: same
        ? `roles.${key}.name ${JSON.stringify(name)} is also the name of roles.${holder.key}; role names are unique ` +
          `within a group, so \`pulumi up\` would fail. Rename one of the two, or remove one.`
        : `roles.${key}.name ${JSON.stringify(name)} looks like the name of roles.${holder.key}, ` +
          `${JSON.stringify(holder.name)}: they differ only by case, spaces or invisible characters, so people ` +
          `could not tell the two roles apart. Rename one of the two, or remove one.`,
    });
  }
}

/**
 * A key `__proto__` does not survive the trip to the provider (JavaScript objects drop it), which
 * would silently lose the entry: the map arrives with another prototype instead.
 */
function checkNoProtoKey(roles: object, failures: CheckFailure[]): void {
  if (Object.hasOwn(roles, "__proto__") || Object.getPrototypeOf(roles) !== Object.prototype) {
    failures.push({
      property: "roles.__proto__",
      reason: 'role keys must not be "__proto__": JavaScript objects drop that key, so the entry would be lost',
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
  checkBoolean(news.exclusive, "exclusive", failures);
  const roles = news.roles;
  if (roles === undefined) {
    failures.push({
      property: "roles",
      reason: `roles is required: a map of a stable key to ${ENTRY_SHAPE}`,
    });
  } else if (!isUnknown(roles)) {
    if (roles === null || typeof roles !== "object" || Array.isArray(roles)) {
      failures.push({
        property: "roles",
        reason: `roles must be a map of a stable key to a role, got ${describe(roles)}`,
      });
    } else {
      checkNoProtoKey(roles, failures);
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
        reason: `unknown property "${key}"; GroupRoles takes groupId, roles, adoptExisting and exclusive`,
      });
    }
  }
  return failures;
}
