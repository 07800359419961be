/**
 * The checks of one role's fields (name, description, settings), stated once for both resources that
 * declare roles: a `Role`'s inputs and each entry of a `GroupRoles` resource's `roles` map. The same
 * value fails with the same message in either; only the property path differs (`name` or
 * `roles.support.name`).
 */
import { z } from "zod";
import { ROLE_FIELDS, SETTING_KEY_MAX, SETTINGS_MAX, TEXT_FIELDS } from "../../client/role-fields";
import { describeTyped as describe, problemOf } from "../../client/rules";
import { suggestSetting } from "./settings-keys";

/** The value Pulumi uses for "not known until apply" in dynamic provider inputs. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const isUnknown = (v: unknown): boolean => v === UNKNOWN;

/** A failed property check, as Pulumi's `CheckFailure`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Setting names: identifiers like the documented ones (`viewVideo`), so typos of shape fail early too. */
const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;

const settingValueSchema = z.boolean({
  error: (i) =>
    i.input === null
      ? "must be true or false (remove the key to leave the setting unset)"
      : `must be true or false, got ${describe(i.input)}`,
});

/** Checks `value` against `schema` unless it is unknown (preview); a problem is named by `property`. */
export function checkField(schema: z.ZodType, value: unknown, property: string, failures: CheckFailure[]): void {
  if (isUnknown(value)) return;
  const reason = problemOf(schema, value, property);
  if (reason) failures.push({ property, reason });
}

/**
 * Checks a role's fields (client/role-fields.ts; unknown values pass). `at` leads every property
 * path: `""` for a Role, `"roles.support."` for an entry of a GroupRoles.
 */
export function checkRoleFields(fields: Record<string, unknown>, at: string, failures: CheckFailure[]): void {
  checkField(ROLE_FIELDS.name.rule, fields.name, `${at}name`, failures);
  for (const f of TEXT_FIELDS)
    if (fields[f] !== undefined) checkField(ROLE_FIELDS[f].rule, fields[f], `${at}${f}`, failures);
  const settings = fields.settings;
  if (settings === undefined || isUnknown(settings)) return;
  const where = `${at}settings`;
  if (settings === null || typeof settings !== "object" || Array.isArray(settings)) {
    failures.push({
      property: where,
      reason: `${where} must be a map of setting name to boolean, got ${describe(settings)}`,
    });
    return;
  }
  const count = Object.keys(settings).length;
  if (count > SETTINGS_MAX) {
    failures.push({ property: where, reason: `${where} must hold at most ${SETTINGS_MAX} keys, got ${count}` });
    return;
  }
  for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
    const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
    const property = `${where}.${shown}`;
    if (key.trim() === "") {
      failures.push({ property, reason: `${where} keys must not be empty` });
      continue;
    }
    if (key.length > SETTING_KEY_MAX) {
      failures.push({
        property,
        reason: `${property}: setting names must be at most ${SETTING_KEY_MAX} characters, got ${key.length}`,
      });
      continue;
    }
    const suggestion = suggestSetting(key);
    if (suggestion) {
      failures.push({ property, reason: `unknown setting "${key}": did you mean "${suggestion}"?` });
    } else if (!SETTING_KEY.test(key)) {
      failures.push({
        property,
        reason:
          `${property}: setting names are letters, digits and "_", starting with a letter (like "viewVideo"), ` +
          `got ${JSON.stringify(shown)}`,
      });
    }
    checkField(settingValueSchema, value, property, failures);
  }
}
