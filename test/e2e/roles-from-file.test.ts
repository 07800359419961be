/**
 * examples/roles-from-file: a catalogue becomes roles; removing entries deletes them, except that
 * in-use roles are refused, retainOnDelete keeps them in the service, and protect refuses.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleDir, rolePlan, stackFor, type Stack } from "./harness";

interface Entry {
  key: string;
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
  protect?: boolean;
  retainOnDelete?: boolean;
}
const original = JSON.parse(readFileSync(path.join(exampleDir("roles-from-file"), "roles.json"), "utf8")) as {
  groupId: number;
  roles: Entry[];
};

let s: Stack;
let catalogue: string;
const write = (roles: Entry[]) => writeFileSync(catalogue, JSON.stringify({ groupId: original.groupId, roles }));
const byKey = (...keys: string[]) => keys.map((k) => original.roles.find((r) => r.key === k)!);
/** URNs in the state file as it is on disk. */
const stateUrns = () =>
  (JSON.parse(readFileSync(s.stateFile, "utf8")) as { resources: Array<{ urn: string }> }).resources.map((r) => r.urn);
const roleIdOf = async (name: string) => (await s.h.listRoles(42)).find((r) => r.name === name)!.roleId;

beforeAll(async () => {
  s = await stackFor(exampleDir("roles-from-file"), "roles-from-file");
  catalogue = path.join(s.work, "roles.json");
  s.run = (
    (run) =>
    (op, config = {}, dir) =>
      run(op, { "roles-from-file:catalogue": catalogue, ...config }, dir)
  )(s.run);
});
afterAll(() => s?.close());

describe("examples/roles-from-file", () => {
  it("preview plans one create per catalogue entry and sends no write", async () => {
    write(original.roles);
    const preview = await s.run("preview");
    expect(rolePlan(preview).sort()).toEqual([
      "+ create admins",
      "+ create billing",
      "+ create sales",
      "+ create support",
    ]);
    expect(Object.keys((await s.h.requests()).counts).filter((k) => !k.startsWith("GET"))).toEqual([]);
  });

  it("creates one role per catalogue entry", async () => {
    write(original.roles);
    const r = await s.run("up");
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).map((x) => x.name).sort()).toEqual([
      "Administrators",
      "Billing",
      "Sales",
      "Support",
    ]);
  });

  it("a second up with no change plans nothing and sends one list (the group's credential check)", async () => {
    await s.h.clearRequests();
    const r = await s.run("up");
    expect(r.ok).toBe(true);
    expect(rolePlan(r)).toEqual([]);
    expect((await s.h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
  });

  it("preview of an edited catalogue shows the exact plan, and up applies it", async () => {
    const [support, billing, sales, admins] = byKey("support", "billing", "sales", "admins");
    const edited = [
      { ...support, settings: { remoteAssist: true, viewVideo: false } },
      { ...billing, name: "Billing & Invoices" },
      sales,
      admins,
    ];
    write(edited);
    const preview = await s.run("preview");
    expect(rolePlan(preview).sort()).toEqual(["~ update billing [name]", "~ update support [settings]"]);
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).map((x) => x.name).sort()).toEqual([
      "Administrators",
      "Billing & Invoices",
      "Sales",
      "Support",
    ]);
    write(original.roles);
    expect((await s.run("up")).ok).toBe(true);
  });

  it("refresh records a role's new user count and drops a role deleted by hand", async () => {
    await s.h.setUsers(42, await roleIdOf("Billing"), 2);
    const r = await s.run("refresh");
    expect(r.ok, r.errors.join("\n")).toBe(true);
    const billing = r.resources.find((x) => x.urn.endsWith("::billing"))!;
    expect(billing.outputs).toMatchObject({ inUse: true, userCount: 2 });
    await s.h.setUsers(42, await roleIdOf("Billing"), 0);
    await s.h.api("POST", "/groups/42/delete-roles", [await roleIdOf("Support")]);
    const again = await s.run("refresh");
    expect(again.ok).toBe(true);
    expect(stateUrns().some((urn) => urn.endsWith("::support"))).toBe(false);
    const up = await s.run("up");
    expect(rolePlan(up)).toEqual(["+ create support"]);
    expect((await s.h.listRoles(42)).filter((x) => x.name === "Support")).toHaveLength(1);
  });

  it("removing an in-use role fails the preview and the up with the in-use message; state and service keep it", async () => {
    const salesId = await roleIdOf("Sales");
    await s.h.setUsers(42, salesId, 4);
    write(byKey("support", "billing", "admins"));
    // The before-delete hook refuses it in the preview already (docs/delete-hooks.md).
    const inUse = `Role 'sales' would delete a role that users hold: role "Sales" (id 42/${salesId}), held by 4 users`;
    const preview = await s.run("preview");
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain(inUse);
    const r = await s.run("up");
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain(inUse);
    expect(stateUrns().some((urn) => urn.endsWith("::sales"))).toBe(true);
    expect((await s.h.listRoles(42)).some((x) => x.name === "Sales")).toBe(true);
  });

  it("retainOnDelete drops the role from state and leaves it in the service", async () => {
    const [support, billing, sales, admins] = byKey("support", "billing", "sales", "admins");
    write([support, billing, { ...sales, retainOnDelete: true }, admins]);
    expect((await s.run("up")).ok).toBe(true);
    write([support, billing, admins]);
    const r = await s.run("up");
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect(stateUrns().some((urn) => urn.endsWith("::sales"))).toBe(false);
    expect((await s.h.listRoles(42)).some((x) => x.name === "Sales")).toBe(true);
  });

  it("protect refuses deleting a role, in up and in destroy", async () => {
    write(byKey("support", "billing"));
    const r = await s.run("up");
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toMatch(/protect/);
    expect((await s.h.listRoles(42)).some((x) => x.name === "Administrators")).toBe(true);
    // Without `--run-program`: a destroy of a stack holding a protected resource with it hits Pulumi's
    // snapshot integrity failure (v3.274.1: pulumi/pulumi#21277, open; tried here through the real CLI, the
    // stack and its provider were deleted while the protected Role stayed). So it is refused for its hooks.
    s.flags = { runProgram: false };
    const d = await s.run("destroy");
    s.flags = undefined;
    expect(d.ok).toBe(false);
    expect(d.errors.join("\n")).toContain("Resource has delete hooks registered, but the program is not running");
    expect((await s.h.listRoles(42)).some((x) => x.name === "Administrators")).toBe(true);
  });

  it("once unprotected, destroy removes everything the stack manages", async () => {
    const [support, billing, admins] = byKey("support", "billing", "admins");
    write([support, billing, { ...admins, protect: false }]);
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const d = await s.run("destroy");
    expect(d.ok, d.errors.join("\n")).toBe(true);
    // only the retained "Sales" is left in the service
    expect((await s.h.listRoles(42)).map((x) => x.name)).toEqual(["Sales"]);
  });
});
