/**
 * What a GroupRoles diff reports beside "changes" (provider/group-roles/changed-keys.ts): the top-level
 * inputs that change, which the engine matches `replaceOnChanges` against, and per entry what happens to
 * it, which a plugin's preview shows. Pure: no request.
 */
import { describe, expect, it } from "vitest";
import { heldTextFields } from "../../client/role-fields";
import { propertyPath, reportChanges } from "../../provider/group-roles/changed-keys";
import type { EntryState, GroupRolesState } from "../../provider/group-roles/types";
import { UNKNOWN } from "../../provider/role/inputs";

const entry = (roleId: number, name: string, extra: Partial<EntryState> = {}): EntryState => ({
  roleId,
  name,
  ...heldTextFields({}),
  settings: {},
  inUse: false,
  userCount: 0,
  ...extra,
});
const state: GroupRolesState = {
  groupId: 42,
  roles: { a: entry(1, "A"), b: entry(2, "B"), c: entry(3, "C"), gone: entry(4, "Gone") },
};

describe("reportChanges", () => {
  it("names each entry added, updated (a renamed key too) or removed, and the top-level keys that change", () => {
    const news = {
      groupId: 42,
      exclusive: true,
      roles: { a: { name: "A" }, b: { name: "B2" }, c2: { name: "C" }, "new one": { name: "N" } },
    };
    expect(reportChanges(state, news, false)).toEqual({
      diffs: ["roles", "exclusive"],
      detailedDiff: { "roles.b": "update", "roles.c2": "update", 'roles["new one"]': "add", "roles.gone": "delete" },
    });
  });

  it("a flag alone changes `exclusive` only; a replacement is `groupId`; unknown entries are `roles`, no detail", () => {
    const same = { a: { name: "A" }, b: { name: "B" }, c: { name: "C" }, gone: { name: "Gone" } };
    expect(reportChanges(state, { groupId: 42, exclusive: true, roles: same }, false)).toEqual({
      diffs: ["exclusive"],
      detailedDiff: {},
    });
    expect(reportChanges(state, { groupId: 43, roles: same }, true)).toEqual({ diffs: ["groupId"] });
    expect(reportChanges(state, { groupId: 42, roles: { a: { name: UNKNOWN } } }, false)).toEqual({ diffs: ["roles"] });
  });

  it("property paths as Pulumi writes them", () => {
    expect(["a", "_x1", "1a", "a.b", "a b", 'q"'].map((k) => propertyPath("roles", k))).toEqual([
      "roles.a",
      "roles._x1",
      'roles["1a"]',
      'roles["a.b"]',
      'roles["a b"]',
      'roles["q\\""]',
    ]);
  });
});
