/**
 * The GroupRoles plan's rules about the other resources of a deployment (provider/group-roles/plan.ts),
 * called directly: what the plan lets go instead of deleting, why a held name is refused or waited for
 * (the kind its message and the provider's wait depend on), and the plan of a deployment in which no
 * other resource touches the group (`NO_OTHERS`, the default).
 */
import { describe, expect, it } from "vitest";
import { heldTextFields } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import { namesTaken } from "../../provider/group-roles/name-errors";
import { otherResources } from "../../provider/group-roles/others";
import { planApply } from "../../provider/group-roles/plan";
import { NO_OTHERS, type Holder, type OtherResources } from "../../provider/group-roles/plan-types";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";
import type { EntryState, GroupRolesInputs, GroupRolesState } from "../../provider/group-roles/types";

const role = (roleId: number, name: string): RoleSummary => ({ roleId, name, inUse: false, description: "" });
const entry = (roleId: number, name: string): EntryState => ({
  roleId,
  name,
  ...heldTextFields({}),
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
const othersFor = (roleId: number, does: { holder?: Holder; takes?: boolean }): OtherResources => ({
  holder: (id) => (id === roleId ? does.holder : undefined),
  takes: (id) => id === roleId && (does.takes ?? false),
  removable: (id) => id !== roleId || (!does.holder && !does.takes),
});
/** A registration of another resource, as the ledger makes them. */
const earlier = new DeploymentLedger().registrations.register('the GroupRoles declaring "X"');

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
    const plan = planApply(state, inputsOf({ a: { name: "A" } }), listed, othersFor(2, { takes: true }));
    expect(plan.letGo).toEqual([{ key: "b", roleId: 2 }]);
    expect(plan.deletes).toEqual([]);
  });

  it("a name an earlier registration deletes in its step: waited for by a rename, `released` for an added entry", () => {
    const others = othersFor(3, { holder: { frees: earlier, by: "delete" } });
    const plan = planApply(state, inputsOf({ a: { name: "Other" }, b: { name: "B" } }), listed, others);
    expect(plan.conflicts).toEqual([
      { key: "a", name: "Other", holderId: 3, added: false, kind: "wait", freedBy: earlier },
    ]);
    const added = planApply(
      state,
      inputsOf({ a: { name: "A" }, b: { name: "B" }, c: { name: "Other" } }),
      listed,
      others,
    );
    expect(added.conflicts).toEqual([{ key: "c", name: "Other", holderId: 3, added: true, kind: "released" }]);
    // Let go, but kept (taken over) by a third: its name stays held.
    const kept = othersFor(3, { holder: { keeps: {} } });
    expect(planApply(state, inputsOf({ a: { name: "Other" }, b: { name: "B" } }), listed, kept).conflicts).toEqual([
      { key: "a", name: "Other", holderId: 3, added: false, kind: "program" },
    ]);
  });

  /** The kinds of the conflicts of renaming entry a onto "Other", held by role 3, which another resource holds so. */
  const kind = (holder: Holder) =>
    planApply(
      state,
      inputsOf({ a: { name: "Other" }, b: { name: "B" } }),
      listed,
      othersFor(3, { holder }),
    ).conflicts.map((c) => c.kind);

  it("a name another resource keeps: waited for while an earlier one renames it away; too late for a later one", () => {
    expect(kind({ keeps: {} })).toEqual(["program"]);
    expect(kind({ keeps: { plannedName: "Elsewhere" }, frees: earlier, by: "rename" })).toEqual(["wait"]);
    expect(kind({ keeps: { plannedName: "Elsewhere" }, later: true })).toEqual(["later"]);
    expect(kind({ keeps: { plannedName: "Elsewhere", settled: true } })).toEqual(["program"]);
    expect(kind({ keeps: { plannedName: "Other" } })).toEqual(["program"]);
    // Deleted only after every other step (a replaced catalogue): a rename cannot wait that long.
    expect(kind({ deferred: true })).toEqual(["later"]);
  });

  it("an added entry adopting a name another resource frees too late: refused, without advice to adopt", () => {
    const adopting = planApply(
      state,
      inputsOf({ a: { name: "A" }, b: { name: "B" }, c: { name: "Other" } }, true),
      listed,
      othersFor(3, { holder: { keeps: { plannedName: "Elsewhere" }, later: true } }),
    );
    expect(adopting.conflicts).toEqual([{ key: "c", name: "Other", holderId: 3, added: true, kind: "later" }]);
    expect(adopting.adoptExisting).toBe(true);
    const refusal = namesTaken(42, adopting.conflicts, { adopts: adopting.adoptExisting }).message;
    expect(refusal).toContain("give this resource `dependsOn` on the one that renames or removes the holder");
    expect(refusal).not.toContain("set `adoptExisting: true`");
  });

  it("a name the list shows held, but whose holder another resource's update has since renamed away, is free", () => {
    expect(kind({ keeps: { plannedName: "Elsewhere", settled: true, currentName: "Elsewhere" } })).toEqual([]);
    // Its update failed: the name is still held.
    expect(kind({ keeps: { plannedName: "Elsewhere", settled: true, currentName: "Other" } })).toEqual(["program"]);
  });

  it("a name the list shows free, but that another resource's update has since given a role, is held", () => {
    // Role 3 (listed "Other") settled as "Free": "Other" is free now, and "Free" is held by role 3.
    const settled = othersFor(3, { holder: { keeps: { plannedName: "Free", settled: true, currentName: "Free" } } });
    const plan = planApply(state, inputsOf({ a: { name: "Free" }, b: { name: "Other" } }), listed, settled);
    expect(plan.conflicts).toEqual([{ key: "a", name: "Free", holderId: 3, added: false, kind: "program" }]);
  });

  it("a declared entry's unconfirmed create whose role another resource keeps is neither taken over nor deleted", () => {
    const unconfirmed: GroupRolesState = { groupId: 42, roles: {}, unconfirmed: { x: "Other" } };
    const plan = planApply(
      unconfirmed,
      inputsOf({ x: { name: "Mine" } }, true),
      listed,
      othersFor(3, { holder: { keeps: {} } }),
    );
    expect(plan.deletes).toEqual([]);
    expect(plan.takeovers).toEqual([]);
    expect(plan.creates).toEqual([{ key: "x", entry: { name: "Mine" } }]);
  });
});

