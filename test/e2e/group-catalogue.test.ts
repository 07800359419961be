/**
 * examples/group-catalogue through the engine stand-in: a team's catalogue as one GroupRoles. Preview,
 * up, rename, swap two names, remove an entry users hold (the preview fails naming it; state and
 * service unchanged), unassign, up, refresh after a hand edit, destroy; outcomes and request counts
 * read from the service.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogPlan, exampleDir, stackFor, type Stack } from "./harness";

interface Entry {
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
}
const original = JSON.parse(readFileSync(path.join(exampleDir("group-catalogue"), "catalogue.json"), "utf8")) as {
  groupId: number;
  roles: Record<string, Entry>;
};

let s: Stack;
let file: string;
let roles: Record<string, Entry>;
const write = (next: Record<string, Entry>) => {
  roles = next;
  writeFileSync(file, JSON.stringify({ groupId: original.groupId, roles }));
};
/** The service's roles: name to roleId. */
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
/** Requests since the last clear, as `METHOD /path-after-group`. */
/** What the credential check of a run that plans a write sends: one list of the group (docs/configuration.md). */
const CREDENTIAL_CHECK = "GET /roles";
const routes = async () =>
  (await s.h.requests()).entries.map((e) => `${e.method} ${e.route.replace("/api/v0/groups/:groupId", "")}`);
const roleIds = (outputs: Record<string, unknown>) => outputs["roleIds"] as Record<string, number>;
/** The GroupRoles resource as the state file holds it. */
const catalogueState = () =>
  (JSON.parse(readFileSync(s.stateFile, "utf8")) as { resources: Array<{ type: string }> }).resources.find((r) =>
    r.type.endsWith(":GroupRoles"),
  );
let ids: Record<string, number>;

beforeAll(async () => {
  s = await stackFor(exampleDir("group-catalogue"), "group-catalogue");
  file = path.join(s.work, "catalogue.json");
  s.run = (
    (run) =>
    (op, config = {}, dir) =>
      run(op, { "group-catalogue:catalogue": file, ...config }, dir)
  )(s.run);
  write(original.roles);
});
afterAll(() => s?.close());

describe("examples/group-catalogue", () => {
  it("preview plans one create and sends only the credential check", async () => {
    const preview = await s.run("preview");
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    expect(catalogPlan(preview)).toEqual(["+ create catalogue"]);
    expect(await routes()).toEqual([CREDENTIAL_CHECK]);
  });

  it("up creates the catalogue in one list and one POST (after the credential check)", async () => {
    await s.h.clearRequests();
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "POST /roles"]);
    ids = roleIds(up.outputs);
    expect(await held()).toEqual(Object.fromEntries(Object.entries(original.roles).map(([k, r]) => [r.name, ids[k]])));
    const support = (await s.h.api("GET", `/groups/42/roles/${ids.support}`)).json;
    expect(support).toMatchObject({
      settings: { viewVideo: true, remoteAssist: true },
      description: "First-line support",
    });
  });

  it("a second up with no change plans nothing and sends one list (the credential check)", async () => {
    await s.h.clearRequests();
    const up = await s.run("up");
    expect(catalogPlan(up)).toEqual([]);
    expect(await routes()).toEqual([CREDENTIAL_CHECK]);
  });

  it("a rename is an update of the same role: one list and one PUT", async () => {
    write({ ...roles, billing: { ...roles.billing!, name: "Billing & Invoices" } });
    const preview = await s.run("preview");
    expect(catalogPlan(preview)).toEqual(["~ update catalogue [roles]"]);
    await s.h.clearRequests();
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "PUT /roles"]);
    expect((await held())["Billing & Invoices"]).toBe(ids.billing);
    expect(roleIds(up.outputs)).toEqual(ids);
  });

  it("two roles swap names in one PUT", async () => {
    write({
      ...roles,
      support: { ...roles.support!, name: "Escalations" },
      escalations: { ...roles.escalations!, name: "Support" },
    });
    await s.h.clearRequests();
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "PUT /roles"]);
    const now = await held();
    expect([now["Escalations"], now["Support"]]).toEqual([ids.support, ids.escalations]);
  });

  it("removing an entry users hold fails the preview, naming it, in one list; state, service unchanged", async () => {
    await s.h.setUsers(42, ids.trainees!, 3);
    const stateBefore = catalogueState();
    const heldBefore = await held();
    const { trainees: _removed, ...rest } = roles;
    write(rest);
    await s.h.clearRequests();
    const preview = await s.run("preview");
    expect(preview.ok).toBe(false);
    const message = preview.errors.join("\n");
    expect(message).toContain(`roles.trainees: "Trainees" (roleId ${ids.trainees}) is held by 3 users`);
    expect(message).toContain("unassign its users");
    expect(await routes()).toEqual(["GET /roles"]);
    // `up` refuses the same way, before any write
    const up = await s.run("up");
    expect(up.ok).toBe(false);
    expect(up.errors.join("\n")).toContain(`roles.trainees: "Trainees" (roleId ${ids.trainees}) is held by 3 users`);
    expect((await routes()).filter((r) => !r.startsWith("GET"))).toEqual([]);
    expect(catalogueState()).toEqual(stateBefore);
    expect(await held()).toEqual(heldBefore);
  });

  it("once its users are unassigned, the removal applies: one list and one delete-roles", async () => {
    await s.h.setUsers(42, ids.trainees!, 0);
    await s.h.clearRequests();
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    // Diff's in-use check (what the preview sends; it confirms the credentials too), then the update's own
    // list, which checks again.
    expect(await routes()).toEqual(["GET /roles", "GET /roles", "POST /delete-roles"]);
    expect(Object.keys(await held())).not.toContain("Trainees");
    expect(Object.keys(roleIds(up.outputs)).sort()).toEqual(["billing", "escalations", "sales", "support"]);
  });

  it("refresh after a hand edit: one list, each role's details (and the credential check), the drift shown; up puts it back", async () => {
    await s.h.api("PUT", "/groups/42/roles", [
      { roleId: ids.sales, name: "Sales (by hand)", settings: { viewVideo: false } },
    ]);
    await s.h.clearRequests();
    const refresh = await s.run("refresh");
    expect(refresh.ok, refresh.errors.join("\n")).toBe(true);
    expect(catalogPlan(refresh)).toEqual([expect.stringMatching(/^~ refresh catalogue/)]);
    // Read's list, and the credential check of the Diff that tells the drift (a write is what it plans).
    expect((await s.h.requests()).counts).toEqual({
      "GET /api/v0/groups/:groupId/roles": 2,
      "GET /api/v0/groups/:groupId/roles/:roleId": 4,
    });
    // A drift previews without property names (the program's inputs did not change; see docs/limits.md).
    expect(catalogPlan(await s.run("preview"))).toEqual(["~ update catalogue"]);
    const up = await s.run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect((await held())["Sales"]).toBe(ids.sales);
    expect((await s.h.api("GET", `/groups/42/roles/${ids.sales}`)).json).toMatchObject({
      settings: { viewVideo: true, inviteGuest: true },
    });
  });

  it("destroy deletes the catalogue in one delete-roles, after its hook's list and its own", async () => {
    await s.h.clearRequests();
    const destroy = await s.run("destroy");
    expect(destroy.ok, destroy.errors.join("\n")).toBe(true);
    // The before-delete hook reads the group (no role may be held), then the provider's delete lists it.
    expect(await routes()).toEqual(["GET /roles", "GET /roles", "POST /delete-roles"]);
    expect(await s.h.listRoles(42)).toEqual([]);
  });
});
