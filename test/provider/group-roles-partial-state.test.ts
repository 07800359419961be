/**
 * What a GroupRoles apply leaves behind (provider/group-roles/apply.ts and progress.ts), read through the
 * service: the state of a failed apply is what the service holds (settled by a fresh list, even after a
 * write whose reply was lost), its message names the failed step, its entries and what was done before
 * it; roles taken over or let go are recorded even when nothing was written; a removed role another
 * resource may take over is not deleted; and the delete of roles gone or assigned since the list.
 */
import { rejection } from "../support/rejection";
import { describe, expect, it } from "vitest";
import { GroupRolesClient } from "../../client";
import { type ConflictError, RoleInUseError, ValidationError } from "../../client/status-errors";
import { apply, deleteChunk } from "../../provider/group-roles/apply";
import { Progress } from "../../provider/group-roles/progress";
import { planApply } from "../../provider/group-roles/plan";
import { NO_OTHERS, type OtherResources } from "../../provider/group-roles/plan-types";
import { toInputs, toState, type GroupRolesState } from "../../provider/group-roles/types";
import { deploymentLedger, inNewDeployment, type DeploymentLedger } from "../../provider/shared/deployment-ledger";
import {
  PROVIDER_REF,
  ROUTES,
  catalogue,
  createdIn,
  emulatorPerFile,
  failure,
  groupRoles,
  inputs,
  oneDeploymentGroupRoles,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const PUTS = { method: "PUT", path: "/api/v0/groups/42/roles" };
const POSTS = { method: "POST", path: "/api/v0/groups/42/roles" };
const DELETES = { method: "POST", path: "/api/v0/groups/42/delete-roles" };
const LISTS = { method: "GET", path: "/api/v0/groups/42/roles" };
const TAIL =
  "the state records what the service holds, and `pulumi up` again finishes the job (or, with the change reverted, undoes it).";

const clientOf = () =>
  new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token, retry: { maxAttempts: 1 } });

/** Plans and applies in a deployment of its own, as converge does, with what the other resources do stubbed. */
async function planned(
  state: GroupRolesState,
  props: Record<string, unknown>,
  others: OtherResources = NO_OTHERS,
  before: (ledger: DeploymentLedger) => void = () => undefined,
): Promise<GroupRolesState> {
  const client = clientOf();
  return inNewDeployment(async () => {
    before(deploymentLedger());
    const listed = await client.roles.list(42);
    const plan = planApply(toState(state as never), toInputs(props), listed, others);
    const ctx = {
      client,
      maxBatchSize: 100,
      providerRef: PROVIDER_REF,
      what: "updating the roles of group 42",
      listed,
    };
    const outs = await apply(ctx, plan);
    await h.clearRequests();
    return outs;
  });
}

describe("takeovers (adoptExisting): settings read once, nothing sent that the role already holds", () => {
  it("roles holding the declared settings and description get no PUT, and the state records what they hold", async () => {
    const [a, b] = await h.create(42, [
      { name: "A", settings: { viewVideo: true, remoteAssist: false } },
      { name: "B", description: "Desk", settings: { viewVideo: false } },
    ]);
    await h.clearRequests();
    const roles = {
      a: { name: "A", settings: { viewVideo: true } },
      b: { name: "B", description: "Desk", settings: { viewVideo: false } },
    };
    const { outs } = await groupRoles.create(inputs(roles, { adoptExisting: true }));
    expect(await h.routes()).toEqual(["LIST", "DETAILS", "DETAILS"]);
    const entry = { description: "", inUse: false, userCount: 0 };
    expect(outs.roles).toEqual({
      a: { ...entry, roleId: a!.roleId, name: "A", settings: { viewVideo: true } },
      b: { ...entry, roleId: b!.roleId, name: "B", description: "Desk", settings: { viewVideo: false } },
    });
  });

  it("a role holding one declared key with another value gets the settings in full, unlisted keys kept", async () => {
    const [a] = await h.create(42, [
      { name: "A", settings: { viewVideo: true, remoteAssist: false, inviteGuest: true } },
    ]);
    await h.clearRequests();
    const roles = { a: { name: "A", settings: { viewVideo: true, remoteAssist: true } } };
    await groupRoles.create(inputs(roles, { adoptExisting: true }));
    expect(await h.routes()).toEqual(["LIST", "DETAILS", "PUT"]);
    expect((await h.details(42, a!.roleId)).settings).toEqual({
      viewVideo: true,
      remoteAssist: true,
      inviteGuest: true,
    });
  });

  it("a takeover followed by a create that fails before any write is still recorded (an init error)", async () => {
    const [a] = await h.create(42, [{ name: "A" }]);
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const err = await failure(
      groupRoles.create(inputs({ a: { name: "A" }, b: { name: "B" } }, { adoptExisting: true })),
    );
    expect(err.id).toBe("42");
    expect(err.message).toContain("Before it, 0 deleted, 0 updated and 0 created;");
    expect(Object.fromEntries(Object.entries(err.properties.roles).map(([k, r]) => [k, r.roleId]))).toEqual({
      a: a!.roleId,
    });
  });
});

