/**
 * A `groupId` the service does not have fails the preview, naming the group, for `Role` and `GroupRoles`
 * of both SDK kinds: the preview's own list of the group answers 404 `group_not_found`, which the `up`'s
 * write would meet too. Nothing is written; the service is the witness.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { catalogueSpec, roleSpec, runMixed, SDK_KINDS, specProgram, stackFor, type Stack } from "./harness";

describe.each(SDK_KINDS)("%s resources in a group the service does not have", (sdk) => {
  let s: Stack;
  // An emulator that has group 42 only: every other group answers 404 group_not_found, as the service.
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec", {}, { groups: [42] }, undefined, sdk);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.fresh());

  it("a new Role or GroupRoles there fails the preview naming the group; a Role moved there too", async () => {
    for (const [catalogues, roles] of [
      [[], [roleSpec("r", "Reports", undefined, 99)]],
      [
        [{ ...catalogueSpec("c", { a: { name: "Agents" } }), args: { groupId: 99, roles: { a: { name: "Agents" } } } }],
        [],
      ],
    ] as const) {
      await s.h.clearRequests();
      const preview = await runMixed(s, "preview", [...catalogues], [...roles]);
      expect(preview.ok).toBe(false);
      expect(preview.errors.join("\n")).toContain(
        "group 99 does not exist in the service (listing it answered 404 group_not_found), so the planned change cannot apply: check groupId",
      );
      expect((await s.h.requests()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    }
    const up = await runMixed(s, "up", [], [roleSpec("r", "Reports")]);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const moved = await runMixed(s, "preview", [], [roleSpec("r", "Reports", undefined, 99)]);
    expect(moved.ok).toBe(false);
    expect(moved.errors.join("\n")).toContain("group 99 does not exist in the service");
    expect((await s.h.listRoles(42)).map((r) => r.name)).toEqual(["Reports"]);
  });
});
