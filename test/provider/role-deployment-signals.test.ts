/**
 * What a Role's check, diff and update tell the other resources of the same deployment (through the
 * deployment ledger), seen where it matters: a GroupRoles of the same group letting a role go, deleting
 * its roles, or waiting for registrations to stop, and a Role rename meeting a name. Both providers
 * run in this process against one emulator; each test is one deployment (a fresh ledger), and the
 * resources it starts from were made in an earlier one.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as groupRoles from "../../provider/group-roles";
import { LET_GO_WAIT } from "../../provider/group-roles/provider";
import { UNKNOWN } from "../../provider/role/inputs";
import { deploymentLedger, resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { NAME_WAIT } from "../../provider/shared/temporary-names";
import { inputs, stateOf } from "./group-roles-harness";
import { provider, providerSuite } from "./provider-harness";
import { rejection } from "../support/rejection";

const h = providerSuite();
const saved = { letGo: { ...LET_GO_WAIT }, names: { ...NAME_WAIT } };
beforeEach(() => {
  LET_GO_WAIT.quietMs = 20;
  NAME_WAIT.undeclaredGraceMs = 200;
});
afterEach(() => {
  Object.assign(LET_GO_WAIT, saved.letGo);
  Object.assign(NAME_WAIT, saved.names);
});

type State = Record<string, unknown>;

/** A catalogue of group 42 made in an earlier deployment: `X` (held by 2 users) and `Y`. */
async function catalogueXY(): Promise<{ state: State; x: number; y: number }> {
  // Ten roles first, so that role IDs have two digits.
  await h.api(
    "POST",
    "/groups/42/roles",
    Array.from({ length: 10 }, (_, i) => ({ name: `Filler ${i}` })),
  );
  const { outs } = await groupRoles.create(inputs({ x: { name: "X" }, y: { name: "Y" } }));
  const [x, y] = [outs.roles.x!.roleId, outs.roles.y!.roleId];
  await h.setUsers(42, x, 2);
  resetDeploymentLedger();
  return { state: stateOf(outs), x, y };
}
/** The catalogue's diff that drops X (in use): refused unless another resource takes X over. */
const dropX = (state: State) => groupRoles.diff("42", state, inputs({ y: { name: "Y" } }));

describe("check: a Role to be created declares the role it may take over", () => {
  it("by name: a catalogue dropping an in-use role of that name lets it go instead of refusing", async () => {
    const { state } = await catalogueXY();
    expect((await rejection(dropX(state)))?.code).toBe("ERR_ROLE_IN_USE"); // nobody takes X
    resetDeploymentLedger();
    expect((await provider.check({}, { groupId: 42, name: "X" })).failures).toEqual([]);
    expect(await dropX(state)).toMatchObject({ changes: true });
  });

  it("by import ID: the same, whatever name the Role gives it", async () => {
    const { state, x } = await catalogueXY();
    expect((await provider.check({}, { groupId: 42, name: "Renamed", importId: `42/${x}` })).failures).toEqual([]);
    expect(await dropX(state)).toMatchObject({ changes: true });
  });

  it("an import ID not known yet (preview) is no failure", async () => {
    expect((await provider.check({}, { groupId: 42, name: "X", importId: UNKNOWN })).failures).toEqual([]);
  });

  it("an existing Role renamed to the name takes nothing over: the drop is still refused", async () => {
    const { state } = await catalogueXY();
    const olds = { groupId: 42, name: "Old" };
    expect((await provider.check(olds, { groupId: 42, name: "X" })).failures).toEqual([]);
    expect((await rejection(dropX(state)))?.code).toBe("ERR_ROLE_IN_USE");
  });

  it("a check that fails declares nothing: the drop is still refused", async () => {
    const { state } = await catalogueXY();
    expect((await provider.check({}, { groupId: 42, name: "X", description: 5 })).failures).not.toEqual([]);
    expect((await rejection(dropX(state)))?.code).toBe("ERR_ROLE_IN_USE");
  });
});

