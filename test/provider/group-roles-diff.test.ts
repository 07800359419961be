/**
 * GroupRoles diff, the finer rules (what group-roles-lifecycle.test.ts leaves out): which entry changes
 * count, the `exclusive` flag, entries not known until apply, a groupId change with unknown entries, and
 * what the diff tells the deployment (a role this catalogue keeps is not another resource's to delete).
 * Outcomes are read from the service: its request log and its roles.
 */
import { describe, expect, it } from "vitest";
import * as roleProvider from "../../provider";
import { UNKNOWN } from "../../provider/role/inputs";
import { deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";
import {
  emulatorPerFile,
  groupRoles,
  inputs,
  oneDeploymentGroupRoles,
  stateOf,
  type GroupRolesHarness,
  createdIn,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = async (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await createdIn(h, roles, extra)).outs;
const changes = async (outs: Awaited<ReturnType<typeof created>>, news: Record<string, unknown>) =>
  (await groupRoles.diff("42", stateOf(outs), news)).changes;

describe("diff: which entry changes count", () => {
  it("a retain flag turned on or off is a change; a description left out equals an empty one; one credential check", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B", description: "" } });
    expect(await changes(outs, inputs({ a: { name: "A" }, b: { name: "B", retain: false } }))).toBe(false);
    expect(await changes(outs, inputs({ a: { name: "A", description: "" }, b: { name: "B" } }))).toBe(false);
    expect(await h.routes()).toEqual(["LIST", "LIST"]); // each diff here is a deployment of its own
    expect(await changes(outs, inputs({ a: { name: "A", retain: true }, b: { name: "B" } }))).toBe(true);
    const retained = await created({ c: { name: "C", retain: true } }, { groupId: 43 });
    expect(
      (await groupRoles.diff("43", stateOf(retained), inputs({ c: { name: "C" } }, { groupId: 43 }))).changes,
    ).toBe(true);
  });

  it("a key renamed with its name kept is a change (the state moves it), checked with one list", async () => {
    const outs = await created({ a: { name: "A" } });
    expect(await changes(outs, inputs({ a2: { name: "A" } }))).toBe(true);
    expect(await h.routes()).toEqual(["LIST"]);
  });
});

describe("diff: exclusive", () => {
  it("turning it off is a change that lists the group only to check the credential; turning it on lists it once", async () => {
    const on = await created({ a: { name: "A" } }, { exclusive: true });
    expect(await changes(on, inputs({ a: { name: "A" } }, { exclusive: false }))).toBe(true);
    expect(await h.routes()).toEqual(["LIST"]);

    const off = await created({ b: { name: "B" } }, { groupId: 43 });
    // Not known until apply: a change (it may turn on), with only the credential check.
    const unknown = inputs({ b: { name: "B" } }, { groupId: 43, exclusive: UNKNOWN });
    expect((await groupRoles.diff("43", stateOf(off), unknown)).changes).toBe(true);
    expect(await h.routes()).toEqual(["LIST"]);
    const d = await groupRoles.diff("43", stateOf(off), inputs({ b: { name: "B" } }, { groupId: 43, exclusive: true }));
    expect(d).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(await h.routes()).toEqual(["LIST", "LIST"]); // each diff here is a deployment of its own
  });

  it("an exclusive catalogue with nothing to do is no change after its one list; a hand-made role is one", async () => {
    const outs = await created({ a: { name: "A" } }, { exclusive: true });
    expect(await changes(outs, inputs({ a: { name: "A" } }, { exclusive: true }))).toBe(false);
    expect(await h.routes()).toEqual(["LIST"]);
    await h.create(42, [{ name: "By hand" }]);
    expect(await changes(outs, inputs({ a: { name: "A" } }, { exclusive: true }))).toBe(true);
  });
});

describe("diff: two exclusive catalogues of one group in one deployment", () => {
  it("the second is refused, naming the first by what it declares (a plugin or Output values never reach the SDK's check)", async () => {
    const one = await created({ a: { name: "Agents" } });
    const two = await created({ b: { name: "Billing" } });
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck(); // a preview's Diffs: the program runs (a refresh's refuse nothing)
      await oneDeploymentGroupRoles.diff("42", stateOf(one), inputs({ a: { name: "Agents" } }, { exclusive: true }));
      const err = (await oneDeploymentGroupRoles
        .diff("42", stateOf(two), inputs({ b: { name: "Billing" } }, { exclusive: true }))
        .catch((e: unknown) => e)) as Error;
      expect(err.message).toContain(
        'another GroupRoles of this program (the one declaring "Agents") also has `exclusive: true`',
      );
      // The same catalogue diffed twice (a retried step) is not two.
      await oneDeploymentGroupRoles.diff("42", stateOf(one), inputs({ a: { name: "Agents" } }, { exclusive: true }));
    });
    expect(await h.routes()).not.toContain("DELETE");
  });
});

describe("diff: entries not known until apply", () => {
  it("removing a role users hold fails now, naming it; a retained or re-keyed one does not", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B", retain: true }, c: { name: "C" } });
    for (const key of ["a", "b", "c"] as const) await h.setUsers(42, outs.roles[key]!.roleId, 2);
    await h.clearRequests();
    const err = (await groupRoles
      .diff("42", stateOf(outs), inputs({ c2: { name: "C" }, d: { name: UNKNOWN } }))
      .catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`roles.a: "A" (roleId ${outs.roles.a!.roleId}) is held by 2 users`);
    expect(err.message).not.toContain('roles.b: "B"');
    expect(err.message).not.toContain('"C"');
    expect(await h.routes()).toEqual(["LIST"]);
    // Keeping a, with c re-keyed and b (retained) removed: nothing users hold is removed.
    const d = await groupRoles.diff(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, c2: { name: "C" }, d: { name: UNKNOWN } }),
    );
    expect(d.changes).toBe(true);
  });

  it("a groupId change with entries unknown replaces after checking the credentials of the new group", async () => {
    const outs = await created({ a: { name: "A", retain: true } });
    const d = await groupRoles.diff("42", stateOf(outs), inputs(UNKNOWN as never, { groupId: 43 }));
    expect(d).toEqual({ changes: true, replaces: ["groupId"], deleteBeforeReplace: false, diffs: ["groupId"] });
    expect((await h.requests()).entries.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /api/v0/groups/43/roles"]);
  });
});

describe("diff: what the deployment learns from it", () => {
  it("roles the catalogue keeps (a key renamed, a name changed) are not deleted by Role resources letting them go", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    const [a, b] = [outs.roles.a!.roleId, outs.roles.b!.roleId];
    await inNewDeployment(async () => {
      await oneDeploymentGroupRoles.diff("42", stateOf(outs), inputs({ a2: { name: "A" }, b: { name: "B2" } }));
      await roleProvider.delete(`42/${a}`, { groupId: 42, name: "A", roleId: a });
      await roleProvider.delete(`42/${b}`, { groupId: 42, name: "B", roleId: b });
    });
    expect(await h.held(42)).toEqual({ A: a, B: b });
    expect(await h.routes()).not.toContain("DELETE");
  });

  it("a role the catalogue lets go is deleted by a Role resource letting it go too", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    const roleId = outs.roles.a!.roleId;
    await inNewDeployment(async () => {
      await oneDeploymentGroupRoles.diff("42", stateOf(outs), inputs({ b: { name: "B" } }));
      await roleProvider.delete(`42/${roleId}`, { groupId: 42, name: "A", roleId });
    });
    expect(await h.held(42)).toEqual({ B: outs.roles.b!.roleId });
    expect(await h.routes()).toContain("DELETE");
  });
});
