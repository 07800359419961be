/**
 * `exclusive: true`: a catalogue that owns its group. Roles made outside the program show in the
 * preview (reported through the engine's Log service, as a provider's diagnostics) and go at `up`; one
 * that users hold fails the preview; roles another resource of the program takes over stay; two
 * exclusive catalogues of one group are refused; turning it on and off is an update. Through the
 * engine stand-in against the emulator; outcomes read from the service and its request log.
 */
import { describe, expect, it } from "vitest";
import { catalogPlan, runMixed, specStackPerFile, type GroupRolesSpec, type RoleSpec, type Stack } from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

type Entries = GroupRolesSpec["args"]["roles"];
const cat = (roles: Entries, extra: Partial<GroupRolesSpec["args"]> = {}, name = "catalogue"): GroupRolesSpec => ({
  name,
  args: { groupId: 42, roles, ...extra },
});
const up = async (cats: GroupRolesSpec[], roles: RoleSpec[] = []) => {
  const r = await runMixed(s, "up", cats, roles);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
const routes = async () =>
  (await s.h.requests()).entries.map((e) => `${e.method} ${e.route.replace("/api/v0/groups/:groupId", "")}`);
const infos = (r: { diagnostics: Array<{ severity: string; message: string }> }) =>
  r.diagnostics.filter((d) => d.severity === "info").map((d) => d.message);
const AB: Entries = { a: { name: "A" }, b: { name: "B" } };

describe("GroupRoles with exclusive: true", () => {
  it("shows roles made by hand in the preview, removes them at up, and costs one list when there are none", async () => {
    await up([cat(AB)]);
    const hand = await s.h.create(42, [{ name: "Hand 1" }, { name: "Hand 2" }]);
    await s.h.clearRequests();
    const preview = await runMixed(s, "preview", [cat(AB, { exclusive: true })]);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    expect(catalogPlan(preview)).toEqual(["~ update catalogue [exclusive]"]);
    const report = infos(preview).join("\n");
    expect(report).toContain("GroupRoles of group 42: `exclusive` turns on: from this change on");
    expect(report).toContain(
      "GroupRoles of group 42 (exclusive): 2 roles the program does not declare would be removed",
    );
    expect(report).toContain(`"Hand 1" (roleId ${hand[0]!.roleId}, no users)`);
    expect(await routes()).toEqual(["GET /roles"]);
    expect(Object.keys(await held()).sort()).toEqual(["A", "B", "Hand 1", "Hand 2"]);

    await s.h.clearRequests();
    const applied = await up([cat(AB, { exclusive: true })]);
    expect(infos(applied).join("\n")).toContain("2 roles the program does not declare were removed");
    expect(Object.keys(await held()).sort()).toEqual(["A", "B"]);
    expect((await routes()).filter((r) => !r.startsWith("GET"))).toEqual(["POST /delete-roles"]);

    // Nothing made by hand: the exclusive preview is its one list, and plans nothing.
    await s.h.clearRequests();
    const quiet = await runMixed(s, "preview", [cat(AB, { exclusive: true })]);
    expect(quiet.planText).toBe("");
    expect(await routes()).toEqual(["GET /roles"]);
    // Off is an update that removes nothing; then a non-exclusive no-op preview sends nothing.
    await s.h.create(42, [{ name: "Hand 3" }]);
    const off = await up([cat(AB)]);
    expect(catalogPlan(off)).toEqual(["~ update catalogue [exclusive]"]);
    expect(infos(off).join("\n")).toContain(
      "GroupRoles of group 42: `exclusive` turns off: this catalogue no longer removes",
    );
    expect(Object.keys(await held()).sort()).toEqual(["A", "B", "Hand 3"]);
    await s.h.clearRequests();
    expect((await runMixed(s, "preview", [cat(AB)])).planText).toBe("");
    expect(await routes()).toEqual(["GET /roles"]); // the credential check only
  });

  it("refuses in the preview to remove a role users hold, naming it and the ways out", async () => {
    await up([cat(AB)]);
    const [hand] = await s.h.create(42, [{ name: "Hand held" }]);
    await s.h.setUsers(42, hand!.roleId, 4);
    await s.h.clearRequests();
    const preview = await runMixed(s, "preview", [cat(AB, { exclusive: true })]);
    expect(preview.ok).toBe(false);
    const message = preview.errors.join("\n");
    expect(message).toContain(`"Hand held" (roleId ${hand!.roleId}) is held by 4 users`);
    expect(message).toContain("declare it");
    expect(message).toContain("leave `exclusive` off");
    expect(await routes()).toEqual(["GET /roles"]);
    // `up` refuses the same way, before any write.
    expect((await runMixed(s, "up", [cat(AB, { exclusive: true })])).ok).toBe(false);
    expect(Object.keys(await held()).sort()).toEqual(["A", "B", "Hand held"]);
  });

  it("keeps roles a Role or another catalogue of the program keeps, or takes over in the same change", async () => {
    const standalone: RoleSpec = { name: "standalone", args: { groupId: 42, name: "Standalone" } };
    // The catalogue registers after the Role (`dependsOn`), so it sees the Role's role declared; registered
    // before it, it would refuse the Role's create (it could never see that role kept, and would remove it).
    await up(
      [{ ...cat({ ...AB, c: { name: "C" } }, { exclusive: true }), opts: { dependsOn: ["standalone"] } }],
      [standalone],
    );
    const before = await held();
    await s.h.clearRequests();
    // b moves to a Role (by `import`), c to another catalogue, and a new Role is made beside them. Each
    // registers before the exclusive catalogue: each is in its `dependsOn` (sdk/group-order.ts).
    const r = await up(
      [
        cat({ c: { name: "C" } }, { adoptExisting: true }, "other"),
        {
          ...cat({ a: { name: "A" } }, { exclusive: true }),
          opts: { dependsOn: ["other", "standalone", "b-role", "extra"] },
        },
      ],
      [
        standalone,
        { name: "b-role", args: { groupId: 42, name: "B" }, opts: { import: `42/${before.B}` } },
        { name: "extra", args: { groupId: 42, name: "Extra" } },
      ],
    );
    const after = await held();
    expect([after.A, after.B, after.C, after.Standalone]).toEqual([before.A, before.B, before.C, before.Standalone]);
    expect(after.Extra).toBeDefined();
    expect(await routes()).not.toContain("POST /delete-roles");
    expect(infos(r).join("\n")).not.toContain("were removed");
  });

  it("refuses in the preview a role declared after it, or one it does not depend on, naming the dependsOn", async () => {
    // Found by the simulation (docs/simulation.md): this preview was green, the up made both, and from
    // then on the catalogue (registered first, blind to the Role) removed the Role's role or refused.
    // The program's structure is checked before anything registers (sdk/group-order.ts; the providers'
    // own refusals, for what the program cannot check, are in test/provider/registration-order.test.ts).
    const after: RoleSpec = {
      name: "standalone",
      args: { groupId: 42, name: "Standalone" },
      opts: { dependsOn: ["catalogue"] },
    };
    const first = { "roles-spec:order": "catalogues-first" };
    const r = await runMixed(s, "preview", [cat(AB, { exclusive: true })], [after], first);
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain(
      "Role resource 'standalone': it is declared after GroupRoles 'catalogue', which has `exclusive: true` for group 42",
    );
    expect(r.errors.join("\n")).toContain("add it to that catalogue's `dependsOn`");
    // Declared first but not depended on: the up could register the catalogue first (history 3352).
    const unordered = await runMixed(s, "preview", [cat(AB, { exclusive: true })], [{ ...after, opts: {} }]);
    expect(unordered.ok).toBe(false);
    expect(unordered.errors.join("\n")).toContain(
      "GroupRoles resource 'catalogue' has `exclusive: true` for group 42 but does not depend on Role 'standalone'",
    );
    // A refusal, not a crash: no "unhandled exception", no stack trace of the package (issue 53).
    expect(unordered.errors.join("\n")).not.toMatch(/unhandled exception/i);
    expect(unordered.errors.join("\n")).not.toMatch(/^\s+at /m);
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual([]);
    // The order it names: the catalogue after the Role.
    const standalone: RoleSpec = { name: "standalone", args: { groupId: 42, name: "Standalone" } };
    const catalogue = { ...cat(AB, { exclusive: true }), opts: { dependsOn: ["standalone"] } };
    await up([catalogue], [standalone]);
    const again = await runMixed(s, "preview", [catalogue], [standalone]);
    expect(again.ok, again.errors.join("\n")).toBe(true);
    expect(catalogPlan(again)).toEqual([]);
  });

  it("advises what works for an in-use entry, and refuses a retained entry's removal that would strand its role", async () => {
    // Issue 53: the advice "retain: true, up, then remove it" was followed to the letter; both steps were
    // green, and from then on every preview of the stack failed (the exclusive catalogue would delete the
    // role no resource declared, and users held it).
    const withOld: Entries = { ...AB, old: { name: "Old Contractors" } };
    await up([cat(withOld, { exclusive: true })]);
    const oldId = (await held())["Old Contractors"]!;
    await s.h.setUsers(42, oldId, 1);
    const removal = await runMixed(s, "preview", [cat(AB, { exclusive: true })]);
    expect(removal.ok).toBe(false);
    const advice = removal.errors.join("\n");
    expect(advice).toContain(`roles.old: "Old Contractors" (roleId ${oldId}) is held by 1 user`);
    expect(advice).toContain("leave `exclusive` off (this GroupRoles removes every role of the group");
    expect(advice).not.toContain("move it in two steps");

    await up([cat({ ...AB, old: { name: "Old Contractors", retain: true } }, { exclusive: true })]);
    await s.h.clearRequests();
    // The step that would strand the role fails its own preview, and its up writes nothing.
    for (const op of ["preview", "up"] as const) {
      const r = await runMixed(s, op, [cat(AB, { exclusive: true })]);
      expect(r.ok, op).toBe(false);
      const message = r.errors.join("\n");
      expect(message).toContain("an entry marked `retain: true` is removed from `roles`, but this GroupRoles has");
      expect(message).toContain(`roles.old: "Old Contractors" (roleId ${oldId}, 1 user)`);
      expect(message).toContain("leave `exclusive` off (in this change or before it)");
    }
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual([]);

    // What it says works: exclusive off in the same change; later previews stay green, the role and its user stay.
    await up([cat(AB)]);
    const kept = (await s.h.listRoles(42)).find((r) => r.roleId === oldId);
    expect(kept?.userCount).toBe(1);
    const later = await runMixed(s, "preview", [cat(AB)]);
    expect(later.ok, later.errors.join("\n")).toBe(true);
    expect(catalogPlan(later)).toEqual([]);
  });

  it("lets a retained entry leave an exclusive catalogue for a Role of the program that imports it", async () => {
    const withOld: Entries = { ...AB, old: { name: "Old", retain: true } };
    await up([cat(withOld, { exclusive: true })]);
    const oldId = (await held()).Old!;
    await s.h.setUsers(42, oldId, 2);
    const receiver: RoleSpec = {
      name: "old-role",
      args: { groupId: 42, name: "Old" },
      opts: { import: `42/${oldId}` },
    };
    const catalogue = { ...cat(AB, { exclusive: true }), opts: { dependsOn: ["old-role"] } };
    const preview = await runMixed(s, "preview", [catalogue], [receiver]);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    await up([catalogue], [receiver]);
    expect((await s.h.listRoles(42)).find((r) => r.roleId === oldId)?.userCount).toBe(2);
    const again = await runMixed(s, "preview", [catalogue], [{ ...receiver, opts: {} }]);
    expect(again.ok, again.errors.join("\n")).toBe(true);
  });

  it("refuses two exclusive catalogues of one group, naming both", async () => {
    const r = await runMixed(s, "preview", [
      cat({ a: { name: "A" } }, { exclusive: true }, "first"),
      cat({ b: { name: "B" } }, { exclusive: true }, "second"),
    ]);
    expect(r.ok).toBe(false);
    // Either SDK sees both in the program and names them (sdk/group-order.ts); the providers' own
    // refusal, for a groupId given as an Output: test/provider/group-roles-messages.test.ts.
    expect(r.errors.join("\n")).toContain(
      "GroupRoles resource 'second': GroupRoles 'first' already has `exclusive: true` for group 42",
    );
    // At most the first catalogue's credential check was sent; nothing was written.
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual([]);
  });

  it("an up that removes 100 hand-made roles from a 1000-role group: its requests", async () => {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`r${i}`, { name: `Role ${i}` }]));
    await up([cat(many)]);
    await s.h.create(
      42,
      Array.from({ length: 100 }, (_, i) => ({ name: `Hand ${i}` })),
    );
    await s.h.clearRequests();
    const preview = await runMixed(s, "preview", [cat(many, { exclusive: true })]);
    expect(infos(preview).join("\n")).toContain("100 roles the program does not declare would be removed");
    expect(await routes()).toEqual(["GET /roles"]);
    await s.h.clearRequests();
    await up([cat(many, { exclusive: true })]);
    // The diff's list, the update's own list (what it removes is read at apply), one delete-roles of 100.
    expect(await routes()).toEqual(["GET /roles", "GET /roles", "POST /delete-roles"]);
    expect(await s.h.listRoles(42)).toHaveLength(1000);
  });
});
