/**
 * Replies the providers do not take on trust, through the engine stand-in: a create reply whose IDs
 * were held before or are repeated never reaches state (the group is listed and the roles adopted by
 * name), and a GroupRoles refresh never drops a role that a bad list leaves out. Outcomes are read
 * from the service (its list, after destroy), not from what the test sent.
 */
import { describe, expect, it } from "vitest";
import { isGroupRolesType, runMixed, runSpec, specStackPerFile, type GroupRolesSpec, type Stack } from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

const CREATE = { method: "POST", path: "/api/v0/groups/42/roles" };
const LIST = { method: "GET", path: "/api/v0/groups/42/roles" };
const catalogue = (names: string[]): GroupRolesSpec => ({
  name: "catalogue",
  args: { groupId: 42, roles: Object.fromEntries(names.map((n) => [n.toLowerCase(), { name: n }])) },
});
type Resources = { resources: Array<{ type: string; id?: string; outputs: Record<string, unknown> }> };
const entryIds = (r: Resources) => {
  const roles = r.resources.find((x) => isGroupRolesType(x.type, "GroupRoles"))?.outputs["roles"];
  return Object.fromEntries(
    Object.entries((roles ?? {}) as Record<string, { roleId: number }>).map(([k, v]) => [k, v.roleId]),
  );
};
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
/** A role made by hand, outside the program: what a trusted bad reply would hand to the program. */
const handMade = async () => (await s.h.create(42, [{ name: "Manual" }]))[0]!.roleId;

describe("a create reply's role IDs", () => {
  it("GroupRoles: a reply naming a role the group held before is refused; the role made is adopted by name", async () => {
    const manual = await handMade();
    await s.h.fault({ ...CREATE, action: "override", fields: { roleId: manual } });
    const up = await runMixed(s, "up", [catalogue(["A"])]);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const service = await held();
    expect(entryIds(up)).toEqual({ a: service["A"] });
    expect(service["A"]).not.toBe(manual);
    const destroyed = await runMixed(s, "destroy", []);
    expect(destroyed.ok, destroyed.errors.join("\n")).toBe(true);
    expect(await held()).toEqual({ Manual: manual });
  });

  it("GroupRoles: a reply giving two roles one ID is refused; both are adopted by name", async () => {
    await s.h.fault({ ...CREATE, action: "override", fields: { roleId: 987654 } });
    const up = await runMixed(s, "up", [catalogue(["A", "B"])]);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const service = await held();
    expect(entryIds(up)).toEqual({ a: service["A"], b: service["B"] });
    expect((await runMixed(s, "destroy", [])).ok).toBe(true);
    expect(await held()).toEqual({});
  });

  it("Role: a reply naming a role the group held before is refused; the role made is adopted by name", async () => {
    const manual = await handMade();
    await s.h.fault({ ...CREATE, action: "override", fields: { roleId: manual } });
    const ops = { name: "ops", args: { groupId: 42, name: "Ops" } };
    const up = await runSpec(s, "up", [ops]);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const service = await held();
    expect(up.resources.filter((r) => isGroupRolesType(r.type, "Role")).map((r) => r.id)).toEqual([
      `42/${service["Ops"]}`,
    ]);
    const destroyed = await runSpec(s, "destroy", []);
    expect(destroyed.ok, destroyed.errors.join("\n")).toBe(true);
    expect(await held()).toEqual({ Manual: manual });
  });
});

describe("a GroupRoles refresh and a bad list", () => {
  const made = async () => {
    const up = await runMixed(s, "up", [catalogue(["A", "B", "C"])]);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    return entryIds(up);
  };

  it("a list that leaves a role out fails the refresh naming it, and state keeps it", async () => {
    const before = await made();
    // `wrong-shape` drops the last item of every list until cleared: the service still has role C.
    await s.h.fault({ ...LIST, action: "wrong-shape", times: 0 });
    const refreshed = await runMixed(s, "refresh", [catalogue(["A", "B", "C"])]);
    expect(refreshed.ok).toBe(false);
    expect(refreshed.errors.join("\n")).toMatch(/roles\.c: role \d+ \("C"\) is missing from the list of group 42/);
    expect(entryIds(refreshed)).toEqual(before);
    await s.h.admin("DELETE", "/faults");
    // State kept C, so destroy deletes all three, as the service shows.
    expect((await runMixed(s, "destroy", [])).ok).toBe(true);
    expect(await held()).toEqual({});
  });

  it("a list giving every role one ID fails the refresh, and state keeps every entry", async () => {
    const before = await made();
    await s.h.fault({ ...LIST, action: "override", fields: { roleId: before["a"] }, times: 0 });
    const refreshed = await runMixed(s, "refresh", [catalogue(["A", "B", "C"])]);
    expect(refreshed.ok).toBe(false);
    expect(refreshed.errors.join("\n")).toContain(`list reply names role ${before["a"]} more than once`);
    expect(entryIds(refreshed)).toEqual(before);
  });

  it("a role deleted by hand (its details answer 404) still leaves the state on refresh", async () => {
    const before = await made();
    expect((await s.h.api("POST", "/groups/42/delete-roles", [before["b"]])).status).toBe(200);
    const refreshed = await runMixed(s, "refresh", [catalogue(["A", "B", "C"])]);
    expect(refreshed.ok, refreshed.errors.join("\n")).toBe(true);
    expect(entryIds(refreshed)).toEqual({ a: before["a"], c: before["c"] });
  });
});
