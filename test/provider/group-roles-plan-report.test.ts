/**
 * The plan a catalogue change prints for a reviewer (provider/group-roles/plan-report.ts): each entry
 * that changes on a line of its kind, from the apply's own plan, what deletes first, the rest counted;
 * and the notes for removals that delete nothing when nothing else changes (plan-notes.ts `keptNotes`).
 */
import { describe, expect, it } from "vitest";
import type { RoleSummary } from "../../client/types";
import { keptNotes } from "../../provider/group-roles/plan-notes";
import { planApply } from "../../provider/group-roles/plan";
import { planReport } from "../../provider/group-roles/plan-report";
import { renamedKeys } from "../../provider/group-roles/renamed-keys";
import type { GroupRolesState } from "../../provider/group-roles/types";
import { heldEntry } from "../support/entry-state";

const held = heldEntry;
const listed = (roleId: number, name: string): RoleSummary => ({ roleId, name, inUse: false, userCount: 0 });

describe("planReport", () => {
  // State: k1..k8 (roles 1..8), k9 retained. Program: k1..k3 renamed, k4 under a new key, k5 a settings
  // change, k6..k8 removed, k9 removed (retained), n1..n4 new, "Hand" (role 10, made by hand) taken over.
  const state: GroupRolesState = {
    groupId: 42,
    roles: {
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i + 1}`, held(i + 1, `R${i + 1}`)])),
      k9: held(9, "R9", true),
    },
  };
  const service = [
    ...Array.from({ length: 9 }, (_, i) => listed(i + 1, `R${i + 1}`)),
    { ...listed(10, "Hand"), inUse: true, userCount: 3 },
  ];
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

  it("says a role taken over has its settings compared at up, not changed (the list has none)", () => {
    const taking = { hand: { name: "Hand", settings: { viewVideo: true } } };
    const plan = planApply(
      { groupId: 42, roles: {} },
      { groupId: 42, roles: taking, adoptExisting: true, exclusive: false },
      service,
    );
    const report = planReport(plan, { groupId: 42, roles: {} }, service) ?? "";
    expect(report).not.toContain("settings changed");
    expect(report).toContain('roles.hand: "Hand" (roleId 10, 3 users)');
    expect(report).toContain("settings compared at up");
  });

  it("lists every entry that changes by kind, deletions first, and counts the rest", () => {
    const plan = planApply(state, { groupId: 42, roles, adoptExisting: true, exclusive: false }, service);
    const moved = renamedKeys(state, roles);
    expect(planReport(plan, state, service, moved, ["k9"])).toBe(
      "GroupRoles of group 42: 14 roles change (3 deleted, 1 forgotten, kept in the service, 4 changed, 1 kept " +
        "under a new key, 1 taken over, 4 created):\n" +
        "  deleted:\n" +
        '  - roles.k6: "R6" (roleId 6, no users)\n' +
        '  - roles.k7: "R7" (roleId 7, no users)\n' +
        '  - roles.k8: "R8" (roleId 8, no users)\n' +
        "  forgotten, kept in the service (`retain: true`):\n" +
        '  > roles.k9: "R9" (roleId 9, no users)\n' +
        "  changed:\n" +
        '  ~ roles.k1: "R1" (roleId 1, no users): renamed to "S1"\n' +
        '  ~ roles.k2: "R2" (roleId 2, no users): renamed to "S2"\n' +
        '  ~ roles.k3: "R3" (roleId 3, no users): renamed to "S3"\n' +
        '  ~ roles.k5: "R5" (roleId 5, no users): settings changed\n' +
        "  kept under a new key (the same role):\n" +
        '  = roles.moved: "R4" (roleId 4, no users), was roles.k4\n' +
        "  taken over (kept, with its ID and users):\n" +
        '  + roles.hand: "Hand" (roleId 10, 3 users)\n' +
        "  created:\n" +
        '  + roles.n1: "N1"\n' +
        '  + roles.n2: "N2"\n' +
        '  + roles.n3: "N3"\n' +
        '  + roles.n4: "N4"',
    );
  });

  it("counts the entries that stay; a large kind is cut with its count; nothing changing says nothing", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`n${i}`, { name: `N${i}` }]));
    const keep = { k1: { name: "R1" }, k2: { name: "R2" } };
    const plan = planApply(
      { groupId: 42, roles: { k1: held(1, "R1"), k2: held(2, "R2") } },
      { groupId: 42, roles: { ...keep, ...many }, adoptExisting: false, exclusive: false },
      service,
    );
    const report = planReport(plan, state, service)!;
    expect(report.split("\n")[0]).toBe(
      "GroupRoles of group 42: 30 roles change (30 created); 2 other entries stay as they are:",
    );
    expect(report).toContain("  ... and 20 more");
    expect(report.split("\n")).toHaveLength(13);
    const same = planApply(
      { groupId: 42, roles: { k1: held(1, "R1"), k2: held(2, "R2") } },
      { groupId: 42, roles: keep, adoptExisting: false, exclusive: false },
      service,
    );
    expect(planReport(same, state, service)).toBeUndefined();
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

  it("a role renamed outside the program (a refresh's appliedNames) moves by either name, the held one first", () => {
    // a was last given "A" and holds "Z" now; b and c were renamed into each other's last names by hand.
    const drifted: GroupRolesState = {
      groupId: 42,
      roles: { a: held(1, "Z"), b: held(2, "C"), c: held(3, "B") },
      appliedNames: { a: "A", b: "B", c: "C" },
    };
    expect([...renamedKeys(drifted, { x: { name: "A" } })]).toEqual([["x", "a"]]);
    expect([...renamedKeys(drifted, { x: { name: "Z" } })]).toEqual([["x", "a"]]);
    // One removed key moves once, by whichever of its names comes first.
    expect([...renamedKeys(drifted, { x: { name: "A" }, y: { name: "Z" } })]).toEqual([["x", "a"]]);
    // "B" is held by c now, and was b's last name: the holder's.
    expect([...renamedKeys(drifted, { x: { name: "B" } })]).toEqual([["x", "c"]]);
  });
});
