/**
 * What `npm run schema` writes from the table of a role's fields (client/role-fields.ts): the role
 * fields' places in schema.json, the SDK's field types (sdk/role-fields.ts) and the field rows of the
 * docs' input tables. Each function takes the file's current text and returns what it should be, so
 * test/architecture/role-fields.test.ts can fail when a file differs from what the script writes.
 *
 * The rest of schema.json (package metadata, config, functions' other arguments) stays as written by
 * hand: only the role fields are described in more than one place.
 */
import { ROLE_FIELD_NAMES, ROLE_FIELDS, LISTED_TEXT_FIELDS, type RoleFieldName } from "../../client/role-fields";

type Json = Record<string, unknown>;
type Kind = (typeof ROLE_FIELDS)[RoleFieldName]["kind"];
/** Which documentation a place of a field takes, and whether the place requires it. */
type Slot = "input" | "output" | "state" | "lookup";

const schemaType = (kind: Kind): Json =>
  kind === "settings" ? { type: "object", additionalProperties: { type: "boolean" } } : { type: "string" };

const docOf = (field: RoleFieldName, slot: Slot): string => {
  const docs = ROLE_FIELDS[field].docs as Record<string, string | undefined>;
  return docs[slot] ?? docs.output!;
};

/**
 * `properties` with the role fields `fields` in place (where the first of them was, else at the end),
 * each described for `slot`; other properties keep their place.
 */
function withFields(properties: Json, fields: readonly RoleFieldName[], slot: Slot): Json {
  const described = Object.fromEntries(
    fields.map((f) => [f, { ...schemaType(ROLE_FIELDS[f].kind), description: docOf(f, slot) }]),
  );
  const out: Json = {};
  let placed = false;
  for (const [key, value] of Object.entries(properties)) {
    const isField = (ROLE_FIELD_NAMES as string[]).includes(key);
    if (isField && !placed) Object.assign(out, described);
    if (isField) placed = true;
    else out[key] = value;
  }
  return placed ? out : { ...out, ...described };
}

/**
 * Whether a field is always present in `slot`: the name always; every field of a catalogue entry's
 * state; the settings of a lookup (every setting the service reports, perhaps none).
 */
const alwaysIn = (slot: Slot, kind: Kind): boolean =>
  kind === "name" || slot === "state" || (slot === "lookup" && kind === "settings");

/** `required` with the role fields that `slot` requires, where `name` was. */
function withRequired(required: readonly string[], slot: Slot, fields: readonly RoleFieldName[]): string[] {
  const needed = fields.filter((f) => alwaysIn(slot, ROLE_FIELDS[f].kind));
  const at = required.indexOf("name");
  const rest = required.filter((r) => !(ROLE_FIELD_NAMES as string[]).includes(r));
  const index = at < 0 ? rest.length : required.slice(0, at).filter((r) => rest.includes(r)).length;
  return [...rest.slice(0, index), ...needed, ...rest.slice(index)];
}

