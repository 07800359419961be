/**
 * A stack pointed at the wrong URL (every route answers 404) must not lose its state (invariant 10,
 * docs/design/invariants.md): refresh and destroy fail naming the URL and keep every resource; only the service saying that
 * the group is gone (`group_not_found`) or a list without the role drops it.
 */
import { describe, expect, it } from "vitest";
import {
  catalogPlan,
  isGroupRolesType,
  rolePlan,
  runMixed,
  specStackPerFile,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

const catalogue: GroupRolesSpec = { name: "catalogue", args: { groupId: 42, roles: { a: { name: "A" } } } };
const role: RoleSpec = { name: "solo", args: { groupId: 42, name: "Solo" } };
const custom = (r: { resources: Array<{ type: string }> }) =>
  r.resources.filter((x) => isGroupRolesType(x.type)).map((x) => x.type.split(":").pop());

describe("a 404 that does not say the group is gone", () => {
  it("fails refresh and destroy naming the URL; state and service keep everything", async () => {
    const created = await runMixed(s, "up", [catalogue], [role]);
    expect(created.ok, created.errors.join("\n")).toBe(true);
    const wrong = { "grouproles:baseUrl": `${s.h.emu.baseUrl}/typo` };
    // Refresh and destroy use the provider settings in state, as the engine does (deployment.go
    // EnsureProvider): the wrong URL gets there through an up (a provider update), whose unchanged
    // resources' credential check (one list per group, issue 53) fails on it, naming the URL.
    const moved = await runMixed(s, "up", [catalogue], [role], wrong);
    expect(moved.ok).toBe(false);
    expect(moved.errors.join("\n")).toContain(`GET ${s.h.emu.baseUrl}/typo/api/v0/groups/42/roles answered 404`);
    for (const op of ["refresh", "destroy"] as const) {
      const r = await runMixed(s, op, [catalogue], [role], wrong);
      expect(r.ok, op).toBe(false);
      const message = r.errors.join("\n");
      expect(message).toContain(`GET ${s.h.emu.baseUrl}/typo/api/v0/groups/42/roles answered 404`);
      expect(message).toContain("Check grouproles:baseUrl");
      expect(custom(r).sort()).toEqual(["GroupRoles", "Role"]);
    }
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["A", "Solo"]);
    // With the right URL everything is as it was: a no-op preview.
    const preview = await runMixed(s, "preview", [catalogue], [role]);
    expect([...catalogPlan(preview), ...rolePlan(preview)]).toEqual([]);
  });

  it("a 404 on one role while the group's list still holds it fails the refresh; the role stays in state", async () => {
    expect((await runMixed(s, "up", [catalogue])).ok).toBe(true);
    await s.h.fault({ method: "GET", path: "/api/v0/groups/42/roles/*", action: "status", status: 404, times: 0 });
    const r = await runMixed(s, "refresh", [catalogue]);
    await s.h.admin("DELETE", "/faults");
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("the group's list still holds role");
    const held = r.resources.find((x) => x.type.endsWith("GroupRoles"))?.outputs["roles"] as Record<string, unknown>;
    expect(Object.keys(held)).toEqual(["a"]);
    expect((await runMixed(s, "preview", [catalogue])).planText).toBe("");
  });

  it("a group the service says is gone (group_not_found) leaves the state at refresh", async () => {
    expect((await runMixed(s, "up", [catalogue], [role])).ok).toBe(true);
    await s.h.fault({
      method: "GET",
      path: "/api/v0/groups/42/roles",
      action: "status",
      status: 404,
      code: "group_not_found",
      times: 0,
    });
    await s.h.fault({ method: "GET", path: "/api/v0/groups/42/roles/*", action: "status", status: 404, times: 0 });
    const r = await runMixed(s, "refresh", [catalogue], [role]);
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect(custom(r)).toEqual([]);
  });
});