describe("a takeover (adoptExisting) and a step that fails", () => {
  it("its own PUT failing: not recorded, the role left as the service holds it, for the next up to take over again", async () => {
    const [a] = await h.create(42, [{ name: "A", description: "by hand" }]);
    const [b] = await h.create(42, [{ name: "B" }]);
    await h.fault({ ...PUTS, action: "status", status: 500, times: 0 });
    const roles = { a: { name: "A", description: "declared" }, b: { name: "B" } };
    const err = await failure(groupRoles.create(inputs(roles, { adoptExisting: true })));
    await h.admin("DELETE", "/faults");
    // B needed no PUT: taken over and recorded. A differed: its PUT failed, so it is not this resource's yet.
    expect(Object.fromEntries(Object.entries(err.properties.roles).map(([k, r]) => [k, r.roleId]))).toEqual({
      b: b!.roleId,
    });
    expect(await h.details(42, a!.roleId)).toMatchObject({ name: "A", description: "by hand" });
  });

  it("one whose PUT was confirmed before a later step failed is recorded", async () => {
    const [a] = await h.create(42, [{ name: "A", description: "by hand" }]);
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const roles = { a: { name: "A", description: "declared" }, c: { name: "C" } };
    const err = await failure(groupRoles.create(inputs(roles, { adoptExisting: true })));
    expect(err.properties.roles.a).toMatchObject({ roleId: a!.roleId, description: "declared" });
    expect(await h.details(42, a!.roleId)).toMatchObject({ description: "declared" });
  });
});

describe("updates: what is sent and what the state says", () => {
  it("a description-only change is sent; a renamed entry without description records ''; entries keep the program's order", async () => {
    const { outs } = await createdIn(h, { a: { name: "A", description: "old" }, b: { name: "B" } });
    const roles = { a: { name: "A", description: "new" }, n: { name: "N" }, b: { name: "B2" } };
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs(roles));
    expect(await h.routes()).toEqual(["LIST", "PUT", "POST"]);
    expect((await h.details(42, outs.roles.a!.roleId)).description).toBe("new");
    expect(Object.keys(after.roles)).toEqual(["a", "n", "b"]);
    const b = await h.details(42, outs.roles.b!.roleId);
    expect(after.roles.b).toMatchObject({ name: b.name, description: b.description });
    expect(after.roles.b!.description).toBe("");
  });

  it("the roles kept are settled in the ledger and the roles made are the deployment's", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" } });
    const a = outs.roles.a!.roleId;
    await inNewDeployment(async () => {
      const ledger = deploymentLedger();
      ledger.declarations.declare(42, a, { currentName: "A", plannedName: "A" });
      const roles = { a: { name: "A" }, b: { name: "B2" }, n: { name: "N" } };
      const { outs: after } = await oneDeploymentGroupRoles.update("42", stateOf(outs), inputs(roles));
      expect(ledger.declarations.of(42, a)).toMatchObject({ currentName: "A", settled: true });
      expect(ledger.creates.isOfThisDeployment(42, after.roles.n!.roleId)).toBe(true);
    });
  });
});

