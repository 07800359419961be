/**
 * What a Role's check, diff and update tell the other resources of the same deployment (through the
 * deployment ledger), seen where it matters: a GroupRoles of the same group letting a role go or
 * deleting its roles, and a Role rename meeting a name. Both providers run in this process against one
 * emulator; each test is one deployment (a fresh ledger), and the resources it starts from were made in
 * an earlier one. Calls come in the engine's order: a registration's Check, then its Diff.
 */
import { describe, expect, it } from "vitest";
import * as groupRoles from "../../provider/group-roles";
import { UNKNOWN } from "../../provider/role/inputs";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { inputs, stateOf } from "./group-roles-harness";
import { provider, providerSuite } from "./provider-harness";
import { rejection } from "../support/rejection";

const h = providerSuite();

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
/** The catalogue's Check and Diff that drop X (in use): refused unless another resource takes X over. */
const dropX = async (state: State) => {
  await groupRoles.check(state, inputs({ y: { name: "Y" } }));
  return groupRoles.diff("42", state, inputs({ y: { name: "Y" } }));
};

describe("check: a Role to be created declares the role it makes or imports", () => {
  it("by name: a create of the name a role holds is refused in its own check (a move needs import); it declares nothing", async () => {
    const { state, x } = await catalogueXY();
    expect((await rejection(dropX(state)))?.code).toBe("ERR_ROLE_IN_USE"); // nobody takes X
    resetDeploymentLedger();
    // The catalogue registers later: the Role cannot know yet that it drops X; `up` would meet a 409.
    const { failures } = await provider.check({}, { groupId: 42, name: "X" });
    expect(failures).toEqual([
      {
        property: "name",
        reason: expect.stringContaining(`group 42 already has a role named "X" (id 42/${x}, 2 users), and no resource`),
      },
    ]);
    expect(failures[0]!.reason).toContain(`\`import: "42/${x}"\``);
    expect((await rejection(dropX(state)))?.code).toBe("ERR_ROLE_IN_USE"); // still nobody takes X
  });

  it("by import ID: handed over when the catalogue has the Role in its dependsOn; refused otherwise", async () => {
    const { state, x } = await catalogueXY();
    // Declared as the role is (an import of another name fails, in the preview too: ./role-adoption.test.ts).
    const role = { groupId: 42, name: "X", importId: `42/${x}`, __structure: { urn: "u:role" } };
    expect((await provider.check({}, role)).failures).toEqual([]);
    // Not in the catalogue's dependsOn: the engine may delete X before the import runs.
    const unordered = await rejection(dropX(state));
    expect(unordered?.code).toBe("ERR_NAME_TAKEN");
    expect(unordered?.message).toContain("give this resource the resource option `dependsOn` on the Role");
    resetDeploymentLedger();
    expect((await provider.check({}, role)).failures).toEqual([]);
    const after = inputs({ y: { name: "Y" } });
    const ordered = { ...after, __structure: { urn: "u:catalogue", dependsOn: [{ urn: "u:role" }] } };
    await groupRoles.check(state, ordered);
    expect(await groupRoles.diff("42", state, ordered)).toMatchObject({ changes: true });
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

describe("a failed check or diff of another Role does not stop a catalogue's removal (--continue-on-error)", () => {
  const dropY = async (state: State) => {
    const news = inputs({ x: { name: "X" } });
    await groupRoles.check(state, news);
    await groupRoles.diff("42", state, news);
    return groupRoles.update("42", state, news);
  };

  it.each([
    ["a check that passed", () => provider.check({}, { groupId: 42, name: "Z" })],
    ["a check that failed", () => provider.check({}, { groupId: 42, name: "" })],
  ])("%s: the catalogue deletes the role it dropped", async (_, before) => {
    const { state, y } = await catalogueXY();
    await before();
    await dropY(state);
    expect((await h.listRoles(42)).map((r) => r.roleId)).not.toContain(y);
  });

  it("a diff that failed: the same", async () => {
    const { state, x, y } = await catalogueXY();
    // Moving an in-use role to another group is refused by the diff.
    await provider.check({ groupId: 42, name: "X" }, { groupId: 43, name: "X" });
    const refused = await rejection(provider.diff(`42/${x}`, { groupId: 42, name: "X" }, { groupId: 43, name: "X" }));
    expect(refused?.code).toBe("ERR_ROLE_IN_USE");
    await dropY(state);
    expect((await h.listRoles(42)).map((r) => r.roleId)).not.toContain(y);
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

  it("a Role moving to another group does not free its name in the old one in time: a rename to it is refused in its Diff", async () => {
    const r = await provider.create({ groupId: 42, name: "R" });
    const q = await provider.create({ groupId: 42, name: "Q" });
    resetDeploymentLedger();
    await provider.check(r.outs, { groupId: 43, name: "R" });
    await provider.diff(r.id, r.outs, { groupId: 43, name: "R" });
    await provider.check(q.outs, { groupId: 42, name: "R" });
    const err = await rejection(provider.diff(q.id, q.outs, { groupId: 42, name: "R" }));
    expect(err?.code).toBe("ERR_NAME_TAKEN");
    // R is deleted from group 42 only after every update: the way out is two steps, not another name.
    expect(err?.message).toContain("Pulumi deletes it only after every other change");
    expect(err?.message).toContain("apply it in two steps");
  });
});
