/**
 * The emulator's role store (emulator/store.ts) at its limits, called directly: groups that do not
 * exist, refusals that name the item and change nothing, and the snapshot the state file and the admin
 * routes keep (restored over an existing store, with a counter below an existing ID).
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../emulator/errors";
import { RoleStore, type StoreSnapshot } from "../../emulator/store";

/** What `fn` threw, as the service would answer it. */
function refusal(fn: () => unknown): { status: number; code: string; message: string; index?: number } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, code: e.code, message: e.message, index: (e.extras as { index?: number }).index };
  }
  throw new Error("not refused");
}

describe("refusals", () => {
  it("a store of known groups answers 404 for any other group, whatever the operation", () => {
    const store = new RoleStore(new Set([42]));
    const missing = { status: 404, code: "group_not_found", message: "group 43 not found", index: undefined };
    expect(refusal(() => store.list(43))).toEqual(missing);
    expect(refusal(() => store.create(43, [{ name: "A" }]))).toEqual(missing);
    expect(refusal(() => store.delete(43, []))).toEqual(missing);
  });

  it("a role not found is named, with its item's index in a batch and plainly otherwise", () => {
    const store = new RoleStore();
    const [a] = store.create(42, [{ name: "A" }]);
    expect(refusal(() => store.details(42, 999))).toEqual({
      status: 404,
      code: "not_found",
      message: "role 999 not found in group 42",
      index: undefined,
    });
    expect(
      refusal(() =>
        store.update(42, [
          { roleId: a!.roleId, name: "B" },
          { roleId: 999, name: "C" },
        ]),
      ),
    ).toEqual({ status: 404, code: "not_found", message: "[1].roleId: role 999 not found in group 42", index: 1 });
    expect(refusal(() => store.delete(42, [a!.roleId, 999]))).toEqual({
      status: 404,
      code: "not_found",
      message: "[1]: role 999 not found in group 42; nothing was deleted",
      index: 1,
    });
    expect(store.list(42).map((r) => r.name)).toEqual(["A"]);
  });

  it("an update naming a role twice is refused, naming the second item", () => {
    const store = new RoleStore();
    const [a] = store.create(42, [{ name: "A" }]);
    const id = a!.roleId;
    expect(
      refusal(() =>
        store.update(42, [
          { roleId: id, name: "B" },
          { roleId: id, name: "C" },
        ]),
      ),
    ).toEqual({
      status: 400,
      code: "validation_failed",
      message: `[1].roleId: role ${id} appears more than once in this request`,
      index: 1,
    });
    expect(store.list(42).map((r) => r.name)).toEqual(["A"]);
  });

  it("an update giving a name that another role keeps, or two roles the same name, is refused, changing nothing", () => {
    const store = new RoleStore();
    const [a, b, c] = store.create(42, [{ name: "A" }, { name: "B" }, { name: "C" }]);
    expect(refusal(() => store.update(42, [{ roleId: b!.roleId, name: "A" }]))).toEqual({
      status: 409,
      code: "name_conflict",
      message: `[0].name: "A" is already used by role ${a!.roleId} in group 42`,
      index: 0,
    });
    expect(
      refusal(() =>
        store.update(42, [
          { roleId: b!.roleId, name: "X" },
          { roleId: c!.roleId, name: "X" },
        ]),
      ),
    ).toEqual({
      status: 409,
      code: "name_conflict",
      message: `[1].name: "X" is already used by role ${b!.roleId} in group 42`,
      index: 1,
    });
    expect(store.list(42).map((r) => r.name)).toEqual(["A", "B", "C"]);
  });
});

describe("snapshot and restore", () => {
  it("a snapshot holds every role with its settings, and no group left empty", () => {
    const store = new RoleStore();
    const [a] = store.create(42, [{ name: "A", description: "d", settings: { viewVideo: true } }]);
    const [b] = store.create(41, [{ name: "B" }]);
    store.delete(41, [b!.roleId]);
    const snap = store.snapshot();
    expect(snap.groups).toEqual({
      "42": [{ roleId: a!.roleId, name: "A", description: "d", settings: { viewVideo: true }, userCount: 0 }],
    });
  });

  it("restoring replaces what the store held, and keeps each role's settings", () => {
    const source = new RoleStore();
    const [a] = source.create(42, [{ name: "A", settings: { viewVideo: true } }]);
    const store = new RoleStore();
    store.create(7, [{ name: "Old" }]);
    store.restore(source.snapshot());
    expect(store.list(7)).toEqual([]);
    expect(store.details(42, a!.roleId)).toEqual({
      roleId: a!.roleId,
      name: "A",
      description: "",
      settings: { viewVideo: true },
    });
  });

  it.each([
    [1, 6], // a hand-edited counter below an existing ID: never a duplicate ID
    [10, 10], // a counter above every ID is kept
  ])("restored with the counter at %i and a role 5, the next role gets ID %i", (nextRoleId, expected) => {
    const snap: StoreSnapshot = {
      nextRoleId,
      groups: { "42": [{ roleId: 5, name: "A", description: "", settings: {}, userCount: 0 }] },
    };
    const store = new RoleStore();
    store.restore(snap);
    const [made] = store.create(42, [{ name: "B" }]);
    expect(made!.roleId).toBe(expected);
  });
});
