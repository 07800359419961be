/**
 * The Role resource's inputs and outputs as they travel through the dynamic provider, and their
 * validation (`check`). Validation is zod-backed, field by field, so that an unknown value during
 * preview skips just that field and every failure names its property path.
 */
import { z } from "zod";
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX, hasControlChar, hasLoneSurrogate } from "./wire";
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

const groupIdSchema = z
  .number({ error: (i) => (i.input === undefined ? "is required" : `must be a number, got ${describe(i.input)}`) })
  .int({ error: (i) => `must be an integer, got ${String(i.input)}` })
  .positive({ error: (i) => `must be a positive integer, got ${String(i.input)}` })
  .max(Number.MAX_SAFE_INTEGER, { error: "is too large" });

/**
 * The length the limits count: UTF-16 code units, a JavaScript string's `length`. The vendor's stack
 * (.NET, SQL `nvarchar`) counts them, so an emoji is 2: a name of 70 emoji would pass a code-point count
 * here and fail at `up`. When the count differs from what a reader sees, the message says why.
 */
function lengthOf(s: string): string {
  return [...s].length === s.length ? String(s.length) : `${s.length} (UTF-16 code units: an emoji counts 2)`;
}

const UNICODE = "must be valid Unicode (it holds a lone surrogate, half of a character)";

const nameSchema = z
  .string({ error: (i) => (i.input === undefined ? "is required" : `must be a string, got ${describe(i.input)}`) })
  .min(1, { error: "must not be empty" })
  .refine((s) => s.length <= ROLE_NAME_MAX, {
    error: (i) => `must be at most ${ROLE_NAME_MAX} characters, got ${lengthOf(i.input as string)}`,
    abort: true,
  })
  .refine((s) => s.trim().length > 0, { error: "must not be blank (whitespace only)" })
  .refine((s) => !hasLoneSurrogate(s), { error: UNICODE })
  .refine((s) => !hasControlChar(s), { error: "must not contain control characters (line breaks, tabs, NUL)" });

const descriptionSchema = z
  .string({ error: (i) => `must be a string, got ${describe(i.input)}` })
  .refine((s) => s.length <= ROLE_DESCRIPTION_MAX, {
    error: (i) => `must be at most ${ROLE_DESCRIPTION_MAX} characters, got ${lengthOf(i.input as string)}`,
    abort: true,
  })
  .refine((s) => !hasLoneSurrogate(s), { error: UNICODE });

/**
 * Checks a role name as `check` does; returns the reason (prefixed with `name`) or undefined. Used by
 * the lookups too, so a name no role can have fails before any request.
 */
export function roleNameProblem(name: unknown): string | undefined {
  const r = nameSchema.safeParse(name);
  return r.success ? undefined : `name ${r.error.issues[0].message}`;
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

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}

function checkField(schema: z.ZodType, value: unknown, property: string, failures: CheckFailure[]): void {
  if (isUnknown(value)) return;
  const r = schema.safeParse(value);
  if (!r.success) failures.push({ property, reason: `${property} ${r.error.issues[0].message}` });
}

const KNOWN_PROPERTIES = new Set(["groupId", "name", "description", "settings", "importId", "sameNameAs", "__provider"]);

/**
 * Checks Role inputs. Unknown values (preview) pass; everything else is checked here, before any
 * request, so a bad program fails in `pulumi preview` with every problem listed at once.
 */
export function checkRoleInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  checkField(groupIdSchema, news.groupId, "groupId", failures);
  checkField(nameSchema, news.name, "name", failures);
  if (news.description !== undefined) checkField(descriptionSchema, news.description, "description", failures);
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
    throw new Error(`invalid Role ID "${id}": expected "<groupId>/<roleId>" with positive integers, e.g. "42/1001"`);
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