describe("a failed check or diff of a Role stops a catalogue's removal", () => {
  const dropY = (state: State) => groupRoles.update("42", state, inputs({ x: { name: "X" } }));

  it("a check that passed does not: the catalogue deletes the role it dropped", async () => {
    const { state, y } = await catalogueXY();
    await provider.check({}, { groupId: 42, name: "Z" });
    await dropY(state);
    expect((await h.listRoles(42)).map((r) => r.roleId)).not.toContain(y);
  });

  it("a check that failed: nothing is removed, and the error names it", async () => {
    const { state, y } = await catalogueXY();
    await provider.check({}, { groupId: 42, name: "" });
    const err = await rejection(dropY(state));
    expect(err?.message).toContain(
      "not applied, because another step of this deployment failed first (check of a Role)",
    );
    expect((await h.listRoles(42)).map((r) => r.roleId)).toContain(y);
  });

  it("a diff that failed: nothing is removed, and the error names the role", async () => {
    const { state, x, y } = await catalogueXY();
    // Moving an in-use role to another group is refused by the diff.
    const refused = await rejection(provider.diff(`42/${x}`, { groupId: 42, name: "X" }, { groupId: 43, name: "X" }));
    expect(refused?.code).toBe("ERR_ROLE_IN_USE");
    const err = await rejection(dropY(state));
    expect(err?.message).toContain(`failed first (diff of role 42/${x})`);
    expect((await h.listRoles(42)).map((r) => r.roleId)).toContain(y);
  });
});

describe("check and diff are registrations: a catalogue waits for them to stop", () => {
  /** Whether the deployment is quiet (no registration for a minute) as soon as nothing else runs. */
  const quietAtOnce = async () => {
    const quiet = deploymentLedger()
      .quiet(60_000, 300)
      .then(() => "quiet");
    const now = new Promise((resolve) => setImmediate(() => resolve("registering")));
    const first = await Promise.race([quiet, now]);
    await quiet;
    return first;
  };

  it("nothing registered: quiet at once", async () => {
    expect(await quietAtOnce()).toBe("quiet");
  });

  it("after a check", async () => {
    await provider.check({}, { groupId: 42, name: "Z" });
    expect(await quietAtOnce()).toBe("registering");
  });

  it("after a diff", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Z" });
    resetDeploymentLedger();
    await provider.diff(id, outs, { groupId: 42, name: "Z" });
    expect(await quietAtOnce()).toBe("registering");
  });
});

describe("diff and update declare the role a Role holds", () => {
  it("a catalogue destroyed in a deployment that diffs a Role holding one of its roles leaves that role", async () => {
    const { state, x, y } = await catalogueXY();
    await h.setUsers(42, x, 0);
    // A Role took X over in an earlier deployment (e.g. with `import`); the catalogue still lists it.
    await provider.diff(`42/${x}`, { groupId: 42, name: "X", roleId: x }, { groupId: 42, name: "X" });
    await groupRoles.delete("42", state);
    expect((await h.listRoles(42)).map((r) => r.roleId)).toContain(x);
    expect((await h.listRoles(42)).map((r) => r.roleId)).not.toContain(y);
  });

  it("the same after the Role's update", async () => {
    const { state, x } = await catalogueXY();
    await h.setUsers(42, x, 0);
    const olds = { groupId: 42, name: "X", roleId: x };
    const news = { groupId: 42, name: "X", description: "now a Role" };
    await provider.diff(`42/${x}`, olds, news);
    await provider.update(`42/${x}`, olds, news);
    await groupRoles.delete("42", state);
    expect(await h.details(42, x)).toMatchObject({ name: "X", description: "now a Role" });
  });

  it("a Role moving to another group does not declare its role in the old one: a rename to its name is told to wait", async () => {
    const r = await provider.create({ groupId: 42, name: "R" });
    const q = await provider.create({ groupId: 42, name: "Q" });
    resetDeploymentLedger();
    await provider.diff(r.id, r.outs, { groupId: 43, name: "R" });
    await provider.diff(q.id, q.outs, { groupId: 42, name: "R" });
    const err = await rejection(provider.update(q.id, q.outs, { groupId: 42, name: "R" }));
    expect(err?.code).toBe("ERR_NAME_TAKEN");
    // R is deleted from group 42 only after every update: the way out is two steps, not another name.
    expect(err?.message).toContain("which this deployment does not declare");
    expect(err?.message).toContain("apply it in two steps");
  });
});