/** schema.json with every place of a role's fields written from the table. */
export function schemaWithRoleFields(schemaText: string): string {
  const schema = JSON.parse(schemaText) as {
    resources: Record<string, Json>;
    types: Record<string, Json>;
    functions: Record<string, { outputs: Json }>;
  };
  const place = (owner: Json, props: string, req: string, fields: readonly RoleFieldName[], slot: Slot) => {
    owner[props] = withFields(owner[props] as Json, fields, slot);
    owner[req] = withRequired(owner[req] as string[], slot, fields);
  };
  const role = schema.resources["grouproles:index:Role"]!;
  place(role, "inputProperties", "requiredInputs", ROLE_FIELD_NAMES, "input");
  place(role, "properties", "required", ROLE_FIELD_NAMES, "output");
  place(schema.types["grouproles:index:GroupRoleEntry"]!, "properties", "required", ROLE_FIELD_NAMES, "input");
  place(schema.types["grouproles:index:GroupRoleState"]!, "properties", "required", ROLE_FIELD_NAMES, "state");
  place(
    schema.types["grouproles:index:RoleSummary"]!,
    "properties",
    "required",
    ["name", ...LISTED_TEXT_FIELDS],
    "output",
  );
  place(schema.functions["grouproles:index:getRole"]!.outputs, "properties", "required", ROLE_FIELD_NAMES, "lookup");
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** A doc comment at `indent`, its text wrapped to lines of at most 120 characters. */
function docComment(text: string, indent: string): string {
  const width = 120 - indent.length - 3;
  if (text.length <= width - 4) return `${indent}/** ${text} */\n`;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join("")}${indent} */\n`;
}

const TS_TYPES: Record<Kind, { input: string; output: string; plain: string }> = {
  name: { input: "pulumi.Input<string>", output: "pulumi.Output<string>", plain: "string" },
  text: { input: "pulumi.Input<string>", output: "pulumi.Output<string | undefined>", plain: "string" },
  settings: {
    input: "pulumi.Input<RoleSettings>",
    output: "pulumi.Output<Record<string, boolean> | undefined>",
    plain: "Record<string, boolean>",
  },
};

/** sdk/role-fields.ts: the SDK's types of a role's fields, with their documentation. */
export function sdkRoleFields(): string {
  const members = (slot: Slot, type: (kind: Kind) => string, optional: (kind: Kind) => boolean, ro = "") =>
    ROLE_FIELD_NAMES.map((f) => {
      const kind = ROLE_FIELDS[f].kind;
      return `${docComment(docOf(f, slot), "  ")}  ${ro}${f}${optional(kind) ? "?" : ""}: ${type(kind)};\n`;
    }).join("");
  return `/**
 * A role's fields as the SDK types them, written by \`npm run schema\` from client/role-fields.ts: do
 * not edit (test/architecture/role-fields.test.ts fails when this file differs from what it writes).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RoleSettings } from "./settings";

/** A role's fields as a program declares them: a \`Role\`'s arguments, an entry of a \`GroupRoles\`. */
export interface RoleFieldArgs {
${members(
  "input",
  (k) => TS_TYPES[k].input,
  (k) => k !== "name",
)}}

/** A \`Role\`'s outputs of its fields. */
export interface RoleFieldOutputs {
${members(
  "output",
  (k) => TS_TYPES[k].output,
  () => false,
  "readonly ",
)}}

/** A role's fields as an entry of a \`GroupRoles\` resource's \`roles\` output holds them: always present. */
export interface RoleFieldState {
${members(
  "state",
  (k) => TS_TYPES[k].plain,
  () => false,
)}}
`;
}

const MD_TYPES: Record<Kind, string> = { name: "string", text: "string", settings: "map of setting name to boolean" };

/**
 * The input table after the marker `<!-- role fields: ... -->` of a docs page with its field rows
 * written from the table: `prefix` leads each field's name (`roles.<key>.` in docs/group-roles.md),
 * where a catalogue's rules refer to a `Role`'s. Other rows keep their place; the field rows go where
 * the first of them was.
 */
export function docsWithFieldRows(markdown: string, marker: string, prefix: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.includes(marker));
  if (start < 0) throw new Error(`no "${marker}" marker`);
  const rows = ROLE_FIELD_NAMES.map((f) => {
    const field = ROLE_FIELDS[f];
    const optional = field.kind === "name" ? "" : "?";
    const inCatalogue = "inCatalogue" in field.docs ? `: ${field.docs.inCatalogue}` : "";
    const rules = prefix ? `as a \`Role\`'s${inCatalogue}` : field.docs.rules;
    return `| \`${prefix}${f}${optional}\` | ${MD_TYPES[field.kind]} | ${rules} |`;
  });
  const isFieldRow = (l: string) =>
    ROLE_FIELD_NAMES.some((f) => l.startsWith(`| \`${prefix}${f}\``) || l.startsWith(`| \`${prefix}${f}?\``));
  const out = lines.slice(0, start + 1);
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith("|")) out.push(lines[i++]!);
  let placed = false;
  for (; i < lines.length && lines[i]!.startsWith("|"); i++) {
    if (!isFieldRow(lines[i]!)) out.push(lines[i]!);
    else if (!placed) {
      out.push(...rows);
      placed = true;
    }
  }
  if (!placed) throw new Error(`the table after "${marker}" has no role field row to replace`);
  return [...out, ...lines.slice(i)].join("\n");
}

/** The docs pages with role field rows: file, marker, prefix. */
export const FIELD_TABLES = [
  { file: "docs/role.md", prefix: "" },
  { file: "docs/group-roles.md", prefix: "roles.<key>." },
] as const;
export const FIELD_ROWS_MARKER = "<!-- role fields: npm run schema writes their rows from client/role-fields.ts -->";

/** Every file the script writes, relative to the repository root, with its text from the current one. */
export function roleFieldOutputs(read: (file: string) => string): Array<{ file: string; text: string }> {
  return [
    { file: "schema.json", text: schemaWithRoleFields(read("schema.json")) },
    { file: "sdk/role-fields.ts", text: sdkRoleFields() },
    ...FIELD_TABLES.map(({ file, prefix }) => ({
      file,
      text: docsWithFieldRows(read(file), FIELD_ROWS_MARKER, prefix),
    })),
  ];
}
