/**
 * GroupRoles through the engine stand-in (the real Node runtime, and the dynamic-provider host or the
 * resource plugin) against the emulator: check failures in the preview, requests at the array endpoints' limit, partial applies
 * kept in state with `__provider` and finished by the next `up`, lost replies, adoption, retained
 * entries, and the migration from `Role` resources that docs/group-roles.md gives.
 */
import { describe, expect } from "vitest";
import {
  catalogPlan,
  isGroupRolesType,
  runMixed,
  kindTests,
  SDK_KINDS,
  specStackPerFile,
  typePrefix,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;

type Entries = GroupRolesSpec["args"]["roles"];
const entries = (n: number, prefix = "Role"): Entries =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`r${i}`, { name: `${prefix} ${i}`, settings: { viewVideo: true } }]),
  );
const catalogue = (
  roles: Entries,
  extra: Partial<GroupRolesSpec["args"]> = {},
  opts?: Record<string, unknown>,
): GroupRolesSpec => ({
  name: "catalogue",
  args: { groupId: 42, roles, ...extra },
  ...(opts ? { opts } : {}),
});
const up = async (specs: GroupRolesSpec[], roles: RoleSpec[] = [], config: Record<string, string> = {}) => {
  const r = await runMixed(s, "up", specs, roles, config);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};
const state = (r: {
  resources: Array<{ type: string; id?: string; outputs: Record<string, unknown>; initErrors?: string[] }>;
}) => r.resources.find((x) => isGroupRolesType(x.type, "GroupRoles"));
/** What the credential check of a run that plans a write sends: one list of the group (docs/configuration.md). */
const CREDENTIAL_CHECK = "GET /roles";
const routes = async () =>
  (await s.h.requests()).entries.map((e) => `${e.method} ${e.route.replace("/api/v0/groups/:groupId", "")}`);
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
const outputRoles = (r: Parameters<typeof state>[0]) =>
  state(r)!.outputs["roles"] as Record<string, { roleId: number; name: string }>;