describe("a failed step: its message", () => {
  it("names the step and its entries exactly, the counts before it, and the way out", async () => {
    await h.configure({ "grouproles:maxBatchSize": "3" });
    const { outs } = await createdIn(h, catalogue(6));
    await h.fault({ ...PUTS, action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(catalogue(6, "Renamed"))));
    expect(err.message).toMatch(
      /^updating the roles of group 42: updating roles\.r3, roles\.r4, roles\.r5 failed: .*\. Before it, 0 deleted, 3 updated and 0 created; the state records/s,
    );
    expect(err.message.endsWith(TAIL)).toBe(true);
  });

  it("a failed settings read names its step, nothing changed", async () => {
    const { outs } = await createdIn(h, { a: { name: "A", settings: { viewVideo: true } } });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles/*", action: "status", status: 422 });
    const err = await failure(
      groupRoles.update("42", stateOf(outs), inputs({ a: { name: "A", settings: { viewVideo: false } } })),
    );
    expect(err.message).toMatch(
      /^updating the roles of group 42: reading the settings of the roles whose settings change \(nothing was changed\): /,
    );
  });

  it("a failed list of the use of roles just created names its step", async () => {
    await h.fault({ ...POSTS, action: "override", fields: { inUse: true } });
    await h.fault({ ...LISTS, action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.create(inputs(catalogue(2))));
    expect(err.message).toMatch(
      /^creating the roles of group 42: listing the group for the use of the roles just created failed: .*Before it, 0 deleted, 0 updated and 2 created;/s,
    );
  });

  it("a failed delete names the entries and the count of undeclared roles (exclusive)", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" } }, { exclusive: true });
    await h.create(42, [{ name: "X" }, { name: "Y" }]);
    await h.fault({ ...DELETES, action: "status", status: 422 });
    const err = await failure(
      groupRoles.update("42", stateOf(outs), inputs({ b: { name: "B" } }, { exclusive: true })),
    );
    expect(err.message).toMatch(
      /^updating the roles of group 42: deleting roles\.a and 2 roles the program does not declare \(nothing was changed\): /,
    );
  });

  it("a failed delete of entries only, or of undeclared roles only, names just those", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" } }, { exclusive: true });
    await h.fault({ ...DELETES, action: "status", status: 422 });
    const keyed = await failure(
      groupRoles.update("42", stateOf(outs), inputs({ b: { name: "B" } }, { exclusive: true })),
    );
    expect(keyed.message).toMatch(/^updating the roles of group 42: deleting roles\.a \(nothing was changed\): /);

    await h.create(42, [{ name: "X" }]);
    await h.fault({ ...DELETES, action: "status", status: 422 });
    const roles = { a: { name: "A" }, b: { name: "B" } };
    const others = await failure(groupRoles.update("42", stateOf(outs), inputs(roles, { exclusive: true })));
    expect(others.message).toMatch(
      /^updating the roles of group 42: deleting 1 role the program does not declare \(nothing was changed\): /,
    );
  });

  it("exclusive: the undeclared roles are deleted and the state says exclusive", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" } }, { exclusive: true });
    await h.create(42, [{ name: "X" }]);
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" } }, { exclusive: true }),
    );
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId });
    expect(after.exclusive).toBe(true);
  });

  it("exclusive: deleting an undeclared role keeps an entry whose key is the word undefined", async () => {
    const { outs } = await createdIn(h, { undefined: { name: "A" } }, { exclusive: true });
    await h.create(42, [{ name: "X" }]);
    const props = inputs({ undefined: { name: "A" } }, { exclusive: true });
    const { outs: after } = await groupRoles.update("42", stateOf(outs), props);
    expect(await h.held(42)).toEqual({ A: outs.roles.undefined!.roleId });
    expect(Object.keys(after.roles)).toEqual(["undefined"]);
  });
});

describe("a failed step after a rename to a temporary name", () => {
  const rotation = { a: { name: "B" }, b: { name: "C" }, c: { name: "A" } };

  it("the role that stepped aside is recorded under its temporary name, and the message says so", async () => {
    await h.configure({ "grouproles:maxBatchSize": "2" });
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    const a = outs.roles.a!.roleId;
    await h.fault({ ...PUTS, action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(rotation)));
    const temporary = `~renaming role ${a} (pulumi-grouproles)`;
    expect(err.id).toBe("42");
    expect(err.message).toContain(
      `Before it, 0 deleted, 0 updated and 0 created; roles.a holds a temporary name in the service (e.g. "${temporary}"), recorded in the state; the state records`,
    );
    expect((await h.held(42))[temporary]).toBe(a);
    expect(Object.fromEntries(Object.entries(err.properties.roles).map(([k, r]) => [k, r.name]))).toEqual({
      a: temporary,
      b: "B",
      c: "C",
    });
  });

  it("two roles aside: the message names both (hold)", async () => {
    await h.configure({ "grouproles:maxBatchSize": "2" });
    const names = { a: "A", b: "B", c: "C", d: "D", e: "E", f: "F" };
    const { outs } = await createdIn(h, Object.fromEntries(Object.entries(names).map(([k, n]) => [k, { name: n }])));
    await h.fault({ ...PUTS, action: "status", status: 422, skip: 1 });
    const roles = { ...rotation, d: { name: "E" }, e: { name: "F" }, f: { name: "D" } };
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(roles)));
    expect(err.message).toContain(
      ` roles.a, roles.d hold a temporary name in the service (e.g. "~renaming role ${outs.roles.a!.roleId} (pulumi-grouproles)"), recorded in the state;`,
    );
  });

  it("the rename to a temporary name itself failing names that step, nothing changed", async () => {
    await h.configure({ "grouproles:maxBatchSize": "2" });
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    await h.fault({ ...PUTS, action: "status", status: 422 });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(rotation)));
    expect(err.message).toMatch(
      /^updating the roles of group 42: renaming roles\.a to temporary names \(to break a swap of names\) \(nothing was changed\): /,
    );
  });
});

describe("a write whose reply was lost: the state is settled by a fresh list", () => {
  // Applied with planned()'s client, which does not retry: the garbage reply is the apply's last word.
  it("a PUT applied but answered with garbage: each role's read settles it, and the state is the service's, settings too", async () => {
    // Until the simulation found it (docs/simulation.md, an update removing settings whose every reply had
    // the wrong shape) this failed, the state taking names and descriptions from a list and keeping the
    // old settings, which the service had replaced (lost-replies.ts updateApplied).
    // viewVideo changes; inviteGuest, declared before and no longer, is unset (sent as null).
    const { outs: before } = await createdIn(h, {
      a: { name: "A", description: "old", settings: { viewVideo: true, inviteGuest: true } },
      b: { name: "B" },
    });
    await h.fault({ ...PUTS, action: "malformed-json" });
    const roles = { a: { name: "A2", description: "new", settings: { viewVideo: false } }, b: { name: "B2" } };
    const state = await planned(before, { groupId: 42, roles });
    const a = await h.details(42, before.roles.a!.roleId);
    expect([a.name, a.description, a.settings]).toEqual(["A2", "new", { viewVideo: false }]);
    expect(state.roles.a).toMatchObject({ name: a.name, description: a.description, settings: { viewVideo: false } });
    expect(state.roles.b!.name).toBe((await h.details(42, before.roles.b!.roleId)).name);
  });

  it("a PUT that never reached the service fails as before: the state keeps the old names", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" } });
    await h.fault({ ...PUTS, action: "drop-before" });
    const err = await failure(planned(outs, { groupId: 42, roles: { a: { name: "A2" } } }));
    expect((await h.details(42, outs.roles.a!.roleId)).name).toBe("A");
    expect(err.properties.roles.a!.name).toBe("A");
  });

  it("a delete applied but answered with garbage: the role's own read (404) settles it, and the apply goes on", async () => {
    // Before the simulation's history 1014 this failed with the state settled by a list; a delete whose
    // roles read as gone is now done (provider/shared/lost-replies.ts deleteApplied).
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" } });
    await h.fault({ ...DELETES, action: "malformed-json" });
    const state = await planned(outs, { groupId: 42, roles: { b: { name: "B" } } });
    expect(await h.held(42)).toEqual({ B: outs.roles.b!.roleId });
    expect(Object.keys(state.roles)).toEqual(["b"]);
  });

  it("a create unanswered and not found by the next list is recorded as made once a later list shows it", async () => {
    await h.fault({ ...POSTS, action: "drop-after" });
    await h.fault({ ...LISTS, action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.create(inputs(catalogue(2, "Role", { description: "Desk" }))));
    expect(err.id).toBe("42");
    const held = await h.held(42);
    const made = (name: string) => ({
      roleId: held[name],
      name,
      description: "Desk",
      settings: {},
      inUse: false,
      userCount: 0,
    });
    expect(err.properties.roles).toEqual({ r0: made("Role 0"), r1: made("Role 1") });
    expect(err.properties.unconfirmed).toBeUndefined();
  });

  it("in-use figures a create reply gave are replaced by the list's when a later create fails", async () => {
    await h.configure({ "grouproles:maxBatchSize": "2" });
    await h.fault({ ...POSTS, action: "override", fields: { inUse: true } });
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const err = await failure(groupRoles.create(inputs(catalogue(3))));
    expect(err.message).toContain("Before it, 0 deleted, 0 updated and 2 created");
    const listed = await h.listRoles(42);
    expect(listed.map((r) => [r.inUse, r.userCount])).toEqual([
      [false, 0],
      [false, 0],
    ]);
    expect(Object.values(err.properties.roles).map((r) => [r.inUse, r.userCount])).toEqual([
      [false, 0],
      [false, 0],
    ]);
  });
  it("a lost create found in use by a list that gives no user count is recorded as held by users, not free", () => {
    // The service's documentation makes the list's userCount optional; an in-use role without it counts as
    // one user (provider/shared/user-count.ts), so a later removal is refused, never sent as a delete of a free role.
    const progress = new Progress(42, {}, ["a"]);
    progress.unknownOutcome("a", "A");
    progress.settle([{ roleId: 7, name: "A", inUse: true }]);
    expect(progress.snapshot().roles.a).toMatchObject({ roleId: 7, inUse: true, userCount: 1 });
  });
});

describe("Progress.settle: the state after a failed step is what a fresh list shows", () => {
  const entry = (roleId: number, name: string) => ({
    roleId,
    name,
    description: "old",
    settings: { viewVideo: true },
    inUse: false,
    userCount: 0,
  });

  it("a role gone leaves the state; one renamed by hand takes the service's name, text and users; the others stay", () => {
    const progress = new Progress(42, { a: entry(1, "A"), b: entry(2, "B"), c: entry(3, "C") }, ["a", "b", "c"]);
    progress.settle([
      { roleId: 2, name: "B by hand", description: "new", inUse: true, userCount: 4 },
      { roleId: 3, name: "C", description: "old", inUse: false, userCount: 0 },
    ]);
    expect(progress.snapshot().roles).toEqual({
      b: { roleId: 2, name: "B by hand", description: "new", settings: { viewVideo: true }, inUse: true, userCount: 4 },
      c: entry(3, "C"),
    });
  });

  it("an unconfirmed create whose name a role of the state now holds (renamed by hand) is not taken for it", () => {
    const progress = new Progress(42, { a: entry(1, "A") }, ["a", "n"]);
    progress.unknownOutcome("n", "New");
    progress.settle([{ roleId: 1, name: "New", description: "old", inUse: false, userCount: 0 }]);
    const after = progress.snapshot();
    expect(Object.keys(after.roles)).toEqual(["a"]);
    expect(after.unconfirmed).toEqual({ n: "New" });
  });
});

describe("roles another resource of the deployment takes", () => {
  it("removed entries let go leave the state once the apply succeeds, and are not deleted", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    const { a, b } = { a: outs.roles.a!.roleId, b: outs.roles.b!.roleId };
    const others = { ...NO_OTHERS, takes: (id: number) => id === a || id === b };
    const after = await planned(outs, { groupId: 42, roles: { c: { name: "C" } } }, others);
    expect(Object.keys(after.roles)).toEqual(["c"]);
    expect(await h.held(42)).toEqual({ A: a, B: b, C: outs.roles.c!.roleId });
  });

  it("when a later step fails, the roles handed to another resource leave the state all the same; the rest stay", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    const { a, b } = { a: outs.roles.a!.roleId, b: outs.roles.b!.roleId };
    // Handed over when this resource let them go (decided in its Diff): the receiver takes them over in its
    // own step, or in the next `pulumi up` if that step fails. Never in two states, never deleted.
    const others = { ...NO_OTHERS, takes: (id: number) => id === a || id === b };
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const props = { groupId: 42, roles: { c: { name: "C" }, d: { name: "D" } } };
    const err = await failure(planned(outs, props, others));
    expect(err.id).toBe("42");
    expect(Object.fromEntries(Object.entries(err.properties.roles).map(([k, r]) => [k, r.roleId]))).toEqual({
      c: outs.roles.c!.roleId,
    });
    expect(Object.keys(await h.held(42)).sort()).toEqual(["A", "B", "C"]);
  });

  it("a role to delete that another resource took over since the plan is let go, not deleted, and no empty delete is sent", async () => {
    const { outs } = await createdIn(
      h,
      { a: { name: "A" }, b: { name: "B" }, undefined: { name: "U" } },
      { exclusive: true },
    );
    const [x] = await h.create(42, [{ name: "X" }]);
    await h.clearRequests();
    const props = { groupId: 42, roles: { b: { name: "B" }, undefined: { name: "U" } }, exclusive: true };
    // Claimed after the plan was made (an import reads and claims in its own step): the apply checks again.
    const after = await planned(outs, props, NO_OTHERS, (ledger) => {
      ledger.creates.claim(42, outs.roles.a!.roleId);
      ledger.creates.claim(42, x!.roleId);
    });
    expect(Object.keys(after.roles)).toEqual(["b", "undefined"]);
    expect(await h.held(42)).toEqual({
      A: outs.roles.a!.roleId,
      B: outs.roles.b!.roleId,
      U: outs.roles.undefined!.roleId,
      X: x!.roleId,
    });
  });

  it("no request but the list is sent when every role to delete is let go", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" }, b: { name: "B" } });
    const client = clientOf();
    await inNewDeployment(async () => {
      deploymentLedger().creates.claim(42, outs.roles.a!.roleId);
      const listed = await client.roles.list(42);
      const plan = planApply(outs, toInputs({ groupId: 42, roles: { b: { name: "B" } } }), listed);
      const ctx = { client, maxBatchSize: 100, providerRef: PROVIDER_REF, what: "updating", listed };
      await apply(ctx, plan);
    });
    expect(await h.routes()).toEqual(["LIST"]);
  });
});

describe("deleteChunk: roles gone or assigned since the list", () => {
  it("a role gone since the list is dropped and the others are deleted in a second request", async () => {
    const [a, b] = await h.create(42, [{ name: "A" }, { name: "B" }]);
    await h.clearRequests();
    await deleteChunk(clientOf(), 42, [a!.roleId, 999_999]);
    expect(await h.routes()).toEqual(["DELETE", "LIST", "DELETE"]);
    expect(await h.bodies(ROUTES.DELETE)).toEqual([[a!.roleId, 999_999], [a!.roleId]]);
    expect(await h.held(42)).toEqual({ B: b!.roleId });
  });

  it("every role gone: one list, nothing sent again", async () => {
    await h.create(42, [{ name: "A" }]);
    await h.clearRequests();
    await deleteChunk(clientOf(), 42, [999_999]);
    expect(await h.routes()).toEqual(["DELETE", "LIST"]);
  });

  it("a 409 that does not say 'in use' is reported as a role assigned since the list, keeping status and cause", async () => {
    const [a] = await h.create(42, [{ name: "A" }]);
    await h.fault({ ...DELETES, action: "status", status: 409 });
    const err = (await deleteChunk(clientOf(), 42, [a!.roleId]).catch((e: unknown) => e)) as RoleInUseError;
    expect(err).toBeInstanceOf(RoleInUseError);
    expect(err.message).toMatch(/^a role was assigned to users since the group was listed: /);
    expect(err.status).toBe(409);
    expect((err.cause as ConflictError).code).toBe("ERR_CONFLICT");
    expect(err.cause instanceof RoleInUseError).toBe(false);
  });

  it("other errors pass through as they are, nothing retried", async () => {
    const [a] = await h.create(42, [{ name: "A" }]);
    await h.clearRequests();
    await h.fault({ ...DELETES, action: "status", status: 422 });
    const err = await deleteChunk(clientOf(), 42, [a!.roleId]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(await h.routes()).toEqual(["DELETE"]);
    expect(await h.held(42)).toEqual({ A: a!.roleId });
  });
});

describe("races with the rest of the world while the apply runs", () => {
  /** planned()'s client, whose creates first let `before` run (a hand edit, say), then are dropped unhandled. */
  async function droppedCreates(before: (call: number) => Promise<void>) {
    const real = clientOf();
    let calls = 0;
    const roles = Object.assign(Object.create(real.roles) as typeof real.roles, {
      create: async (...args: Parameters<typeof real.roles.create>) => {
        await before(calls++);
        return real.roles.create(...args);
      },
    });
    return { roles } as unknown as GroupRolesClient; // apply and createChunk use only `roles`
  }
  const applyWith = (client: GroupRolesClient, state: GroupRolesState, props: Record<string, unknown>, max = 100) =>
    inNewDeployment(async () => {
      const listed = await client.roles.list(42);
      const plan = planApply(toState(state as never), toInputs(props), listed);
      const ctx = { client, maxBatchSize: max, providerRef: PROVIDER_REF, what: "updating", listed };
      return apply(ctx, plan);
    });

  it("a role renamed by hand to a declared name while the create is lost is not taken for the one it made", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" } });
    const [x] = await h.create(42, [{ name: "X" }]);
    await h.fault({ ...POSTS, action: "drop-before" });
    const client = await droppedCreates(async () => {
      await h.api("PUT", "/groups/42/roles", [{ roleId: x!.roleId, name: "N" }]);
    });
    const err = await failure(applyWith(client, outs, { groupId: 42, roles: { a: { name: "A" }, n: { name: "N" } } }));
    expect(err.message).toContain('the group holds no role named "N"');
    expect(Object.values(err.properties?.roles ?? {}).map((r) => r.roleId)).not.toContain(x!.roleId);
  });

  it("a role made by an earlier POST of the apply is not taken again for a later one", async () => {
    await h.fault({ ...POSTS, action: "drop-before", skip: 1 });
    const client = await droppedCreates(async (call) => {
      // before the second POST: the role the first one made gets the second one's name, by hand
      if (call === 1)
        await h.api("PUT", "/groups/42/roles", [{ roleId: (await h.listRoles(42))[0]!.roleId, name: "Role 1" }]);
    });
    const err = await failure(applyWith(client, { groupId: 42, roles: {} }, { groupId: 42, roles: catalogue(2) }, 1));
    expect(err.message).toContain('the group holds no role named "Role 1"');
    expect(Object.keys(err.properties.roles)).toEqual(["r0"]);
  });

  it("a rename onto the name of a role a catalogue in its dependsOn deletes applies once that step ended; never waits", async () => {
    const one = await createdIn(h, { a: { name: "A" }, b: { name: "B" } });
    const two = await createdIn(h, { x: { name: "X" } });
    await h.fault({ ...DELETES, action: "latency", latencyMs: 300 });
    await inNewDeployment(async () => {
      const drop = { ...inputs({ b: { name: "B" } }), __structure: { urn: "u:one" } };
      const rename = { ...inputs({ x: { name: "A" } }), __structure: { urn: "u:two", dependsOn: [{ urn: "u:one" }] } };
      // The engine's order with `dependsOn`: the one that deletes A registers and its step ends, then the taker.
      await oneDeploymentGroupRoles.check(stateOf(one.outs), drop);
      await oneDeploymentGroupRoles.diff("42", stateOf(one.outs), drop);
      await oneDeploymentGroupRoles.update("42", stateOf(one.outs), drop);
      await oneDeploymentGroupRoles.check(stateOf(two.outs), rename);
      await oneDeploymentGroupRoles.diff("42", stateOf(two.outs), rename);
      const { outs } = await oneDeploymentGroupRoles.update("42", stateOf(two.outs), rename);
      expect(outs.roles.x!.roleId).toBe(two.outs.roles.x!.roleId);
    });
    expect(await h.held(42)).toEqual({ A: two.outs.roles.x!.roleId, B: one.outs.roles.b!.roleId });
  });

  it("the same rename without dependsOn is refused in the taker's Diff, whichever registers first; nothing written", async () => {
    const one = await createdIn(h, { a: { name: "A" }, b: { name: "B" } });
    const two = await createdIn(h, { x: { name: "X" } });
    const drop = { ...inputs({ b: { name: "B" } }), __structure: { urn: "u:one" } };
    const rename = { ...inputs({ x: { name: "A" } }), __structure: { urn: "u:two" } };
    for (const first of ["deleter", "taker"]) {
      const err = await inNewDeployment(async () => {
        if (first === "deleter") {
          await oneDeploymentGroupRoles.check(stateOf(one.outs), drop);
          await oneDeploymentGroupRoles.diff("42", stateOf(one.outs), drop);
        }
        await oneDeploymentGroupRoles.check(stateOf(two.outs), rename);
        const taking = await rejection(oneDeploymentGroupRoles.diff("42", stateOf(two.outs), rename));
        return taking;
      });
      expect(err.code, first).toBe("ERR_NAME_TAKEN");
    }
    expect(await h.held(42)).toEqual({
      A: one.outs.roles.a!.roleId,
      B: one.outs.roles.b!.roleId,
      X: two.outs.roles.x!.roleId,
    });
  });
});
