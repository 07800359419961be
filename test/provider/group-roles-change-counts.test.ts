/**
 * The counts a large catalogue change prints before its lines (provider/group-roles/change-counts.ts):
 * each kind of entry change counted once, from the apply's own plan; and the notes for removals that
 * delete nothing (plan-notes.ts `keptNotes`).
 */
import { describe, expect, it } from "vitest";
import type { RoleSummary } from "../../client/types";
import { changeCounts, COUNTS_FROM } from "../../provider/group-roles/change-counts";
import { keptNotes } from "../../provider/group-roles/plan-notes";
import { planApply } from "../../provider/group-roles/plan";
import { renamedKeys } from "../../provider/group-roles/renamed-keys";
import type { EntryState, GroupRolesState } from "../../provider/group-roles/types";

const held = (roleId: number, name: string, retain?: true): EntryState => ({
  roleId,
  name,
  description: "",
  settings: {},
  inUse: false,
  userCount: 0,
  ...(retain ? { retain } : {}),
});
const listed = (roleId: number, name: string): RoleSummary => ({ roleId, name, inUse: false, userCount: 0 });

describe("changeCounts", () => {
  // State: k1..k8 (roles 1..8). Program: k1..k3 renamed, k4 under a new key, k5 a settings change,
  // k6..k8 removed, n1..n4 new, "Hand" (role 9, made by hand) taken over with adoptExisting.
  const state: GroupRolesState = {
    groupId: 42,
    roles: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i + 1}`, held(i + 1, `R${i + 1}`)])),
  };
  const service = [...Array.from({ length: 8 }, (_, i) => listed(i + 1, `R${i + 1}`)), listed(9, "Hand")];
  const roles = {
    k1: { name: "S1" },
    k2: { name: "S2" },
    k3: { name: "S3" },
    moved: { name: "R4" },
    k5: { name: "R5", settings: { viewVideo: true } },
    n1: { name: "N1" },
    n2: { name: "N2" },
    n3: { name: "N3" },
    n4: { name: "N4" },
    hand: { name: "Hand" },
  };

  it("counts each kind once: created, taken over, renamed, updated, kept under a new key, deleted", () => {
    const plan = planApply(state, { groupId: 42, roles, adoptExisting: true, exclusive: false }, service);
    expect(changeCounts(plan, renamedKeys(state, roles).keys())).toBe(
      "GroupRoles of group 42: 13 roles change: 4 created, 1 taken over (kept, with their IDs and users), " +
        "3 renamed, 1 updated (settings or text), 1 kept under a new key, 3 deleted",
    );
  });

  it(`says nothing for a change of ${COUNTS_FROM} roles or fewer`, () => {
    const small = { k1: { name: "S1" }, k2: { name: "R2" } };
    const plan = planApply(state, { groupId: 42, roles: small, adoptExisting: false, exclusive: false }, service);
    // 1 renamed and 6 deleted: 7 changes, read line by line.
    expect(changeCounts(plan)).toBeUndefined();
  });
});

// The notes beside the diff for removals that delete nothing (plan-notes.ts `keptNotes`): the diff shows a
// renamed key as the old key removed, and a `retain: true` entry removed as a removal (issue 43).
const keptState: GroupRolesState = {
  groupId: 42,
  roles: {
    escalation: held(7, "Escalations"),
    kept: held(8, "Kept"),
    old: held(9, "Old", true),
    gone: held(10, "Gone"),
  },
};

describe("keptNotes", () => {
  it("names each key renamed with its role, and each retained entry removed; not a plain removal", () => {
    const declared = { escalations: { name: "Escalations" }, kept: { name: "Kept" } };
    const moved = renamedKeys(keptState, declared);
    const removed = Object.keys(keptState.roles).filter(
      (key) => !Object.hasOwn(declared, key) && ![...moved.values()].includes(key),
    );
    expect(removed).toEqual(["old", "gone"]);
    expect(keptNotes(42, keptState, moved, removed)).toEqual([
      "GroupRoles of group 42: an entry keeps its role under a new key (the same role, its ID and users kept; " +
        "the diff shows the old key removed and the new one added):\n" +
        '  roles.escalations (was roles.escalation): "Escalations" (roleId 7)',
      "GroupRoles of group 42: an entry marked `retain: true` leaves the catalogue: Pulumi forgets the role, " +
        "the service keeps it (nothing is deleted):\n" +
        '  roles.old: "Old" (roleId 9)',
    ]);
  });

  it("says nothing when every removal deletes its role", () => {
    expect(keptNotes(42, keptState, new Map(), ["gone"])).toEqual([]);
  });
});

describe("renamedKeys: an entry under a new key with the name a removed key held is that role", () => {
  const state: GroupRolesState = { groupId: 42, roles: { a: held(1, "A"), b: held(2, "B"), c: held(3, "C") } };

  it("maps each new key to the removed key whose name it declares, each removed key once", () => {
    // x takes A's role; y declares A too but a role is one entry's; b is kept; z declares the name of a kept key.
    const roles = { x: { name: "A" }, y: { name: "A" }, b: { name: "B" }, z: { name: "B" } };
    expect([...renamedKeys(state, roles)]).toEqual([["x", "a"]]);
  });

  it("nothing for kept keys, new names, or entries that are not objects", () => {
    expect([...renamedKeys(state, { a: { name: "A" }, b: { name: "C" }, c: { name: "B" } })]).toEqual([]);
    expect([...renamedKeys(state, { x: { name: "New" }, y: null, z: "C" })]).toEqual([]);
  });
});
