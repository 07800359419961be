/**
 * GroupRoles diff, what it tells the rest of the deployment (survivors of the provider-group-roles
 * mutation run): names an entry added with adoptExisting wants (in its group, or in the new group of a
 * groupId change), roles it keeps and roles it lets go, and, when it is refused, that those roles stay
 * with it. Each test runs the diff then another resource's step in one deployment, as the engine does,
 * and reads the outcome from that step and the service.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as roleProvider from "../../provider";
import { LET_GO_WAIT } from "../../provider/group-roles/provider";
import { inNewDeployment } from "../../provider/shared/deployment-ledger";
import { NAME_WAIT } from "../../provider/shared/temporary-names";
import {
  createdIn,
  emulatorPerFile,
  inputs,
  oneDeploymentGroupRoles as provider,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";
import { rejection } from "../support/rejection";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));
// Waits for other resources are cut short: a wrong outcome fails fast instead of after seconds.
const saved = { letGo: LET_GO_WAIT.quietMs, quiet: NAME_WAIT.quietMs, grace: NAME_WAIT.undeclaredGraceMs };
beforeAll(() => {
  LET_GO_WAIT.quietMs = 20;
  NAME_WAIT.quietMs = 20;
  NAME_WAIT.undeclaredGraceMs = 200;
});
afterAll(() => {
  LET_GO_WAIT.quietMs = saved.letGo;
  NAME_WAIT.quietMs = saved.quiet;
  NAME_WAIT.undeclaredGraceMs = saved.grace;
});

const created = async (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await createdIn(h, roles, extra)).outs;
const handHeld = async (groupId: number, name: string) => {
  const [made] = await h.create(groupId, [{ name }]);
  await h.setUsers(groupId, made!.roleId, 2);
  await h.clearRequests();
  return made!.roleId;
};

describe("diff: names an entry added with adoptExisting wants", () => {
  it("keep a role made by hand from an exclusive catalogue of the group, which would refuse it in use", async () => {
    const exclusive = await created({ c: { name: "C" } }, { exclusive: true });
    const adopting = await created({ b: { name: "B" } });
    await handHeld(42, "X");
    await inNewDeployment(async () => {
      const add = inputs({ b: { name: "B" }, x: { name: "X" } }, { adoptExisting: true });
      expect((await provider.diff("42", stateOf(adopting), add)).changes).toBe(true);
      const same = inputs({ c: { name: "C" } }, { exclusive: true });
      expect((await provider.diff("42", stateOf(exclusive), same)).changes).toBe(false);
    });
    expect(await h.routes()).toEqual(["LIST"]);
  });

  it("the same in the new group of a groupId change", async () => {
    const exclusive = await created({ c: { name: "C" } }, { groupId: 43, exclusive: true });
    const moving = await created({ m: { name: "M" } });
    await handHeld(43, "X");
    await inNewDeployment(async () => {
      const moved = inputs({ m: { name: "M" }, x: { name: "X" } }, { groupId: 43, adoptExisting: true });
      expect((await provider.diff("42", stateOf(moving), moved)).replaces).toEqual(["groupId"]);
      const same = inputs({ c: { name: "C" } }, { groupId: 43, exclusive: true });
      expect((await provider.diff("43", stateOf(exclusive), same)).changes).toBe(false);
    });
  });
});

describe("diff: roles it keeps and roles it lets go", () => {
  it("a Role created with a name the catalogue keeps is refused as a name the program declares twice", async () => {
    const outs = await created({ k: { name: "K" } });
    await inNewDeployment(async () => {
      await provider.diff("42", stateOf(outs), inputs({ k: { name: "K" } }));
      const err = await rejection(roleProvider.create({ groupId: 42, name: "K" }));
      expect(err.message).toContain("which this program also declares under that name and does not rename");
    });
    expect(await h.held(42)).toEqual({ K: outs.roles.k!.roleId });
  });

  it("a role a groupId change moves out of the old group is taken over there by a Role of that name", async () => {
    const outs = await created({ a: { name: "A" } });
    const roleId = outs.roles.a!.roleId;
    const made = await inNewDeployment(async () => {
      await provider.diff("42", stateOf(outs), inputs({ a: { name: "A" } }, { groupId: 43 }));
      return roleProvider.create({ groupId: 42, name: "A" });
    });
    expect(made.outs.roleId).toBe(roleId);
    expect(await h.held(42)).toEqual({ A: roleId });
  });
});

describe("diff: refused, the roles it lets go stay with it", () => {
  it("another catalogue taking one over with adoptExisting fails, saying the change it waited on failed", async () => {
    const one = await created({ x: { name: "X" }, y: { name: "Y" }, k: { name: "K" } });
    const two = await created({ c: { name: "C" } });
    await h.setUsers(42, one.roles.y!.roleId, 1);
    const err = await inNewDeployment(async () => {
      const refused = await rejection(provider.diff("42", stateOf(one), inputs({ k: { name: "K" } })));
      expect(refused.message).toContain('roles.y: "Y"');
      const takeX = inputs({ c: { name: "C" }, x: { name: "X" } }, { adoptExisting: true });
      await provider.diff("42", stateOf(two), takeX);
      return rejection(provider.update("42", stateOf(two), takeX));
    });
    expect(err.message).toContain(`role ${one.roles.x!.roleId} is moving here from another resource of this program`);
    expect(err.message).toContain("whose change (or another step of this deployment) failed");
    expect((await h.details(42, one.roles.x!.roleId)).name).toBe("X");
  });

  it("another catalogue's update that lets roles go is not applied, naming the failed diff", async () => {
    const one = await created({ y: { name: "Y" }, k: { name: "K" } });
    const two = await created({ c: { name: "C" }, d: { name: "D" } });
    await h.setUsers(42, one.roles.y!.roleId, 1);
    const err = await inNewDeployment(async () => {
      await rejection(provider.diff("42", stateOf(one), inputs({ k: { name: "K" } })));
      await provider.diff("42", stateOf(two), inputs({ c: { name: "C" } }));
      return rejection(provider.update("42", stateOf(two), inputs({ c: { name: "C" } })));
    });
    expect(err.message).toContain("not applied, because another step of this deployment failed first");
    expect(err.message).toContain("(diff of the GroupRoles of group 42)");
    expect(Object.keys(await h.held(42)).sort()).toEqual(["C", "D", "K", "Y"]);
  });
});
