/**
 * A role's fields, described once: their kind, rules, what "absent" means and their documentation.
 * Everything else that handles a role's fields is made from this table or checked against it:
 *
 * - the client's request and reply shapes (./wire) and what it returns (./roles);
 * - the provider's checks, diffs, creates, updates (temporary names carry every field) and read-backs;
 * - schema.json, the SDK's field types (sdk/role-fields.ts) and the field tables in docs/role.md and
 *   docs/group-roles.md, which `npm run schema` writes from this table (a test fails when they differ).
 *
 * The emulator states the service's rules on its own (emulator/service-rules.ts): it is the oracle
 * these are tested against, so it does not import this file.
 *
 * Kinds: `name` is the one required text (the role's identity within a group); a `text` field is an
 * optional string the service stores and returns as is; `settings` is the map of permission settings,
 * of which a program manages only the keys it lists (provider/shared/settings.ts).
 */
import type { z } from "zod";
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX, roleNameRule, roleTextRule } from "./rules";

interface FieldDocs {
  /** What the program declares: the input's documentation. */
  input: string;
  /** The rules column of the docs' input tables (markdown). */
  rules: string;
  /** What a `GroupRoles` entry adds to the rules of a `Role`'s field (docs/group-roles.md). */
  inCatalogue?: string;
  /** A `Role`'s output, a lookup's result, a list entry: present only when set. */
  output: string;
  /** An entry of a `GroupRoles` resource's `roles` output: always present. */
  state: string;
}

interface NameField {
  kind: "name";
  rule: z.ZodType<string>;
  docs: FieldDocs;
}

interface TextField {
  kind: "text";
  rule: z.ZodType<string>;
  /** Longest value, in UTF-16 code units (the rule says so too). */
  max: number;
  /** The list endpoint shows it (so a role's list entry carries it, not only its details). */
  listed: boolean;
  docs: FieldDocs;
}

interface SettingsField {
  kind: "settings";
  docs: FieldDocs & {
    /** `getRole`'s result: every setting the service reports. */
    lookup: string;
  };
}

/** Longest setting name accepted; the documented ones are under 40 characters. */
export const SETTING_KEY_MAX = 100;
/** Most settings one role may declare; the service documents 35. */
export const SETTINGS_MAX = 200;

/** An optional text field: its absence, `null` and `""` are one value, "not set" (see {@link textOf}). */
function text(labels: { input: string; output: string }, limit: number, listed: boolean): TextField {
  return {
    kind: "text",
    rule: roleTextRule(limit),
    max: limit,
    listed,
    docs: {
      input: `${labels.input}: at most ${limit} characters. Omitted means empty.`,
      rules: `at most ${limit} characters; omitted means empty`,
      output: `${labels.output}, when one is set.`,
      state: `${labels.output} (empty when none is set).`,
    },
  };
}

/**
 * The fields of a role a program declares, in the order the docs list them. Every field is updatable
 * in place (a rename too) and none is secret: the service returns them to anyone who may list roles.
 */
export const ROLE_FIELDS = {
  name: {
    kind: "name",
    rule: roleNameRule,
    docs: {
      input: `Display name: 1 to ${ROLE_NAME_MAX} characters, not blank, unique within the group. Changing it renames the role.`,
      rules: `1 to ${ROLE_NAME_MAX} characters, not blank, no control characters, unique in the group`,
      inCatalogue: "unique among the entries (two entries with one name fail in the preview)",
      output: "Display name.",
      state: "Display name.",
    },
  } satisfies NameField,
  description: text({ input: "Text describing the role", output: "Description" }, ROLE_DESCRIPTION_MAX, true),
  settings: {
    kind: "settings",
    docs: {
      input:
        "Permission settings: setting name to enabled, e.g. `{ viewVideo: true, remoteAssist: false }`. Only the keys " +
        "listed are managed; removing a key resets that setting in the service. Key order never matters. A key " +
        "that looks like a typo of a known setting is refused in preview.",
      rules:
        "only the keys you list are managed (others, set by hand or present on an imported role, are kept); " +
        `removing a key resets it; setting names are identifiers of at most ${SETTING_KEY_MAX} characters, at most ` +
        `${SETTINGS_MAX} keys`,
      inCatalogue: "only the listed keys are managed, unlisted keys survive, a removed key is reset",
      output: "The declared settings keys with the values the service holds (after an import: every setting).",
      state: "The declared settings keys with the values the service holds (after an import: every setting).",
      lookup: "Every setting the service reports for the role.",
    },
  } satisfies SettingsField,
} as const;

