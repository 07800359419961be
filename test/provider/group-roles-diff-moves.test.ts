/**
 * GroupRoles diff, what it tells the rest of the deployment: names an entry added with adoptExisting
 * declares (in its group, or in the new group of a groupId change), roles it keeps and roles it lets
 * go, and what only the order of registrations could settle, refused in the later one's Check or Diff.
 * Each test calls Check and Diff in the order the engine would register the resources, then steps, in
 * one deployment, and reads the outcome from the service.
 */
import { describe, expect, it } from "vitest";
import * as roleProvider from "../../provider";
import { inNewDeployment } from "../../provider/shared/deployment-ledger";
import {
  createdIn,
  emulatorPerFile,
  inputs,
  ROUTES,
  oneDeploymentGroupRoles as provider,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";
import { rejection } from "../support/rejection";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = async (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await createdIn(h, roles, extra)).outs;
const handHeld = async (groupId: number, name: string) => {
  const [made] = await h.create(groupId, [{ name }]);
  await h.setUsers(groupId, made!.roleId, 2);
  await h.clearRequests();
  return made!.roleId;
};
/** Inputs with the structure the SDK hands them: the resource's URN and the URNs in its `dependsOn`. */
const ordered = (news: Record<string, unknown>, urn: string, dependsOn: string[] = []) => ({
  ...news,
  __structure: { urn, dependsOn: dependsOn.map((u) => ({ urn: u })) },
});
/** The engine's Check then Diff of an existing catalogue's registration. */
const registerCatalogue = async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => {
  await provider.check(olds, news);
  return provider.diff(id, olds, news);
};

describe("diff: names an entry added with adoptExisting declares", () => {
  it("keep a role made by hand from an exclusive catalogue registered after it, which would refuse it in use", async () => {
    const exclusive = await created({ c: { name: "C" } }, { exclusive: true });
    const adopting = await created({ b: { name: "B" } });
    await handHeld(42, "X");
    await inNewDeployment(async () => {
      const add = inputs({ b: { name: "B" }, x: { name: "X" } }, { adoptExisting: true });
      expect((await registerCatalogue("42", stateOf(adopting), add)).changes).toBe(true);
      const same = inputs({ c: { name: "C" } }, { exclusive: true });
      expect((await registerCatalogue("42", stateOf(exclusive), same)).changes).toBe(false);
    });
    expect(await h.routes()).toEqual(["LIST"]);
  });

  it("an exclusive catalogue registered first cannot see them: refused, saying dependsOn", async () => {
    const exclusive = await created({ c: { name: "C" } }, { exclusive: true });
    await handHeld(42, "X");
    const err = await inNewDeployment(() =>
      rejection(registerCatalogue("42", stateOf(exclusive), inputs({ c: { name: "C" } }, { exclusive: true }))),
    );
    expect(err.message).toContain('"X" (roleId');
    expect(err.message).toContain("give this catalogue `dependsOn` on that resource");
  });

  it("the same in the new group of a groupId change", async () => {
    const exclusive = await created({ c: { name: "C" } }, { groupId: 43, exclusive: true });
    const moving = await created({ m: { name: "M" } });
    await handHeld(43, "X");
    await inNewDeployment(async () => {
      const moved = inputs({ m: { name: "M" }, x: { name: "X" } }, { groupId: 43, adoptExisting: true });
      expect((await registerCatalogue("42", stateOf(moving), moved)).replaces).toEqual(["groupId"]);
      const same = inputs({ c: { name: "C" } }, { groupId: 43, exclusive: true });
      expect((await registerCatalogue("43", stateOf(exclusive), same)).changes).toBe(false);
    });
  });
});

describe("diff: roles it keeps and roles it lets go", () => {
  it("up --refresh: an entry removed is deleted, though the refresh's Diff declared it kept", async () => {
    // Found by the simulation (docs/simulation.md, history 1071): the engine diffs every resource during
    // the refresh of `up --refresh`, with no Check before (refreshed state against recorded inputs). That
    // Diff's declaration of the entry's role outlived it, read as another resource keeping the role: the
    // update dropped the entry from state without deleting its role (an orphan).
    const made = await created({ a: { name: "A" }, b: { name: "B" } });
    const before = await h.held(42);
    await inNewDeployment(async () => {
      const recorded = inputs({ a: { name: "A" }, b: { name: "B" } });
      expect((await provider.diff("42", stateOf(made), recorded)).changes).toBe(false);
      const removed = inputs({ b: { name: "B" } });
      expect((await registerCatalogue("42", stateOf(made), removed)).changes).toBe(true);
      const after = await provider.update("42", stateOf(made), removed);
      expect(Object.keys(after.outs.roles)).toEqual(["b"]);
    });
    expect(await h.held(42)).toEqual({ B: before.B });
  });

  it("up --refresh after a rename by hand: a key renamed with its name kept is the same role", async () => {
    // Found by the simulation (docs/simulation.md, history 56827): the refresh wrote the service's name into
    // the state, so the new key's name no longer matched the removed key's and the role was deleted and made anew.
    const made = await created({ k7: { name: "Sales 8" }, other: { name: "Other" } });
    const id = made.roles.k7!.roleId;
    await h.api("PUT", "/groups/42/roles", [{ roleId: id, name: "Agents 10" }]);
    const refreshed = (await provider.read("42", stateOf(made))).props!;
    expect(refreshed.roles.k7!.name).toBe("Agents 10");
    expect(refreshed.appliedNames).toEqual({ k7: "Sales 8" });
    await h.clearRequests();
    await inNewDeployment(async () => {
      const moved = inputs({ k11: { name: "Sales 8" }, other: { name: "Other" } });
      const d = await registerCatalogue("42", stateOf(refreshed), moved);
      expect(d.changes).toBe(true);
      const after = await provider.update("42", stateOf(refreshed), moved);
      expect(after.outs.roles.k11!.roleId).toBe(id);
      expect(after.outs.appliedNames).toBeUndefined();
    });
    expect(await h.held(42)).toEqual({ "Sales 8": id, Other: made.roles.other!.roleId });
    expect((await h.requests()).counts[ROUTES.DELETE]).toBeUndefined();
  });

  it("the old half of a replacement whose create failed part-way leaves the roles the new half keeps (history 57627)", async () => {
    // Found by the simulation (docs/simulation.md): `up --replace` of an adopting catalogue failed after its
    // create took the roles over; the engine kept the old half pending deletion. The next `up` updated the
    // new half, which holds the same roles, and the old half's delete read that as its own declaration.
    const made = await created({ a: { name: "A" }, b: { name: "B" } });
    const before = await h.held(42);
    await inNewDeployment(async () => {
      const kept = inputs({ a: { name: "A" }, b: { name: "B" } }, { adoptExisting: true });
      await registerCatalogue("42", stateOf(made), kept);
      await provider.delete("42", stateOf(made));
    });
    expect(await h.held(42)).toEqual(before);
    // With no program (a destroy), a refresh's declaration of the catalogue's own roles keeps nothing.
    await inNewDeployment(async () => {
      await provider.diff("42", stateOf(made), inputs({ a: { name: "A" }, b: { name: "B" } }));
      await provider.delete("42", stateOf(made));
    });
    expect(await h.held(42)).toEqual({});
  });

  it("a refresh keeps the name last given while the service's differs, and forgets it once they agree", async () => {
    const made = await created({ a: { name: "A" } });
    const id = made.roles.a!.roleId;
    const renameTo = (name: string) => h.api("PUT", "/groups/42/roles", [{ roleId: id, name }]);
    await renameTo("B");
    const once = (await provider.read("42", stateOf(made))).props!;
    await renameTo("C");
    const twice = (await provider.read("42", stateOf(once))).props!;
    expect(twice.appliedNames).toEqual({ a: "A" });
    await renameTo("A");
    expect((await provider.read("42", stateOf(twice))).props!.appliedNames).toBeUndefined();
  });

  it("a refresh's Diffs refuse nothing: an exclusive catalogue's, then one of a catalogue that keeps a role", async () => {
    // Found by the simulation (docs/simulation.md, a plain refresh): in a refresh (no Check), the exclusive
    // catalogue's Diff came first and let go the other catalogue's role as undeclared; that one's Diff
    // then refused to keep it, and the refresh failed. The program's order is the up's to check.
    const exclusive = await created({}, { exclusive: true });
    const keeper = await created({ k: { name: "Kept" } });
    const keeperInputs = inputs({ k: { name: "Kept" } });
    await inNewDeployment(async () => {
      expect((await provider.diff("42", stateOf(exclusive), inputs({}, { exclusive: true }))).changes).toBe(true);
      expect((await provider.diff("42", stateOf(keeper), keeperInputs)).changes).toBe(true);
    });
    // In the program (a Check first), the same order is refused, naming the dependsOn.
    await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(exclusive), inputs({}, { exclusive: true }));
      const err = await rejection(registerCatalogue("42", stateOf(keeper), keeperInputs));
      expect(err.message).toContain("`dependsOn`");
    });
    expect(await h.held(42)).toEqual({ Kept: keeper.roles.k!.roleId });
  });

  it("a Role created with a name the catalogue keeps is refused as a name the program declares twice", async () => {
    const outs = await created({ k: { name: "K" } });
    await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(outs), inputs({ k: { name: "K" } }));
      await roleProvider.check({}, { groupId: 42, name: "K" });
      const err = await rejection(roleProvider.create({ groupId: 42, name: "K" }));
      expect(err.message).toContain("which this program also declares under that name and does not rename");
    });
    expect(await h.held(42)).toEqual({ K: outs.roles.k!.roleId });
  });

  it("a role a groupId change moves out of the old group is taken over there by a Role that imports it", async () => {
    const outs = await created({ a: { name: "A" } });
    const roleId = outs.roles.a!.roleId;
    const imported = { groupId: 42, name: "A", importId: `42/${roleId}` };
    const made = await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(outs), inputs({ a: { name: "A" } }, { groupId: 43 }));
      expect((await roleProvider.check({}, imported)).failures).toEqual([]);
      return roleProvider.create(imported);
    });
    expect(made.outs.roleId).toBe(roleId);
    expect(await h.held(42)).toEqual({ A: roleId });
  });

  it("a Role created by name onto it is refused in its Check (a takeover needs `import`), naming the ways", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    const roleId = outs.roles.a!.roleId;
    await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(outs), inputs({ b: { name: "B" } }));
      const { failures } = await roleProvider.check({}, { groupId: 42, name: "A" });
      expect(failures).toEqual([{ property: "name", reason: expect.stringContaining(`import: "42/${roleId}"`) }]);
      expect(failures[0]!.reason).toContain("`dependsOn` on this Role");
    });
  });

  it("a catalogue lets go a role one in its dependsOn takes over with adoptExisting: handed over, never deleted", async () => {
    const giver = await created({ m: { name: "Mover" }, k: { name: "Keep" } });
    const receiver = await created({ c: { name: "C" } }, { groupId: 42 });
    const mover = giver.roles.m!.roleId;
    const take = ordered(inputs({ c: { name: "C" }, m: { name: "Mover" } }, { adoptExisting: true }), "u:receiver");
    const keep = ordered(inputs({ k: { name: "Keep" } }), "u:giver", ["u:receiver"]);
    await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(receiver), take);
      // `dependsOn`: the receiver's step ends before the giver registers.
      const took = await provider.update("42", stateOf(receiver), take);
      expect(took.outs.roles.m!.roleId).toBe(mover);
      await registerCatalogue("42", stateOf(giver), keep);
      const gave = await provider.update("42", stateOf(giver), keep);
      expect(Object.keys(gave.outs.roles)).toEqual(["k"]);
    });
    expect((await h.held(42)).Mover).toBe(mover);
    expect(await h.routes()).not.toContain("DELETE");
  });

  it("the giver's update failing before any write: the entry taken over leaves its state all the same", async () => {
    // Found by the simulation (docs/simulation.md, an entry moved to another catalogue): the giver's list
    // failed, its plain error kept the old state, and the role was recorded by both catalogues
    // (provider/group-roles/handed-over.ts).
    const giver = await created({ m: { name: "Mover" }, k: { name: "Keep" } });
    const receiver = await created({ c: { name: "C" } });
    const mover = giver.roles.m!.roleId;
    const take = ordered(inputs({ c: { name: "C" }, m: { name: "Mover" } }, { adoptExisting: true }), "u:receiver");
    const keep = ordered(inputs({ k: { name: "Keep" } }), "u:giver", ["u:receiver"]);
    const err = await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(receiver), take);
      await registerCatalogue("42", stateOf(giver), keep);
      expect((await provider.update("42", stateOf(receiver), take)).outs.roles.m!.roleId).toBe(mover);
      await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 500, times: 0 });
      const failed = await rejection(provider.update("42", stateOf(giver), keep));
      await h.admin("DELETE", "/faults");
      return failed;
    });
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.message).toContain(
      "roles.m, taken over by another resource of this deployment, leaves this resource's state",
    );
    expect(Object.keys((err as unknown as { properties: { roles: object } }).properties.roles)).toEqual(["k"]);
    expect((await h.held(42)).Mover).toBe(mover);
  });

  it("without dependsOn between them, a move is refused whichever catalogue registers first, naming dependsOn", async () => {
    const giver = await created({ m: { name: "Mover" }, k: { name: "Keep" } });
    const receiver = await created({ c: { name: "C" } });
    const keep = ordered(inputs({ k: { name: "Keep" } }), "u:giver");
    const take = ordered(inputs({ c: { name: "C" }, m: { name: "Mover" } }, { adoptExisting: true }), "u:receiver");
    const giverFirst = await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(giver), keep);
      return rejection(registerCatalogue("42", stateOf(receiver), take));
    });
    expect(giverFirst.message).toContain('role "Mover"');
    expect(giverFirst.message).toContain("which deletes it in its own update, and nothing orders that update after");
    expect(giverFirst.message).toContain("`dependsOn` on this resource");
    const receiverFirst = await inNewDeployment(async () => {
      await registerCatalogue("42", stateOf(receiver), take);
      return rejection(registerCatalogue("42", stateOf(giver), keep));
    });
    expect(receiverFirst.message).toContain('role "Mover"');
    expect(receiverFirst.message).toContain("give this resource the resource option `dependsOn` on the GroupRoles");
    expect(await h.routes()).not.toContain("DELETE");
  });
});

describe("a failed step stops only what waits for it", () => {
  it("another catalogue's update that lets roles go goes on after an unrelated Diff failed (--continue-on-error)", async () => {
    const one = await created({ y: { name: "Y" }, k: { name: "K" } });
    const two = await created({ c: { name: "C" }, d: { name: "D" } });
    await h.setUsers(42, one.roles.y!.roleId, 1);
    await inNewDeployment(async () => {
      await rejection(registerCatalogue("42", stateOf(one), inputs({ k: { name: "K" } })));
      await registerCatalogue("42", stateOf(two), inputs({ c: { name: "C" } }));
      await provider.update("42", stateOf(two), inputs({ c: { name: "C" } }));
    });
    expect(Object.keys(await h.held(42)).sort()).toEqual(["C", "K", "Y"]);
  });
});