// With the dynamic resources and with the resource plugin's: each scenario with one kind (the kinds taking turns), both
// where the kinds differ; through the real CLI every scenario with both (`kindTests`).
describe.each(SDK_KINDS)("GroupRoles through the engine stand-in, %s resources", (sdk) => {
  specStackPerFile((stack) => (s = stack), sdk);
  const { once, both } = kindTests(sdk);

  both("bad input fails the preview with paths like roles.support.name, before any request", async () => {
    await s.h.clearRequests();
    const bad = catalogue({
      support: { name: "" },
      a: { name: "Sales" },
      b: { name: "Sales", settings: { viewVidoe: true } },
    });
    const preview = await runMixed(s, "preview", [bad]);
    expect(preview.ok).toBe(false);
    const message = preview.errors.join("\n");
    expect(message).toContain(
      "resource 'catalogue': property roles.support.name value {<nil>} has a problem: " +
        "roles.support.name must not be empty",
    );
    expect(message).toContain('roles.b.name "Sales" is also the name of roles.a');
    expect(message).toContain('unknown setting "viewVidoe": did you mean "viewVideo"?');
    expect((await s.h.requests()).total).toBe(0);
  });

  once(
    "250 roles: up is a list and 3 POSTs; a no-op preview one list (credentials); rename all: a list, 3 PUTs",
    async () => {
      // Each up also confirms the credentials first (one list), as every run that plans a write does.
      await s.h.clearRequests();
      const created = await up([catalogue(entries(250))]);
      expect(catalogPlan(created)).toEqual(["+ create catalogue"]);
      // Counts before the lines of a large change (issue 43), in the plan's diagnostics.
      const infos = (r: { diagnostics: Array<{ severity: string; message: string }> }) =>
        r.diagnostics.filter((d) => d.severity === "info").map((d) => d.message);
      expect(infos(created).join("\n")).toContain("GroupRoles of group 42: 250 roles change (250 created):");
      // Shown under its resource, not under the stack (the SDK sends the URN in `__structure`).
      expect(created.diagnostics.find((d) => d.message.includes("250 roles change"))?.urn).toMatch(/GroupRoles::\w+$/);
      expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "POST /roles", "POST /roles", "POST /roles"]);
      expect(Object.keys(await held())).toHaveLength(250);
      await s.h.clearRequests();
      expect(catalogPlan(await runMixed(s, "preview", [catalogue(entries(250))]))).toEqual([]);
      // A drift check finds a revoked credential before the next change does (issue 53): one list.
      expect(await routes()).toEqual([CREDENTIAL_CHECK]);
      await s.h.clearRequests();
      const renamed = await up([catalogue(entries(250, "Renamed"))]);
      expect(catalogPlan(renamed)).toEqual(["~ update catalogue [roles]"]);
      expect(infos(renamed).join("\n")).toContain("GroupRoles of group 42: 250 roles change (250 changed):");
      // Each kind listed, at most ten lines, then a count: short at any size (issue 53).
      expect(infos(renamed).join("\n")).toContain('renamed to "Renamed 0"');
      expect(infos(renamed).join("\n")).toContain("  ... and 240 more");
      expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "PUT /roles", "PUT /roles", "PUT /roles"]);
      const ids = outputRoles(renamed);
      expect(await held()).toEqual(Object.fromEntries(Object.values(ids).map((r) => [r.name, r.roleId])));
    },
  );

  once("in one up: a removal, a rename onto its name, and a rotation larger than a PUT (temporary names)", async () => {
    const small = { "grouproles:maxBatchSize": "2" };
    const roles = { a: { name: "A" }, b: { name: "B" }, c: { name: "C" }, old: { name: "Old" }, x: { name: "X" } };
    const first = await up([catalogue(roles)], [], small);
    const ids = Object.fromEntries(Object.entries(outputRoles(first)).map(([k, r]) => [k, r.roleId]));
    await s.h.clearRequests();
    // a, b and c rotate their names; x takes the name of `old`, which is removed
    const next = { a: { name: "B" }, b: { name: "C" }, c: { name: "A" }, x: { name: "Old" } };
    const r = await up([catalogue(next)], [], small);
    expect(catalogPlan(r)).toEqual(["~ update catalogue [roles]"]);
    // Diff's in-use check, the update's list; the removal frees "Old" first; a step aside, two PUTs
    expect(await routes()).toEqual([
      "GET /roles",
      "GET /roles",
      "POST /delete-roles",
      "PUT /roles",
      "PUT /roles",
      "PUT /roles",
    ]);
    const entries = (await s.h.requests()).entries;
    const puts = entries.filter((e) => e.method === "PUT").map((e) => JSON.parse(e.body) as unknown[]);
    expect(puts.every((p) => p.length <= 2)).toBe(true);
    expect(JSON.stringify(puts[0])).toContain("(pulumi-grouproles)"); // the rotation steps aside first
    expect(await held()).toEqual({ B: ids.a, C: ids.b, A: ids.c, Old: ids.x });
  });

  both(
    "a create whose second POST fails is kept with what it made and __provider; the next up finishes it",
    async () => {
      await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "status", status: 422, skip: 1 });
      const first = await runMixed(s, "up", [catalogue(entries(150))]);
      expect(first.ok).toBe(false);
      expect(first.errors.join("\n")).toContain("Before it, 0 deleted, 0 updated and 100 created");
      const kept = state(first)!;
      expect(kept.id).toBe("42");
      expect(kept.initErrors).toEqual([expect.stringMatching(/creating roles\.r\d+, .* and 47 more failed: POST/)]);
      // The dynamic host needs the serialized provider to refresh or delete it later; the plugin has none.
      if (sdk === "dynamic")
        expect(kept.outputs["__provider"]).toEqual(expect.stringContaining("pulumi-grouproles/provider/group-roles"));
      expect(Object.fromEntries(Object.values(outputRoles(first)).map((r) => [r.name, r.roleId]))).toEqual(
        await held(),
      );

      await s.h.clearRequests();
      const second = await up([catalogue(entries(150))]);
      // The plugin reports the key its state lacks entries of; the dynamic host reports none.
      expect(catalogPlan(second)).toEqual([sdk === "package" ? "~ update catalogue [roles]" : "~ update catalogue"]);
      expect(state(second)).not.toHaveProperty("initErrors");
      expect(await routes()).toEqual([CREDENTIAL_CHECK, "GET /roles", "POST /roles"]);
      expect(Object.keys(await held())).toHaveLength(150);
    },
  );

  both("an update whose second PUT fails is kept as it is in the service; the next up finishes it", async () => {
    await up([catalogue(entries(150))]);
    await s.h.fault({ method: "PUT", path: "/api/v0/groups/42/roles", action: "status", status: 422, skip: 1 });
    const first = await runMixed(s, "up", [catalogue(entries(150, "Renamed"))]);
    expect(first.ok).toBe(false);
    expect(state(first)!.initErrors).toEqual([
      expect.stringContaining("Before it, 0 deleted, 100 updated and 0 created"),
    ]);
    expect(Object.fromEntries(Object.values(outputRoles(first)).map((r) => [r.name, r.roleId]))).toEqual(await held());
    const second = await up([catalogue(entries(150, "Renamed"))]);
    expect(Object.keys(await held()).every((n) => n.startsWith("Renamed"))).toBe(true);
    expect(state(second)).not.toHaveProperty("initErrors");
  });

  once("a lost create reply, group unlisted: kept as unconfirmed; the next up adopts, never duplicates", async () => {
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-after" });
    await s.h.fault({
      method: "GET",
      path: "/api/v0/groups/42/roles",
      action: "status",
      status: 503,
      times: 0,
      skip: 2, // the credential check and the update's list pass; the read-back after the POST fails
    });
    const first = await runMixed(s, "up", [catalogue(entries(3))]);
    expect(first.ok).toBe(false);
    expect(state(first)!.outputs["unconfirmed"]).toEqual({ r0: "Role 0", r1: "Role 1", r2: "Role 2" });
    await s.h.admin("DELETE", "/faults");
    const second = await up([catalogue(entries(3))]);
    expect(Object.fromEntries(Object.values(outputRoles(second)).map((r) => [r.name, r.roleId]))).toEqual(await held());
    expect((await s.h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBe(1);
  });

  once("names held outside fail the up naming the holder; adoptExisting takes them over", async () => {
    const hand = (await s.h.api("POST", "/groups/42/roles", [{ name: "Role 1" }])).json as Array<{ roleId: number }>;
    const refused = await runMixed(s, "up", [catalogue(entries(3))]);
    expect(refused.ok).toBe(false);
    expect(refused.errors.join("\n")).toContain(`roles.r1: "Role 1" is held by roleId ${hand[0]!.roleId}`);
    expect(Object.keys(await held())).toEqual(["Role 1"]);
    const adopted = await up([catalogue(entries(3), { adoptExisting: true })]);
    expect(outputRoles(adopted).r1!.roleId).toBe(hand[0]!.roleId);
    expect((await s.h.api("GET", `/groups/42/roles/${hand[0]!.roleId}`)).json).toMatchObject({
      settings: { viewVideo: true },
    });
    expect(Object.keys(await held()).sort()).toEqual(["Role 0", "Role 1", "Role 2"]);
  });

  once("an entry marked retain, then removed, is forgotten: the role stays, even in use", async () => {
    await up([catalogue(entries(2))]);
    const roles = entries(2);
    await up([catalogue({ ...roles, r1: { ...roles.r1!, retain: true } })]);
    const r1 = (await held())["Role 1"]!;
    await s.h.setUsers(42, r1, 2);
    await s.h.clearRequests();
    const preview = await runMixed(s, "preview", [catalogue({ r0: roles.r0! })]);
    expect(preview.ok).toBe(true);
    // The diff shows `- r1`: a note beside it says the role stays (issue 43).
    expect(preview.diagnostics.map((d) => d.message).join("\n")).toContain(
      "an entry marked `retain: true` leaves the catalogue: Pulumi forgets the role, the service keeps it " +
        `(nothing is deleted):\n  roles.r1: "Role 1" (roleId ${r1})`,
    );
    // Nothing removed is deleted and nothing is written: the entry only leaves the state; the one
    // request is the group's credential check.
    expect(await routes()).toEqual([CREDENTIAL_CHECK]);
    const removed = await up([catalogue({ r0: roles.r0! })]);
    expect(Object.keys(outputRoles(removed))).toEqual(["r0"]);
    expect(Object.keys(await held()).sort()).toEqual(["Role 0", "Role 1"]);
  });

  once("migration from Role: retainOnDelete, up, then remove them and add GroupRoles with adoptExisting", async () => {
    const role = (name: string, roleName: string, opts?: Record<string, unknown>): RoleSpec => ({
      name,
      args: { groupId: 42, name: roleName, settings: { viewVideo: true } },
      ...(opts ? { opts } : {}),
    });
    await up([], [role("support", "Support"), role("billing", "Billing")]);
    const before = await held();
    await up(
      [],
      [role("support", "Support", { retainOnDelete: true }), role("billing", "Billing", { retainOnDelete: true })],
    );
    await s.h.clearRequests();
    const roles = { support: { name: "Support", settings: { viewVideo: true } }, billing: { name: "Billing" } };
    const migrated = await up([catalogue(roles, { adoptExisting: true })]);
    expect(migrated.planText).toContain(`- delete  ${typePrefix(sdk)}Role support [retain]`);
    expect(await held()).toEqual(before);
    const writes = (await routes()).filter((r) => !r.startsWith("GET"));
    expect(writes).toEqual([]); // nothing created, nothing deleted: the same roles, now one resource
    expect(Object.fromEntries(Object.values(outputRoles(migrated)).map((r) => [r.name, r.roleId]))).toEqual(before);
  });
});