export type RoleFieldName = keyof typeof ROLE_FIELDS;
/** The optional text fields (`description`, ...). */
export type TextFieldName = {
  [K in RoleFieldName]: (typeof ROLE_FIELDS)[K]["kind"] extends "text" ? K : never;
}[RoleFieldName];

export const ROLE_FIELD_NAMES = Object.keys(ROLE_FIELDS) as RoleFieldName[];
export const TEXT_FIELDS = ROLE_FIELD_NAMES.filter((f) => ROLE_FIELDS[f].kind === "text") as TextFieldName[];
/** The text fields the list endpoint shows. */
export const LISTED_TEXT_FIELDS = TEXT_FIELDS.filter((f) => (ROLE_FIELDS[f] as TextField).listed);

/** Words in prose: `a`, `a and b`, `a, b and c`. */
export const inProse = (words: readonly string[]): string =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

/** A role's shape for messages, `{ name, description?, settings? }`, with `extra` optional fields. */
export const roleShape = (...extra: string[]): string =>
  `{ ${[...ROLE_FIELD_NAMES.map((f) => (ROLE_FIELDS[f].kind === "name" ? f : `${f}?`)), ...extra.map((e) => `${e}?`)].join(", ")} }`;

/** The optional text fields of a role, each as a plain string when set. */
export type TextFields = { [K in TextFieldName]?: string };
/** The same, each present (`""` when not set): how a GroupRoles entry's state holds them. */
export type HeldTextFields = { [K in TextFieldName]: string };

/**
 * The one "absent" rule of a text field: not set, `null` and `""` read the same, as `""`. Every
 * comparison of a text field goes through it, so declaring `description: ""` is never a change from
 * leaving it out, and a role the service shows without a description equals one showing `""`.
 */
export const textOf = (value: unknown): string => (typeof value === "string" ? value : "");

/** Any object that may carry a role's fields: inputs, state, a reply. */
type Carrier = object;
const fieldOf = (source: Carrier, field: string): unknown => (source as Record<string, unknown>)[field];

/** The text fields `source` carries as strings (`null` and other values are left out). */
export function textFieldsOf(source: Carrier, fields = TEXT_FIELDS): TextFields {
  const out: TextFields = {};
  for (const f of fields) {
    const value = fieldOf(source, f);
    if (typeof value === "string") out[f] = value;
  }
  return out;
}

/** The text fields of `source` that are set (not absent, not `""`): what an import declares. */
export function setTextFields(source: Carrier): TextFields {
  const out: TextFields = {};
  for (const f of TEXT_FIELDS) {
    const value = textOf(fieldOf(source, f));
    if (value !== "") out[f] = value;
  }
  return out;
}

/**
 * A role's text fields from a detail read and its list entry: the list's where it shows them (the
 * list of the same moment as `inUse`), else the details'.
 */
export const textFromReplies = (details: Carrier, listed: Carrier): HeldTextFields =>
  heldTextFields({ ...textFieldsOf(details), ...textFieldsOf(listed) });

/** Every text field of `source`, `""` where absent: the values an update sends, or a state holds. */
export function heldTextFields(source: Carrier): HeldTextFields {
  const out = {} as HeldTextFields;
  for (const f of TEXT_FIELDS) out[f] = textOf(fieldOf(source, f));
  return out;
}

/** The text fields whose values differ under the absent rule (or whose new value `isUnknown`). */
export function changedTextFields(
  olds: Carrier,
  news: Carrier,
  isUnknown: (value: unknown) => boolean = () => false,
): TextFieldName[] {
  return TEXT_FIELDS.filter(
    (f) => isUnknown(fieldOf(news, f)) || textOf(fieldOf(olds, f)) !== textOf(fieldOf(news, f)),
  );
}
