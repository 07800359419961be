/**
 * An Automation API process runs an inline program once per operation (a preview, then an up, is the
 * common case), with this package loaded once. What the SDK remembers of a program's declarations (a
 * role name per group, the exclusive catalogue of a group) belongs to one run: the second run must not
 * find the first run's Roles "declared twice". Through the engine stand-in's inline host (Pulumi's
 * own LanguageServer) against the emulator.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { runMixed, specProgram, stackFor, type GroupRolesSpec, type RoleSpec, type Stack } from "../e2e/harness";

let s: Stack;
beforeAll(async () => {
  s = await stackFor(specProgram, "roles-spec", {}, {}, undefined, "dynamic", "inline");
});
afterAll(() => s?.close());

const role = (name: string, roleName: string): RoleSpec => ({ name, args: { groupId: 42, name: roleName } });
const exclusive = {
  name: "catalogue",
  args: { groupId: 43, roles: { a: { name: "A" } }, exclusive: true },
} satisfies GroupRolesSpec;

it("a preview then an up in one process: each run sees only its own declarations", async () => {
  const program = [role("support", "Support"), role("billing", "Billing")];
  const preview = await runMixed(s, "preview", [exclusive], program);
  expect(preview.ok, preview.errors.join("\n")).toBe(true);
  // The program changed between the two runs: its exclusive catalogue has another resource name.
  const up = await runMixed(s, "up", [{ ...exclusive, name: "roles43" }], program);
  expect(up.ok, up.errors.join("\n")).toBe(true);
  expect(s.inlineHost?.starts).toBe(1); // both runs in one process
  expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Billing", "Support"]);
  expect((await s.h.listRoles(43)).map((r) => r.name)).toEqual(["A"]);
});

it("within one run, a name declared twice and a second exclusive catalogue are still refused", async () => {
  const twice = await runMixed(s, "preview", [], [role("support", "Support"), role("helpdesk", "Support")]);
  expect(twice.ok).toBe(false);
  expect(twice.errors.join("\n")).toContain('Role resource "support" of this program already declares a role named');
  const second = { ...exclusive, name: "other" };
  const both = await runMixed(s, "preview", [exclusive, second], []);
  expect(both.ok).toBe(false);
  expect(both.errors.join("\n")).toContain("GroupRoles 'catalogue' already has `exclusive: true` for group 43");
});
