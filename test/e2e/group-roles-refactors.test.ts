/**
 * GroupRoles as teams refactor a catalogue: a key renamed, a rotation that fails half-way, names the
 * preview must compare with the group's roles, names that people cannot tell apart. Through the
 * engine stand-in and the real provider host against the emulator; outcomes read from the service.
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
const up = async (cats: GroupRolesSpec[], roles: RoleSpec[] = [], config: Record<string, string> = {}) => {
  const r = await runMixed(s, "up", cats, roles, config);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};
const held = async (groupId = 42) => Object.fromEntries((await s.h.listRoles(groupId)).map((r) => [r.name, r.roleId]));
type Run = { resources: Array<{ type: string; outputs: Record<string, unknown>; initErrors?: string[] }> };
const stateOf = (r: Run) => r.resources.find((x) => x.type.endsWith("GroupRoles"));
const namesInState = (r: Run) =>
  Object.fromEntries(
    Object.values(stateOf(r)!.outputs["roles"] as Record<string, { name: string; roleId: number }>).map((e) => [
      e.name,
      e.roleId,
    ]),
  );
const routes = async () =>
  (await s.h.requests()).entries.map((e) => `${e.method} ${e.route.replace("/api/v0/groups/:groupId", "")}`);
const SMALL = { "grouproles:maxBatchSize": "2" };

describe("a key renamed is the same role", () => {
  it("{ a: A } -> { a2: A } keeps the roleId, its users and unlisted settings; no delete, no create", async () => {
    await up([cat({ a: { name: "A", settings: { viewVideo: true } }, b: { name: "B" } })]);
    const before = await held();
    await s.h.api("PUT", "/groups/42/roles", [
      { roleId: before.A, name: "A", settings: { viewVideo: true, remoteAssist: true } },
    ]);
    await s.h.setUsers(42, before.A!, 3);
    await s.h.clearRequests();
    const next = [cat({ a2: { name: "A", settings: { viewVideo: true } }, b: { name: "B" } })];
    // In use, and still no refusal: nothing is removed.
    const preview = await runMixed(s, "preview", next);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    expect(catalogPlan(preview)).toEqual(["~ update catalogue [roles]"]);
    // The diff shows `- a` and `+ a2`: the plan beside it says it is the same role (issues 43, 53).
    expect(preview.diagnostics.map((d) => d.message).join("\n")).toContain(
      `  kept under a new key (the same role):\n  = roles.a2: "A" (roleId ${before.A}, 3 users), was roles.a`,
    );
    const r = await up(next);
    expect(await held()).toEqual(before);
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual([]);
    expect((stateOf(r)!.outputs["roles"] as Record<string, { roleId: number }>).a2!.roleId).toBe(before.A);
    expect((await s.h.details(42, before.A!)).settings).toEqual({ viewVideo: true, remoteAssist: true });
    // And a key rename with a new description is one PUT of that role.
    await s.h.clearRequests();
    await up([cat({ a3: { name: "A", description: "moved", settings: { viewVideo: true } }, b: { name: "B" } })]);
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual(["PUT /roles"]);
    expect(await held()).toEqual(before);
  });
});

describe("a key renamed in the up --refresh that finds its role renamed by hand", () => {
  it("is the same role: renamed back under the new key, never deleted and made anew (history 56827)", async () => {
    await up([cat({ k7: { name: "Sales" }, b: { name: "B" } })]);
    const before = await held();
    await s.h.api("PUT", "/groups/42/roles", [{ roleId: before.Sales, name: "Agents" }]);
    await s.h.setUsers(42, before.Sales!, 2);
    const next = [cat({ k11: { name: "Sales" }, b: { name: "B" } })];
    s.flags = { refresh: true };
    try {
      // In use, and no refusal: the preview reads the key rename as a move, not as a removal.
      const preview = await runMixed(s, "preview", next);
      expect(preview.ok, preview.errors.join("\n")).toBe(true);
      await s.h.clearRequests();
      await up(next);
    } finally {
      s.flags = undefined;
    }
    expect(await held()).toEqual(before);
    expect((await routes()).filter((x) => !x.startsWith("GET"))).toEqual(["PUT /roles"]);
  });
});

describe("a rotation that fails after a temporary rename", () => {
  for (const fault of [
    { status: 422, label: "422", recovery: "reverting undoes it" },
    { status: 429, retryAfter: "0", times: 0, label: "429 after retries", recovery: "running it again finishes it" },
  ]) {
    it(`(${fault.label}) is reported as a partial update whose state holds the temporary name; ${fault.recovery}`, async () => {
      const original = { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } };
      await up([cat(original)], [], SMALL);
      const before = await held();
      const { label: _, recovery, ...rule } = fault;
      // The first PUT (a role steps aside to a temporary name) passes; the next one fails.
      await s.h.fault({ method: "PUT", path: "/api/v0/groups/42/roles", action: "status", skip: 1, ...rule });
      const rotated = { a: { name: "B" }, b: { name: "C" }, c: { name: "A" } };
      const failed = await runMixed(s, "up", [cat(rotated)], [], SMALL);
      await s.h.admin("DELETE", "/faults");
      expect(failed.ok).toBe(false);
      const message = failed.errors.join("\n");
      expect(message).not.toContain("nothing was changed");
      expect(message).toMatch(
        /hold.? a temporary name in the service \(e\.g\. "~renaming role \d+ \(pulumi-grouproles\)"\)/,
      );
      const service = await held();
      expect(Object.keys(service).some((n) => n.startsWith("~renaming role"))).toBe(true);
      // The state records exactly what the service holds, as a partial update (init errors).
      expect(namesInState(failed)).toEqual(service);
      expect(stateOf(failed)!.initErrors?.length).toBe(1);
      // The next up finishes or undoes it: both are a change, not a no-op, and end with no temporary name.
      const next = recovery === "reverting undoes it" ? original : rotated;
      const preview = await runMixed(s, "preview", [cat(next)], [], SMALL);
      // After a partial update the engine keeps the old inputs in state (engine/update.go
      // OnResourceStepPost): reverted, the program's inputs are those again, and the init error alone makes
      // it an update; run again, the roles differ from them.
      expect(catalogPlan(preview)).toEqual([next === original ? "~ update catalogue" : "~ update catalogue [roles]"]);
      await up([cat(next)], [], SMALL);
      const ids = Object.values(before).sort();
      expect(Object.values(await held()).sort()).toEqual(ids);
      const { A, B, C } = before;
      expect(await held()).toEqual(next === original ? before : { B: A, C: B, A: C });
    });
  }
});

describe("the preview compares the names a change gives with the group's roles", () => {
  it("a name a Role gives up in the change, taken by a catalogue registered after it (dependsOn): preview and up agree, IDs kept", async () => {
    const sales = (name: string): RoleSpec => ({ name: "sales", args: { groupId: 42, name } });
    const catalogueAfterSales = (name: string) => ({ ...cat({ a: { name } }), opts: { dependsOn: ["sales"] } });
    await up([catalogueAfterSales("A")], [sales("Sales")]);
    const before = await held();
    const preview = await runMixed(s, "preview", [catalogueAfterSales("Sales")], [sales("Sales Team")]);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    // In the up the catalogue's Diff runs after the Role's update, with the group listed before it.
    await up([catalogueAfterSales("Sales")], [sales("Sales Team")]);
    expect(await held()).toEqual({ Sales: before.A, "Sales Team": before.Sales });
  });

  it("a rename onto a name held by a hand-made role, a retained entry or a Role fails the preview, naming the holder", async () => {
    await up(
      [cat({ a: { name: "A" }, old: { name: "Old", retain: true } })],
      [{ name: "sales", args: { groupId: 42, name: "Sales" } }],
    );
    await up([cat({ a: { name: "A" } })], [{ name: "sales", args: { groupId: 42, name: "Sales" } }]);
    const [hand] = await s.h.create(42, [{ name: "Hand" }]);
    const ids = await held();
    const sales: RoleSpec = { name: "sales", args: { groupId: 42, name: "Sales" } };
    for (const [target, said] of [
      ["Hand", `roles.a: "Hand" is held by roleId ${hand!.roleId}, which this resource does not manage`],
      ["Old", `roles.a: "Old" is held by roleId ${ids.Old}`],
      ["Sales", `roles.a: "Sales" is held by roleId ${ids.Sales}, which another resource of this program`],
    ]) {
      await s.h.clearRequests();
      // The catalogue registers after the Role (dependsOn), so its preview knows the Role declares "Sales".
      const after = { ...cat({ a: { name: target! } }), opts: { dependsOn: ["sales"] } };
      const preview = await runMixed(s, "preview", [after], [sales]);
      expect(preview.ok, target).toBe(false);
      expect(preview.errors.join("\n")).toContain(said);
      expect(await routes()).toEqual(["GET /roles"]); // the preview's one list
    }
    // A rename onto a free name previews green with that same one list; a no-op preview too (the group's
    // credential check).
    await s.h.clearRequests();
    expect((await runMixed(s, "preview", [cat({ a: { name: "Free" } })], [sales])).ok).toBe(true);
    expect(await routes()).toEqual(["GET /roles"]);
    await s.h.clearRequests();
    expect((await runMixed(s, "preview", [cat({ a: { name: "A" } })], [sales])).planText).toBe("");
    expect(await routes()).toEqual(["GET /roles"]);
  });

  it("a groupId change to a group where a declared name is held, and a create onto a held name, fail the preview", async () => {
    await up([cat({ a: { name: "A" } })]);
    const [held43] = await s.h.create(43, [{ name: "A" }]);
    const moved = await runMixed(s, "preview", [cat({ a: { name: "A" } }, { groupId: 43 })]);
    expect(moved.ok).toBe(false);
    expect(moved.errors.join("\n")).toContain(`group 43 already has a role with a name this resource declares`);
    expect(moved.errors.join("\n")).toContain(`roles.a: "A" is held by roleId ${held43!.roleId}`);
    const created = await runMixed(s, "preview", [cat({ x: { name: "A" } }, { groupId: 43 }, "other")]);
    expect(created.ok).toBe(false);
    expect(created.errors.join("\n")).toContain(`roles.x: "A" is held by roleId ${held43!.roleId}`);
    expect(created.errors.join("\n")).toContain("`adoptExisting: true`");
    expect(Object.keys(await held(43))).toEqual(["A"]);
  });
});

describe("smaller promises", () => {
  it("two catalogues creating one name: the loser names the holder, made by this program", async () => {
    const r = await runMixed(s, "up", [cat({ x: { name: "X" } }, {}, "one"), cat({ y: { name: "X" } }, {}, "two")]);
    expect(r.ok).toBe(false);
    const message = r.errors.join("\n");
    const holder = (await held()).X;
    expect(message).toMatch(
      new RegExp(`roles\\.[xy]: "X" is held by roleId ${holder}, which another resource of this program`),
    );
    expect(message).not.toMatch(/service answered 409 name_conflict: [^\n]*$/);
  });

  it("a Role onto a name a GroupRoles holds is refused in either order; an import is advised only for a role no resource declares", async () => {
    const dup: RoleSpec = { name: "dup", args: { groupId: 42, name: "A" } };
    // Both new in one up, then the catalogue already there. Whichever registers second refuses: the
    // catalogue knows the Role declares "A" (the ledger); the Role, registered first, sees only the
    // group's role "A" (the catalogue's, not registered yet) and cannot tell whose it is, so it lists
    // each case, the import only for a role no resource of the program declares.
    for (const existing of [false, true]) {
      if (existing) await up([cat({ a: { name: "A" } })]);
      else await s.fresh();
      const r = await runMixed(s, "up", [cat({ a: { name: "A" } })], [dup]);
      expect(r.ok).toBe(false);
      const message = r.errors.join("\n");
      expect(message).toMatch(
        /this program (also declares|\(a GroupRoles entry or a Role\) declares)|another resource of this program|declares that role under that name|another resource keeps under that name/,
      );
      if (message.includes("import:")) {
        expect(message).toMatch(
          /- Made by hand or by another stack: declare it as it is with the resource option `import:/,
        );
        expect(message).toContain("declare each role in one resource only");
      }
      expect(Object.keys(await held())).toEqual(["A"]);
    }
  });

  it("names people cannot tell apart, and the key __proto__, fail the preview naming both keys", async () => {
    for (const [a, b] of [
      ["Support", "support"],
      ["Support", " Support"],
      ["Support", "Sup\u200Bport"],
      ["Team Lead", "Team\u00A0Lead"],
    ]) {
      const preview = await runMixed(s, "preview", [cat({ first: { name: a! }, second: { name: b! } })]);
      expect(preview.ok, JSON.stringify(b)).toBe(false);
      expect(preview.errors.join("\n")).toContain(
        `roles.second.name ${JSON.stringify(b)} looks like the name of roles.first`,
      );
    }
    const proto = await runMixed(s, "preview", [
      cat(JSON.parse('{"__proto__": {"name": "Evil"}, "ok": {"name": "Ok"}}')),
    ]);
    expect(proto.ok).toBe(false);
    expect(proto.errors.join("\n")).toContain(
      "GroupRoles resource 'catalogue': roles.__proto__: keys must not be \"__proto__\"",
    );
    expect((await s.h.requests()).total).toBe(0);
  });

  it("an error about a failed batch names a few of its roles and the count", async () => {
    const roles = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`r${i}`, { name: `Role ${i}` }]));
    // The POST is lost before the service acts: the list after it shows none of the 100 names.
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-before" });
    const r = await runMixed(s, "up", [cat(roles)]);
    expect(r.ok).toBe(false);
    const message = r.errors.join("\n");
    expect(message).toMatch(/and \d+ more/);
    expect(message).not.toContain('"Role 99"');
  });
});
