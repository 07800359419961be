/**
 * A role's fields are described once (client/role-fields.ts). This suite holds everything else to
 * that table: the files `npm run schema` writes from it, the running emulator (the service's rules,
 * stated on their own in emulator/service-rules.ts) at each text field's limit, both resources'
 * checks, and no limit of a field copied by hand into the SDK or the docs.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTED_TEXT_FIELDS, ROLE_FIELDS, SETTING_KEY_MAX, SETTINGS_MAX, TEXT_FIELDS } from "../../client/role-fields";
import { ROLE_NAME_MAX } from "../../client/rules";
import * as groupRoles from "../../provider/group-roles";
import { provider as role, providerAgainstEmulator } from "../provider/provider-harness";
import type { EmulatorHarness } from "../support/emulator";
import { http } from "../support/http";
import { FIELD_ROWS_MARKER, roleFieldOutputs } from "../../tools/schema/role-fields-out";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("what npm run schema writes from the table", () => {
  it.each(roleFieldOutputs(read).map((o) => [o.file, o.text]))("%s is what the table makes", (file, text) => {
    expect(read(file), `${file} differs from client/role-fields.ts: run \`npm run schema\``).toBe(text);
  });
});

describe("each text field, by the table and by the running emulator", () => {
  let h: EmulatorHarness;
  let group = 900;
  beforeAll(async () => {
    // The provider configured against it: a Role's check starts with its settings' check.
    h = await providerAgainstEmulator();
  });
  afterAll(() => h.close());

  it.each(TEXT_FIELDS.map((f) => [f, ROLE_FIELDS[f].max]))("%s: at most %i characters", async (field, max) => {
    const { rule } = ROLE_FIELDS[field];
    const atLimit = "d".repeat(max);
    const over = "d".repeat(max + 1);
    expect([rule.safeParse(atLimit).success, rule.safeParse(over).success]).toEqual([true, false]);

    const g = group++;
    const refused = await http("POST", h.rolesUrl(g), { body: [{ name: "Over", [field]: over }], token: h.emu.token });
    expect(refused.status).toBe(400);
    const [created] = await h.create(g, [{ name: "At limit", [field]: atLimit }]);
    // What the service holds, read back: its details always, its list entry when the field is listed.
    expect((await h.details(g, created!.roleId))[field as keyof object]).toBe(atLimit);
    const entry = (await h.list(g)).find((r) => r.roleId === created!.roleId);
    expect(entry?.[field] === atLimit).toBe(LISTED_TEXT_FIELDS.includes(field));
  });

  it.each(TEXT_FIELDS)("%s over its limit: the same message for a Role and a GroupRoles entry", async (field) => {
    const over = "d".repeat(ROLE_FIELDS[field].max + 1);
    const ofRole = (await role.check({}, { groupId: 42, name: "S", [field]: over })).failures;
    const ofEntry = (await groupRoles.check({}, { groupId: 42, roles: { k: { name: "S", [field]: over } } })).failures;
    expect(ofRole.map((f) => f.property)).toEqual([field]);
    expect(ofEntry.map((f) => f.property)).toEqual([`roles.k.${field}`]);
    expect(ofEntry[0]!.reason).toBe(ofRole[0]!.reason.replaceAll(field, `roles.k.${field}`));
  });
});

describe("a field's limit written in prose is the table's", () => {
  // schema.json, sdk/role-fields.ts and the docs' field rows are written from the table (above). What
  // prose still says of a limit (an example message, the emulator's own rules) must say the table's
  // number: a field's name, then within a few words `at most N`, `1 to N` or `up to N`.
  const limitOf: Record<string, number> = {
    name: ROLE_NAME_MAX,
    ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, ROLE_FIELDS[f].max])),
  };
  const fields = Object.keys(limitOf).join("|");
  const mention = new RegExp(`(?<!setting )\\b(${fields})s?\\b[^|.;()]{0,40}?\\b(?:at most|1 to|up to) (\\d+)`, "gi");
  const settingKeys = /setting names?[^|.;]{0,40}?at most (\d+)|at most (\d+) (?:setting )?keys/gi;

  function wrong(file: string): string[] {
    const text = read(file).replace(/\s+/g, " ");
    const found: string[] = [];
    for (const m of text.matchAll(mention)) {
      const field = m[1]!.toLowerCase();
      if (Number(m[2]) !== limitOf[field]) found.push(`${file}: "${m[0]}" (the table: ${limitOf[field]})`);
    }
    for (const m of text.matchAll(settingKeys)) {
      const [n, limit] = m[1] !== undefined ? [m[1], SETTING_KEY_MAX] : [m[2], SETTINGS_MAX];
      if (Number(n) !== limit) found.push(`${file}: "${m[0]}" (the table: ${limit})`);
    }
    return found;
  }

  const sdk = readdirSync(path.join(root, "sdk"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `sdk/${f}`);
  const docs = readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  const files = [...sdk, ...docs, "README.md", "emulator/README.md"];

  it("in the SDK's sources, the README, the docs and the emulator's README", () => {
    expect(files.flatMap(wrong)).toEqual([]);
    // The docs pages with a field table carry the marker the script writes after.
    for (const f of ["docs/role.md", "docs/group-roles.md"]) expect(read(f)).toContain(FIELD_ROWS_MARKER);
  });

  it("finds the mentions it checks (a scan that finds none proves nothing)", () => {
    const seen = files.flatMap((f) =>
      [...read(f).replace(/\s+/g, " ").matchAll(mention)].map((m) => m[1]!.toLowerCase()),
    );
    // The name's limit is quoted in the docs' example messages; a field the prose never mentions is fine.
    expect(seen).toContain("name");
  });
});
