/**
 * The Role resource's inputs and outputs as they travel through the dynamic provider, and their
 * validation (`check`). Validation is zod-backed, field by field, so that an unknown value during
 * preview skips just that field and every failure names its property path.
 */
import { z } from "zod";
import { ConfigurationError } from "../client/errors";
import { describeTyped as describe, idRule, problemOf, roleDescriptionRule, roleNameRule } from "../client/rules";
import { suggestSetting } from "./settings-keys";

/** The value Pulumi uses for "not known until apply" in dynamic provider inputs. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const isUnknown = (v: unknown): boolean => v === UNKNOWN;

/** Validated Role inputs. */
export type RoleInputs = {
  groupId: number;
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
};

/** Role state: the inputs as the service holds them, plus what the service computes. */
export type RoleOutputs = RoleInputs & {
  roleId: number;
  inUse: boolean;
  userCount: number;
};

/** A failed property check, as Pulumi's `CheckFailure`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Setting names: identifiers like the documented ones (`viewVideo`), so typos of shape fail early too. */
const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Longest setting name accepted; the documented ones are under 40 characters. */
export const SETTING_KEY_MAX = 100;
/** Most settings one role may declare; the service documents 35. */
export const SETTINGS_MAX = 200;

const settingValueSchema = z.boolean({
  error: (i) =>
    i.input === null
      ? "must be true or false (remove the key to leave the setting unset)"
      : `must be true or false, got ${describe(i.input)}`,
});

function checkField(schema: z.ZodType, value: unknown, property: string, failures: CheckFailure[]): void {
  if (isUnknown(value)) return;
  const reason = problemOf(schema, value, property);
  if (reason) failures.push({ property, reason });
}

const KNOWN_PROPERTIES = new Set(["groupId", "name", "description", "settings", "importId", "sameNameAs", "__provider"]);

/**
 * Checks Role inputs. Unknown values (preview) pass; everything else is checked here, before any
 * request, so a bad program fails in `pulumi preview` with every problem listed at once.
 */
export function checkRoleInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  checkField(idRule, news.groupId, "groupId", failures);
  checkField(roleNameRule, news.name, "name", failures);
  if (news.description !== undefined) checkField(roleDescriptionRule, news.description, "description", failures);
  const settings = news.settings;
  if (settings !== undefined && !isUnknown(settings)) {
    if (settings === null || typeof settings !== "object" || Array.isArray(settings)) {
      failures.push({ property: "settings", reason: `settings must be a map of setting name to boolean, got ${describe(settings)}` });
    } else if (Object.keys(settings).length > SETTINGS_MAX) {
      failures.push({ property: "settings", reason: `settings must hold at most ${SETTINGS_MAX} keys, got ${Object.keys(settings).length}` });
    } else {
      for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
        const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
        const property = `settings.${shown}`;
        if (key.trim() === "") {
          failures.push({ property, reason: "settings keys must not be empty" });
          continue;
        }
        if (key.length > SETTING_KEY_MAX) {
          failures.push({ property, reason: `${property}: setting names must be at most ${SETTING_KEY_MAX} characters, got ${key.length}` });
          continue;
        }
        const suggestion = suggestSetting(key);
        if (suggestion) {
          failures.push({ property, reason: `unknown setting "${key}": did you mean "${suggestion}"?` });
        } else if (!SETTING_KEY.test(key)) {
          failures.push({ property, reason: `${property}: setting names are letters, digits and "_", starting with a letter (like "viewVideo"), got ${JSON.stringify(shown)}` });
        }
        checkField(settingValueSchema, value, property, failures);
      }
    }
  }
  if (news.importId !== undefined && !isUnknown(news.importId)) {
    const m = typeof news.importId === "string" ? /^(\d+)\/(\d+)$/.exec(news.importId) : null;
    if (!m) {
      failures.push({ property: "import", reason: `import must be a Role ID "<groupId>/<roleId>", got ${describe(news.importId)}` });
    } else if (typeof news.groupId === "number" && Number(m[1]) !== news.groupId) {
      failures.push({ property: "import", reason: `import ID ${news.importId} is in group ${m[1]}, but groupId is ${news.groupId}` });
    }
  }
  if (typeof news.sameNameAs === "string") {
    failures.push({
      property: "name",
      reason:
        `Role resource "${news.sameNameAs}" of this program already declares a role named ${JSON.stringify(news.name)} ` +
        `in group ${String(news.groupId)}; role names are unique within a group, so \`pulumi up\` would fail. ` +
        `Rename one of the two, or remove one.`,
    });
  }
  for (const key of Object.keys(news)) {
    if (!KNOWN_PROPERTIES.has(key) && news[key] !== undefined && !isOutputKey(key)) {
      failures.push({ property: key, reason: `unknown property "${key}"; Role takes groupId, name, description and settings` });
    }
  }
  return failures;
}

/** Output-only properties the SDK declares (with undefined values) so that they become Outputs. */
const OUTPUT_KEYS = new Set(["roleId", "inUse", "userCount"]);
function isOutputKey(key: string): boolean {
  return OUTPUT_KEYS.has(key);
}

/** Inputs as the provider uses them, once checked and known. */
export function toRoleInputs(props: Record<string, unknown>): RoleInputs {
  const inputs: RoleInputs = { groupId: props.groupId as number, name: props.name as string };
  if (typeof props.description === "string") inputs.description = props.description;
  if (props.settings && typeof props.settings === "object") inputs.settings = { ...(props.settings as Record<string, boolean>) };
  return inputs;
}

/** Parses a Role resource ID, `"<groupId>/<roleId>"`. */
export function parseRoleId(id: string): { groupId: number; roleId: number } {
  const m = /^(\d+)\/(\d+)$/.exec(id);
  const groupId = m ? Number(m[1]) : NaN;
  const roleId = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(groupId) || !Number.isSafeInteger(roleId) || groupId <= 0 || roleId <= 0) {
    throw new ConfigurationError(`invalid Role ID "${id}": expected "<groupId>/<roleId>" with positive integers, e.g. "42/1001"`);
  }
  return { groupId, roleId };
}

export const formatRoleId = (groupId: number, roleId: number): string => `${groupId}/${roleId}`;

/**
 * The ID a Role gets in state when its create was sent but neither confirmed nor refuted (the reply
 * was lost and the group could not be listed): `"<groupId>/unconfirmed"`. It is Pulumi's partial-create
 * record, the durable evidence that lets the next `pulumi up` adopt the role if it was made.
 */
export const unconfirmedId = (groupId: number): string => `${groupId}/unconfirmed`;

/** The group of an {@link unconfirmedId}, or undefined for any other ID. */
export function unconfirmedGroup(id: string): number | undefined {
  const m = /^(\d+)\/unconfirmed$/.exec(id);
  return m ? Number(m[1]) : undefined;
}
