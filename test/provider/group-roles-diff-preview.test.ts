/**
 * GroupRoles diff, what the preview checks against the group's one list (survivors of the
 * provider-group-roles mutation run): listing failures (a group gone, a 404 that proves nothing, refused
 * credentials, any other error), names the change would meet, entries unknown until apply, a groupId
 * change, `exclusive`, and a state with unconfirmed creates. Outcomes are the diff's answer or error and
 * the service's request log.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/role/inputs";
import { deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";
import {
  createdIn,
  emulatorPerFile,
  groupRoles,
  inputs,
  oneDeploymentGroupRoles,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";
import { rejection } from "../support/rejection";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = async (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await createdIn(h, roles, extra)).outs;
type Outs = Awaited<ReturnType<typeof created>>;
const diff42 = (outs: Outs, roles: unknown, extra: Record<string, unknown> = {}) =>
  groupRoles.diff("42", stateOf(outs), inputs(roles as Record<string, unknown>, extra));
const listFails = (groupId: number, rule: Record<string, unknown>) =>
  h.fault({ method: "GET", path: `/api/v0/groups/${groupId}/roles`, action: "status", times: 0, ...rule });
const UPDATE = { changes: true, replaces: [], deleteBeforeReplace: false };
const REPLACE = { changes: true, replaces: ["groupId"], deleteBeforeReplace: false };

describe("diff: when listing the group fails", () => {
  it("a group the service says is gone refuses a change (the up's write would meet that 404); an exclusive no-op stays none", async () => {
    const outs = await created({ a: { name: "A" } });
    const exclusive = await created({ b: { name: "B" } }, { groupId: 43, exclusive: true });
    await listFails(42, { status: 404, code: "group_not_found" });
    await listFails(43, { status: 404, code: "group_not_found" });
    const err = await rejection(diff42(outs, { a: { name: "A2" } }));
    expect(err.message).toContain(
      "group 42 does not exist in the service (listing it answered 404 group_not_found), so the planned change cannot apply: check groupId",
    );
    const same = inputs({ b: { name: "B" } }, { groupId: 43, exclusive: true });
    expect(await groupRoles.diff("43", stateOf(exclusive), same)).toMatchObject({ ...UPDATE, changes: false });
  });

  it("a 404 that does not say so fails, naming the change, the URL and the setting to check", async () => {
    const outs = await created({ a: { name: "A" } });
    await listFails(42, { status: 404 });
    const err = await rejection(diff42(outs, { a: { name: "A2" } }));
    expect(err.message).toContain("group 42: checking the change against the group's roles: GET ");
    expect(err.message).toContain("/api/v0/groups/42/roles answered 404");
    expect(err.message).toContain("Check grouproles:baseUrl");
  });

  it("any other error fails as it is, with the change as its context (not as a 404)", async () => {
    const outs = await created({ a: { name: "A" } });
    await listFails(42, { status: 400 });
    const err = (await rejection(diff42(outs, { a: { name: "A2" } }))) as Error & { status?: number };
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^group 42: checking the change against the group's roles: /);
    expect(err.message).not.toContain("answered 404");
  });

  it("refused credentials fail as such, with known entries or entries not known until apply", async () => {
    const outs = await created({ a: { name: "A" } });
    await listFails(42, { status: 403 });
    for (const roles of [{ a: { name: "A2" } }, UNKNOWN]) {
      const err = await rejection(diff42(outs, roles));
      expect(err.message).toContain("the credentials are not accepted for group 42");
    }
  });
});

describe("diff: names the change would meet", () => {
  it("a rename onto a name a role outside the resource holds is refused, naming the holder", async () => {
    const outs = await created({ a: { name: "A" } });
    const [hand] = await h.create(42, [{ name: "By hand" }]);
    const err = (await rejection(diff42(outs, { a: { name: "By hand" } }))) as Error & { code?: string };
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(`roles.a: "By hand" is held by roleId ${hand!.roleId}`);
  });

  it("a rename onto a name another catalogue renames away or lets go in this deployment waits for it", async () => {
    const one = await created({ x: { name: "X" } });
    const two = await created({ y: { name: "Y" } });
    const three = await created({ v: { name: "V" }, w: { name: "W" } });
    await inNewDeployment(async () => {
      await oneDeploymentGroupRoles.diff("42", stateOf(one), inputs({ x: { name: "Z" } }));
      await oneDeploymentGroupRoles.diff("42", stateOf(three), inputs({ v: { name: "V" } }));
      expect(await oneDeploymentGroupRoles.diff("42", stateOf(two), inputs({ y: { name: "X" } }))).toMatchObject(
        UPDATE,
      );
      expect(await oneDeploymentGroupRoles.diff("42", stateOf(two), inputs({ y: { name: "W" } }))).toMatchObject(
        UPDATE,
      );
    });
  });
});

describe("diff: descriptions and unconfirmed creates", () => {
  it("an unchanged description is no change, also in a state that has none recorded", async () => {
    const outs = await created({ a: { name: "A", description: "First line" }, b: { name: "B" } });
    expect((await diff42(outs, { a: { name: "A", description: "First line" }, b: { name: "B" } })).changes).toBe(false);
    const older = structuredClone(outs);
    delete (older.roles.b as { description?: string }).description;
    expect((await diff42(older, { a: { name: "A", description: "First line" }, b: { name: "B" } })).changes).toBe(
      false,
    );
    expect(await h.routes()).toEqual(["LIST", "LIST"]); // the credential check of each diff's deployment
  });

  it("a state with an unconfirmed create no longer declared is a change (its role goes at up)", async () => {
    const outs = await created({ a: { name: "A" } });
    await h.create(42, [{ name: "B" }]);
    await h.clearRequests();
    expect(await diff42({ ...outs, unconfirmed: { b: "B" } }, { a: { name: "A" } })).toMatchObject(UPDATE);
    expect(await h.routes()).toEqual(["LIST"]);
  });
});

describe("diff: entries not known until apply", () => {
  it("a roles map unknown as a whole refuses nothing (which entries go cannot be told yet)", async () => {
    const outs = await created({ a: { name: "A" } });
    await h.setUsers(42, outs.roles.a!.roleId, 3);
    expect(await diff42(outs, UNKNOWN)).toMatchObject(UPDATE);
  });

  it("removed roles deleted by hand already, or that nobody holds, pass", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    await h.api("POST", "/groups/42/delete-roles", [outs.roles.a!.roleId]);
    expect(await diff42(outs, { c: { name: "C" }, d: { name: UNKNOWN } })).toMatchObject(UPDATE);
  });
});

describe("diff: a groupId change", () => {
  it("a role of the old group deleted by hand already is not in use", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    await h.api("POST", "/groups/42/delete-roles", [outs.roles.a!.roleId]);
    expect(await diff42(outs, { a: { name: "A" }, b: { name: "B" } }, { groupId: 43 })).toMatchObject(REPLACE);
  });

  it("a groupId not known until apply replaces, with no request and no in-use refusal yet", async () => {
    const outs = await created({ a: { name: "A" } });
    await h.setUsers(42, outs.roles.a!.roleId, 2);
    await h.clearRequests();
    expect(await diff42(outs, { a: { name: "A" } }, { groupId: UNKNOWN })).toMatchObject(REPLACE);
    expect(await h.routes()).toEqual([]);
  });

  it("a failure listing the old group names what it was for", async () => {
    const outs = await created({ a: { name: "A" } });
    await listFails(42, { status: 400 });
    const err = await rejection(diff42(outs, { a: { name: "A" } }, { groupId: 43 }));
    expect(err.message).toMatch(/^moving the roles of group 42: checking whether they are in use: /);
  });

  it("a failure listing the new group names what it was for", async () => {
    const outs = await created({ a: { name: "A" } });
    await listFails(43, { status: 400 });
    const err = await rejection(diff42(outs, { a: { name: "A" } }, { groupId: 43 }));
    expect(err.message).toMatch(/^moving the roles to group 43: listing it: /);
  });

  it("a name a role of the new group holds is refused now, naming the holder", async () => {
    const outs = await created({ a: { name: "A", retain: true } });
    const [hand] = await h.create(43, [{ name: "A" }]);
    const err = (await rejection(diff42(outs, { a: { name: "A" } }, { groupId: 43 }))) as Error & { code?: string };
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(`group 43 already has a role with a name this resource declares`);
    expect(err.message).toContain(`roles.a: "A" is held by roleId ${hand!.roleId}`);
  });

  it("with entries not known yet, only refused credentials of the new group fail (other errors wait for up)", async () => {
    const outs = await created({ a: { name: "A", retain: true } });
    await listFails(43, { status: 400 });
    expect(await diff42(outs, UNKNOWN, { groupId: 43 })).toMatchObject(REPLACE);
    expect(await diff42(outs, { a: { name: UNKNOWN } }, { groupId: 43 })).toMatchObject(REPLACE);
    await h.admin("DELETE", "/faults");
    await listFails(43, { status: 403 });
    const err = await rejection(diff42(outs, UNKNOWN, { groupId: 43 }));
    expect(err.message).toContain("the credentials are not accepted for group 43");
  });
});

describe("diff: exclusive", () => {
  it("a role made by hand that users hold is refused, naming it; without exclusive it is left alone", async () => {
    const exclusive = await created({ a: { name: "A" } }, { exclusive: true });
    const [hand] = await h.create(42, [{ name: "By hand" }]);
    await h.setUsers(42, hand!.roleId, 2);
    const err = (await rejection(diff42(exclusive, { a: { name: "A" } }, { exclusive: true }))) as Error & {
      code?: string;
    };
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`"By hand" (roleId ${hand!.roleId}) is held by 2 users`);
    const plain = await created({ b: { name: "B" } });
    expect(await diff42(plain, { b: { name: "B2" } })).toMatchObject(UPDATE);
  });

  it("with an entry not known yet (it may declare the role made by hand), nothing is refused", async () => {
    const exclusive = await created({ a: { name: "A" } }, { exclusive: true });
    const [hand] = await h.create(42, [{ name: "By hand" }]);
    await h.setUsers(42, hand!.roleId, 2);
    expect(await diff42(exclusive, { a: { name: "A" }, h: { name: UNKNOWN } }, { exclusive: true })).toMatchObject(
      UPDATE,
    );
  });

  it("a rename alone is a change; an entry removed with retain alone is refused, since it would strand its role", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B", retain: true } }, { exclusive: true });
    expect(
      await diff42(outs, { a: { name: "A2" }, b: { name: "B", retain: true } }, { exclusive: true }),
    ).toMatchObject(UPDATE);
    // Undeclared, the role would be the next run's to remove (issue 53): refused here, naming it.
    const err = await rejection(diff42(outs, { a: { name: "A" } }, { exclusive: true }));
    expect(err.message).toMatch(/roles\.b: "B" \(roleId \d+, no users\)/);
    // Without `exclusive` it only leaves the state.
    expect(await diff42(outs, { a: { name: "A" } })).toMatchObject(UPDATE);
  });

  it("a second exclusive catalogue is refused, naming a first that declares no roles as such", async () => {
    const empty = await created({}, { exclusive: true });
    const other = await created({ b: { name: "B" } });
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck(); // a preview's Diffs: the program runs (a refresh's refuse nothing)
      await oneDeploymentGroupRoles.diff("42", stateOf(empty), inputs({}, { exclusive: true }));
      const err = await rejection(
        oneDeploymentGroupRoles.diff("42", stateOf(other), inputs({ b: { name: "B" } }, { exclusive: true })),
      );
      expect(err.message).toContain("another GroupRoles of this program (the one declaring no roles)");
    });
  });
});
