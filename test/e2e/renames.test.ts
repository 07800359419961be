/**
 * Renames as teams make them, through the engine stand-in against the emulator: a resource renamed
 * in code (following the error's advice, with `import` or `aliases`), names passed along a chain of
 * Role resources (applied when the one that frees a name registers first), swaps and rotations between
 * Role resources (refused in the preview: no order of two resources applies them), and renames the
 * per-role provider cannot apply in one `up` (a name held by a role outside the program, or by a role
 * removed in the same change), which fail saying what works.
 */
import { describe, expect } from "vitest";
import {
  catalogPlan,
  isGroupRolesType,
  rolePlan,
  runSpec,
  kindTests,
  SDK_KINDS,
  specStackPerFile,
  type RoleSpec,
  type SdkKind,
  type Stack,
} from "./harness";

let s: Stack;

const role = (name: string, roleName: string, opts?: Record<string, unknown>): RoleSpec => ({
  name,
  args: { groupId: 42, name: roleName, description: `${roleName} team`, settings: { viewVideo: true } },
  ...(opts ? { opts } : {}),
});
const names = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.roleId, r.name]));
const up = async (roles: RoleSpec[], config: Record<string, string> = {}) => {
  const r = await runSpec(s, "up", roles, config);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};

// With the dynamic resources and with the resource plugin's: each scenario with one kind (the kinds taking turns), both
// where the kinds differ; through the real CLI every scenario with both (`kindTests`).
describe.each(SDK_KINDS)("%s resources", (sdk: SdkKind) => {
  specStackPerFile((stack) => (s = stack), sdk);
  const { once, both } = kindTests(sdk);

  describe("a resource renamed in code", () => {
    both("fails with advice naming aliases first, then import; following either keeps the one role", async () => {
      await up([role("y2", "Y")]);
      const [before] = await s.h.listRoles(42);

      const renamed = await runSpec(s, "up", [role("z", "Y")]);
      expect(renamed.ok).toBe(false);
      const message = renamed.errors.join("\n");
      expect(message).toContain(`already has a role named "Y" (id 42/${before!.roleId})`);
      expect(message.indexOf('`[{ name: "<old resource name>" }]` for a rename')).toBeGreaterThan(0);
      expect(message.indexOf("aliases:")).toBeLessThan(message.indexOf(`import: "42/${before!.roleId}"`));
      expect(await s.h.listRoles(42)).toEqual([before]);

      // The import advice: z adopts the role; y2's delete, later in the same up, must leave it alone.
      const imported = await up([role("z", "Y", { import: `42/${before!.roleId}` })]);
      // The plugin imports natively (Read by ID); the dynamic Role carries `import` as an input and adopts.
      expect(rolePlan(imported).sort()).toEqual(
        [sdk === "package" ? "= import z" : "+ create z", "- delete y2"].sort(),
      );
      expect(await s.h.listRoles(42)).toEqual([before]);
      expect((await s.h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
      const state = (await runSpec(s, "refresh", [])).resources.filter((r) => isGroupRolesType(r.type, "Role"));
      expect(state.map((r) => [r.urn.split("::").pop(), r.id])).toEqual([["z", `42/${before!.roleId}`]]);
    });

    once(
      "without aliases the preview refuses it, with the advice `up` gives; only the group's list is sent",
      async () => {
        await up([role("y2", "Y")]);
        const before = await s.h.listRoles(42);
        await s.h.clearRequests();
        // To Pulumi: `+ create z` and `- delete y2`, and the delete runs after the create: `up` would meet a 409.
        const preview = await runSpec(s, "preview", [role("z", "Y")]);
        expect(preview.ok).toBe(false);
        const message = preview.errors.join("\n");
        expect(message).toContain("Role::z: ");
        expect(message).toContain(
          `creating role "Y" in group 42: group 42 already has a role named "Y" (id 42/${before[0]!.roleId}), and no ` +
            "resource in this Role's `dependsOn` renames it away or deletes it, so this write would fail at `pulumi up`",
        );
        expect(message).toContain(
          'keep the role with the resource option `aliases` on it, `[{ name: "<old resource name>" }]` for a rename',
        );
        expect(message.indexOf("aliases:")).toBeLessThan(message.indexOf(`import: "42/${before[0]!.roleId}"`));
        // The credential check's list of the group, which a create's Check sends anyway: nothing else.
        expect((await s.h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
        expect(await s.h.listRoles(42)).toEqual(before);
        // Following the advice: the preview is green, and plans nothing.
        const aliased = await runSpec(s, "preview", [role("z", "Y", { aliases: [{ name: "y2" }] })]);
        expect(aliased.ok, aliased.errors.join("\n")).toBe(true);
        expect(rolePlan(aliased)).toEqual([]);
      },
    );

    once("with aliases the rename is no change at all: no create, no delete, the same role", async () => {
      await up([role("y2", "Y")]);
      const [before] = await s.h.listRoles(42);
      await s.h.clearRequests();
      const aliased = [role("z", "Y", { aliases: [{ name: "y2" }] })];
      expect(rolePlan(await runSpec(s, "preview", aliased))).toEqual([]);
      const r = await up(aliased);
      expect(r.providerHost.calls).toMatchObject({ Create: 0, Delete: 0 });
      expect(await s.h.listRoles(42)).toEqual([before]);
      const writes = Object.keys((await s.h.requests()).counts).filter((k) => !k.startsWith("GET"));
      expect(writes).toEqual([]);
    });

    both(
      "moved into a component with `aliases` (two Roles, one depending on the other, and a GroupRoles as its children): no change",
      async () => {
        const underTeam = (opts: Record<string, unknown> = {}) => ({
          ...opts,
          parent: "team",
          aliases: [{ noParent: true }],
        });
        const catalogue = (opts?: Record<string, unknown>) => ({
          name: "catalogue",
          args: { groupId: 42, roles: { a: { name: "Alpha" } } },
          ...(opts ? { opts } : {}),
        });
        await up([role("ops", "Ops"), role("leads", "Leads", { dependsOn: ["ops"] })], {
          "roles-spec:groupRoles": JSON.stringify([catalogue()]),
        });
        const before = await names();
        await s.h.clearRequests();
        // Each child's `__structure` input names its own URN, under its parent: were that an Output of the
        // parent, Pulumi would wait, before registering either child, for every child of the component
        // (pulumi/pulumi sdk/nodejs/runtime/dependsOn.ts `getAllTransitivelyReferencedResourceURNs`), each for the other.
        const moved = [role("ops", "Ops", underTeam()), role("leads", "Leads", underTeam({ dependsOn: ["ops"] }))];
        const config = {
          "roles-spec:components": JSON.stringify(["team"]),
          "roles-spec:groupRoles": JSON.stringify([catalogue(underTeam())]),
        };
        const preview = await runSpec(s, "preview", moved, config);
        expect(preview.ok, preview.errors.join("\n")).toBe(true);
        expect([...rolePlan(preview), ...catalogPlan(preview)]).toEqual([]);
        const r = await up(moved, config);
        expect(r.resources.filter((x) => x.parent?.endsWith("::team")).length).toBe(3);
        expect(await names()).toEqual(before);
        expect(Object.keys((await s.h.requests()).counts).filter((k) => !k.startsWith("GET"))).toEqual([]);
      },
    );
  });

  describe("names passed between Role resources", () => {
    const single = { "grouproles:maxBatchSize": "1" };

    once("a chain, the role that frees a name declared first: applied in one up, in separate requests", async () => {
      const filler = Array.from({ length: 4 }, (_, i) => role(`f${i}`, `Filler ${i}`));
      await up([role("c", "C"), ...filler, role("b", "B"), role("a", "A")], single);
      const ids = Object.fromEntries(Object.entries(await names()).map(([id, n]) => [n, id]));
      // c frees "C" for b, b frees "B" for a; each waits for the one before it (dependsOn makes it sure).
      await up(
        [role("c", "D"), ...filler, role("b", "C", { dependsOn: ["c"] }), role("a", "B", { dependsOn: ["b"] })],
        single,
      );
      const after = await names();
      expect([after[ids["C"]!], after[ids["B"]!], after[ids["A"]!]]).toEqual(["D", "C", "B"]);
      expect(Object.keys(after)).toHaveLength(7);
    });

    once(
      "a swap or a rotation is refused in the preview, whatever the batching: two steps, or one GroupRoles",
      async () => {
        await up([role("a", "Alpha"), role("b", "Beta"), role("c", "Gamma")]);
        const before = await names();
        for (const [program, config] of [
          [[role("a", "Beta"), role("b", "Alpha"), role("c", "Gamma")], single],
          [[role("a", "Beta"), role("b", "Alpha"), role("c", "Gamma")], {}],
          [[role("a", "Beta"), role("b", "Gamma"), role("c", "Alpha")], {}],
        ] as const) {
          await s.h.clearRequests();
          const preview = await runSpec(s, "preview", [...program], config);
          expect(preview.ok).toBe(false);
          expect(preview.errors.join("\n")).toMatch(
            /The two swap names|give this Role the resource option `dependsOn`|give this Role `dependsOn` on it \(a swap: two steps/,
          );
          expect((await s.h.requests()).entries.filter((e) => e.method !== "GET")).toEqual([]);
        }
        // Two steps: one role steps aside first, then the names settle.
        await up([role("a", "Alpha (old)"), role("b", "Beta"), role("c", "Gamma")]);
        await up([role("b", "Alpha"), role("a", "Beta", { dependsOn: ["b"] }), role("c", "Gamma")]);
        const after = await names();
        expect(Object.keys(after)).toEqual(Object.keys(before)); // the same roles, no create or delete
        // By name, not by ID order: the engine creates independent resources in no set order.
        const idOf = (name: string) => Object.keys(before).find((id) => before[id] === name)!;
        expect([after[idOf("Alpha")], after[idOf("Beta")], after[idOf("Gamma")]]).toEqual(["Beta", "Alpha", "Gamma"]);
      },
    );
  });

  describe("renames one up cannot apply", () => {
    once("a name held by a role outside the program: the preview says so; nothing changes", async () => {
      await up([role("a", "Alpha")]);
      await s.h.api("POST", "/groups/42/roles", [{ name: "Taken" }]);
      const before = await names();
      const r = await runSpec(s, "preview", [role("a", "Taken")]);
      expect(r.ok).toBe(false);
      expect(r.errors.join("\n")).toMatch(
        /renaming role "Alpha" to "Taken" in group 42: group 42 already has a role named "Taken" \(id 42\/\d+\)/,
      );
      expect(r.errors.join("\n")).toContain(
        "- Made by hand or by another stack: declare it as it is with the resource option `import:",
      );
      expect(await names()).toEqual(before);
    });

    once(
      "a rename onto the name of a role removed in the same change: the preview fails naming it; two steps apply",
      async () => {
        await up([role("a", "Alpha"), role("b", "Beta")]);
        const ids = Object.fromEntries(Object.entries(await names()).map(([id, n]) => [n, id]));
        // Refused in the preview: `b`'s delete runs after every other step, so "Beta" is still held then.
        const preview = await runSpec(s, "preview", [role("a", "Beta")]);
        expect(preview.ok).toBe(false);
        const message = preview.errors.join("\n");
        expect(message).toContain(`already has a role named "Beta" (id 42/${ids["Beta"]})`);
        expect(message).toContain("- One this change removes: apply it in two steps, the removal first");
        expect(Object.values(await names()).sort()).toEqual(["Alpha", "Beta"]);

        await up([role("a", "Alpha")]); // step 1: the removal
        await up([role("a", "Beta")]); // step 2: the rename
        expect(await names()).toEqual({ [ids["Alpha"]!]: "Beta" });
      },
    );
  });

  describe("two resources of one program that declare the same role name", () => {
    once("fail in the preview, naming both resources, before any write", async () => {
      await s.h.clearRequests();
      const preview = await runSpec(s, "preview", [
        role("first", "Support"),
        role("other", "Sales"),
        role("second", "Support"),
      ]);
      expect(preview.ok).toBe(false);
      const message = preview.errors.join("\n");
      expect(message).toMatch(
        /resource '(first|second)': property name value \{Support\} has a problem: Role resource "(first|second)" of this program already declares a role named "Support" in group 42/,
      );
      expect(message).toMatch(/first/);
      expect(message).toMatch(/second/);
      // Nothing written: at most the preview's credential check of group 42 (a list), made by whichever
      // resource reached its Diff before the duplicate's Check failed (none did, in some real-engine runs).
      const { counts } = await s.h.requests();
      expect(Object.keys(counts).filter((k) => k !== "GET /api/v0/groups/:groupId/roles")).toEqual([]);
      expect(counts["GET /api/v0/groups/:groupId/roles"] ?? 0).toBeLessThanOrEqual(1);
    });

    once("a rename onto a name another resource gives up in the same change is not a duplicate", async () => {
      await up([role("a", "Alpha"), role("b", "Beta")]);
      expect((await runSpec(s, "preview", [role("b", "Gamma"), role("a", "Beta", { dependsOn: ["b"] })])).ok).toBe(
        true,
      );
    });
  });
});