describe("other resources, as the ledger shows them to one registration (./others)", () => {
  it("a holder renamed away or deleted by a registration in self's dependsOn frees the name; by any other, too late", () => {
    const l = new DeploymentLedger();
    const before = l.registrations.register("before", { urn: "u:before", dependsOn: new Map() });
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "A2", reg: before });
    l.names.release(42, 2, "B", before, false);
    const unordered = l.registrations.register("unordered", { urn: "u:unordered", dependsOn: new Map() });
    l.declarations.declare(42, 7, { currentName: "G", plannedName: "G2", reg: unordered });
    const depends = new Map([["u:before", { names: [], roleIds: [] }]]);
    const self = l.registrations.register("self", { urn: "u:self", dependsOn: depends });
    const after = l.registrations.register("after");
    l.declarations.declare(42, 3, { currentName: "C", plannedName: "C2", reg: after });
    l.names.release(42, 4, "D", after, false);
    l.names.release(42, 5, "E", before, true);
    const others = otherResources(l, 42, self, "apply");
    expect(others.holder(1)).toMatchObject({ frees: before, by: "rename" });
    expect(others.holder(2)).toEqual({ frees: before, by: "delete" });
    expect(others.holder(3)).toMatchObject({ later: true });
    expect(others.holder(4)).toEqual({ later: true });
    expect(others.holder(5)).toEqual({ deferred: true });
    expect(others.holder(6)).toBeUndefined();
    expect(others.holder(7)).toMatchObject({ later: true }); // checked before self, but not in its dependsOn
  });

  it("an exclusive catalogue's apply removes only what its Diff let go, and nothing another resource took", () => {
    const l = new DeploymentLedger();
    const self = l.registrations.register("exclusive");
    l.names.release(42, 1, "Hand", self, false);
    const atDiff = otherResources(l, 42, self, "diff");
    const atApply = otherResources(l, 42, self, "apply");
    // A step no Diff or Check announced (a provider called directly) decides at apply.
    expect([atApply.removable(1, "Hand"), atApply.removable(2, "New")]).toEqual([true, true]);
    l.exclusives.decideRemovals(self);
    expect([atDiff.removable(1, "Hand"), atDiff.removable(2, "New")]).toEqual([true, true]);
    // At apply, a role its Diff did not let go (made since, by this deployment or by hand) stays.
    expect([atApply.removable(1, "Hand"), atApply.removable(2, "New")]).toEqual([true, false]);
    l.creates.claim(42, 1);
    expect(atApply.removable(1, "Hand")).toBe(false);
  });
});
