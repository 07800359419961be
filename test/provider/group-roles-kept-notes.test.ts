/**
 * The notes beside a catalogue's plan for removals that delete nothing (provider/group-roles/plan-notes.ts
 * `keptNotes`): the property diff shows a renamed key as the old key removed and a `retain: true` entry
 * removed as a removal, and a reviewer must not read either as a deleted role (issue 43).
 */
import { describe, expect, it } from "vitest";
import { keptNotes } from "../../provider/group-roles/plan-notes";
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
const state: GroupRolesState = {
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
    const moved = renamedKeys(state, declared);
    const removed = Object.keys(state.roles).filter(
      (key) => !Object.hasOwn(declared, key) && ![...moved.values()].includes(key),
    );
    expect(removed).toEqual(["old", "gone"]);
    expect(keptNotes(42, state, moved, removed)).toEqual([
      "GroupRoles of group 42: an entry keeps its role under a new key (the same role, its ID and users kept; " +
        "the diff shows the old key removed and the new one added):\n" +
        '  roles.escalations (was roles.escalation): "Escalations" (roleId 7)',
      "GroupRoles of group 42: an entry marked `retain: true` leaves the catalogue: Pulumi forgets the role, " +
        "the service keeps it (nothing is deleted):\n" +
        '  roles.old: "Old" (roleId 9)',
    ]);
  });

  it("says nothing when every removal deletes its role", () => {
    expect(keptNotes(42, state, new Map(), ["gone"])).toEqual([]);
  });
});
