/**
 * The GroupRoles plan's rules about the other resources of a deployment (provider/group-roles/plan.ts),
 * called directly: what the plan lets go instead of deleting, why a held name is refused or waited for
 * (the kind its message and the provider's wait depend on), and the plan of a deployment in which no
 * other resource touches the group (`NO_OTHERS`, the default).
 */
import { describe, expect, it } from "vitest";
import type { RoleSummary } from "../../client/types";
import { NO_OTHERS, planApply, type OtherResources } from "../../provider/group-roles/plan";
import type { EntryState, GroupRolesInputs, GroupRolesState } from "../../provider/group-roles/types";

const role = (roleId: number, name: string): RoleSummary => ({ roleId, name, inUse: false, description: "" });
const entry = (roleId: number, name: string): EntryState => ({
  roleId,
  name,
  description: "",
  settings: {},
  inUse: false,
  userCount: 0,
});
const inputsOf = (roles: GroupRolesInputs["roles"], adoptExisting = false): GroupRolesInputs => ({
  groupId: 42,
  roles,
  adoptExisting,
  exclusive: false,
});
/** Other resources that do `does` with role `roleId` and nothing with any other. */
const othersFor = (roleId: number, does: Partial<OtherResources>): OtherResources => ({
  releases: (id) => id === roleId && (does.releases?.(id) ?? false),
  keeps: (id) => (id === roleId ? does.keeps?.(id) : undefined),
  takes: (id, name) => id === roleId && (does.takes?.(id, name) ?? false),
});

describe("plan: no other resource (NO_OTHERS, the default)", () => {
  it("a removed entry's role is deleted, not let go; a name held by a hand-made role is held from outside", () => {
    const state: GroupRolesState = { groupId: 42, roles: { a: entry(1, "A"), b: entry(2, "B") } };
    const listed = [role(1, "A"), role(2, "B"), role(3, "Hand")];
    const plan = planApply(state, inputsOf({ a: { name: "Hand" }, c: { name: "Hand 2" } }), listed);
    expect(plan.deletes).toEqual([{ key: "b", roleId: 2, name: "B" }]);
    expect(plan.letGo).toEqual([]);
    expect(plan.conflicts).toEqual([{ key: "a", name: "Hand", holderId: 3, added: false, kind: "outside" }]);
    expect(planApply(state, inputsOf({ a: { name: "Hand" } }), listed, NO_OTHERS)).toEqual(
      planApply(state, inputsOf({ a: { name: "Hand" } }), listed),
    );
  });
});

describe("plan: other resources of the deployment", () => {
  const state: GroupRolesState = { groupId: 42, roles: { a: entry(1, "A"), b: entry(2, "B") } };
  const listed = [role(1, "A"), role(2, "B"), role(3, "Other")];

  it("a removed entry whose role another resource takes is let go, not deleted", () => {
    const plan = planApply(state, inputsOf({ a: { name: "A" } }), listed, othersFor(2, { takes: () => true }));
    expect(plan.letGo).toEqual([{ key: "b", roleId: 2 }]);
    expect(plan.deletes).toEqual([]);
  });

  it("a name another resource lets go: waited for by a rename, `released` for an added entry", () => {
    const others = othersFor(3, { releases: () => true });
    const plan = planApply(state, inputsOf({ a: { name: "Other" }, b: { name: "B" } }), listed, others);
    expect(plan.conflicts).toEqual([{ key: "a", name: "Other", holderId: 3, added: false, kind: "wait" }]);
    const added = planApply(
      state,
      inputsOf({ a: { name: "A" }, b: { name: "B" }, c: { name: "Other" } }),
      listed,
      others,
    );
    expect(added.conflicts).toEqual([{ key: "c", name: "Other", holderId: 3, added: true, kind: "released" }]);
    // Let go, but kept (taken over) by a third: its name stays held.
    const kept = othersFor(3, { releases: () => true, keeps: () => ({}) });
    expect(planApply(state, inputsOf({ a: { name: "Other" }, b: { name: "B" } }), listed, kept).conflicts).toEqual([
      { key: "a", name: "Other", holderId: 3, added: false, kind: "program" },
    ]);
  });

  /** The kinds of the conflicts of renaming entry a onto "Other", held by role 3, which another resource keeps so. */
  const kind = (kept: { plannedName?: string; settled?: boolean; currentName?: string }) =>
    planApply(
      state,
      inputsOf({ a: { name: "Other" }, b: { name: "B" } }),
      listed,
      othersFor(3, { keeps: () => kept }),
    ).conflicts.map((c) => c.kind);

  it("a name another resource keeps: waited for only while that resource renames the role away", () => {
    expect(kind({})).toEqual(["program"]);
    expect(kind({ plannedName: "Elsewhere" })).toEqual(["wait"]);
    expect(kind({ plannedName: "Elsewhere", settled: false })).toEqual(["wait"]);
    expect(kind({ plannedName: "Elsewhere", settled: true })).toEqual(["program"]);
    expect(kind({ plannedName: "Other" })).toEqual(["program"]);
  });

  it("a name the list shows held, but whose holder another resource's update has since renamed away, is free", () => {
    expect(kind({ plannedName: "Elsewhere", settled: true, currentName: "Elsewhere" })).toEqual([]);
    // Its update failed, or has not run: the name is still held.
    expect(kind({ plannedName: "Elsewhere", settled: true, currentName: "Other" })).toEqual(["program"]);
    expect(kind({ plannedName: "Elsewhere", settled: false, currentName: "Elsewhere" })).toEqual(["wait"]);
  });

  it("a name the list shows free, but that another resource's update has since given a role, is held", () => {
    // Role 3 (listed "Other") settled as "Free": "Other" is free now, and "Free" is held by role 3.
    const settled = othersFor(3, { keeps: () => ({ plannedName: "Free", settled: true, currentName: "Free" }) });
    const plan = planApply(state, inputsOf({ a: { name: "Free" }, b: { name: "Other" } }), listed, settled);
    expect(plan.conflicts).toEqual([{ key: "a", name: "Free", holderId: 3, added: false, kind: "program" }]);
  });

  it("a declared entry's unconfirmed create whose role another resource keeps is neither taken over nor deleted", () => {
    const unconfirmed: GroupRolesState = { groupId: 42, roles: {}, unconfirmed: { x: "Other" } };
    const plan = planApply(
      unconfirmed,
      inputsOf({ x: { name: "Mine" } }, true),
      listed,
      othersFor(3, { keeps: () => ({}) }),
    );
    expect(plan.deletes).toEqual([]);
    expect(plan.takeovers).toEqual([]);
    expect(plan.creates).toEqual([{ key: "x", entry: { name: "Mine" } }]);
  });
});
