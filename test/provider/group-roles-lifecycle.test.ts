/**
 * GroupRoles diff, adoption, refresh and delete against the emulator: the in-use refusal in diff (one
 * list, only when entries are removed), names held outside the resource, and the request counts of
 * refresh and destroy.
 */
import { describe, expect, it } from "vitest";
import { inNewDeployment } from "../../provider/shared/deployment-ledger";
import { UNKNOWN } from "../../provider/role/inputs";
import {
  ROUTES,
  catalogue,
  groupRoles,
  emulatorPerFile,
  oneDeploymentGroupRoles,
  inputs,
  stateOf,
  type GroupRolesHarness,
  createdIn,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) => createdIn(h, roles, extra);

describe("diff", () => {
  it("no change (settings in another key order) is no change; its one request is the credential check", async () => {
    const { outs } = await created({ a: { name: "A", settings: { viewVideo: true, remoteAssist: false } } });
    const d = await groupRoles.diff(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A", settings: { remoteAssist: false, viewVideo: true } } }),
    );
    expect(d).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    // A drift check must find a revoked credential before the next change does (issue 53).
    expect(await h.routes()).toEqual(["LIST"]);
  });

  it("changed or added entries, or unknowns, are changes; the one request is the credential check", async () => {
    const { outs } = await created({ a: { name: "A" } });
    await inNewDeployment(async () => {
      for (const roles of [
        { a: { name: "B" } },
        { a: { name: "A", description: "d" } },
        { a: { name: "A" }, b: { name: "B" } },
        { a: { name: UNKNOWN } },
        UNKNOWN,
      ]) {
        const d = await oneDeploymentGroupRoles.diff("42", stateOf(outs), inputs(roles as Record<string, unknown>));
        expect(d.changes).toBe(true);
      }
    });
    // A planned write confirms the credentials (and names) once per group and deployment, not once per diff.
    expect((await h.requests()).counts).toEqual({ [ROUTES.LIST]: 1 });
  });

  it("an added, removed or flipped settings key is a change; the same keys in another order are not", async () => {
    const { outs } = await created({ a: { name: "A", settings: { viewVideo: true } } });
    const diffWith = async (settings: Record<string, boolean> | undefined) =>
      (await groupRoles.diff("42", stateOf(outs), inputs({ a: { name: "A", ...(settings ? { settings } : {}) } })))
        .changes;
    expect(await diffWith({ viewVideo: true, remoteAssist: false })).toBe(true); // added
    expect(await diffWith({})).toBe(true); // removed
    expect(await diffWith(undefined)).toBe(true); // removed, by leaving settings out
    expect(await diffWith({ viewVideo: false })).toBe(true); // flipped
    expect(await diffWith({ viewVideo: true })).toBe(false);
  });

  it("removing roles users hold fails in one list, naming every one of them and the ways out", async () => {
    const { outs } = await created({ a: { name: "Agents" }, b: { name: "Billing" }, c: { name: "Sales" } });
    await h.setUsers(42, outs.roles.a!.roleId, 3);
    await h.setUsers(42, outs.roles.b!.roleId, 1);
    await h.clearRequests();
    const err = (await groupRoles
      .diff("42", stateOf(outs), inputs({ c: { name: "Sales" } }))
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`roles.a: "Agents" (roleId ${outs.roles.a!.roleId}) is held by 3 users`);
    expect(err.message).toContain(`roles.b: "Billing" (roleId ${outs.roles.b!.roleId}) is held by 1 user`);
    expect(err.message).toContain("keep the entry in `roles`");
    expect(err.message).toContain("unassign its users");
    expect(err.message).toContain("put the entry back with `retain: true`, run `pulumi up`, then remove it");
    expect(await h.routes()).toEqual(["LIST"]);
  });

  it("removing roles nobody holds, or retained ones, is a change; retained ones need only the credential check", async () => {
    const { outs } = await created({ a: { name: "A" }, b: { name: "B", retain: true }, c: { name: "C" } });
    await h.setUsers(42, outs.roles.b!.roleId, 5);
    await h.clearRequests();
    expect((await groupRoles.diff("42", stateOf(outs), inputs({ a: { name: "A" }, c: { name: "C" } }))).changes).toBe(
      true,
    );
    expect(await h.routes()).toEqual(["LIST"]);
    expect((await groupRoles.diff("42", stateOf(outs), inputs({ a: { name: "A" } }))).changes).toBe(true);
    expect(await h.routes()).toEqual(["LIST", "LIST"]); // each diff here is a deployment of its own
  });

  it("a groupId change replaces, and is refused while roles are in use", async () => {
    const { outs } = await created({ a: { name: "A" } });
    expect(await groupRoles.diff("42", stateOf(outs), { ...inputs({ a: { name: "A" } }), groupId: 43 })).toMatchObject({
      replaces: ["groupId"],
    });
    await h.setUsers(42, outs.roles.a!.roleId, 2);
    await expect(
      groupRoles.diff("42", stateOf(outs), { ...inputs({ a: { name: "A" } }), groupId: 43 }),
    ).rejects.toThrow(/would delete them from group 42.*in use/s);
  });
});

describe("names held outside the resource", () => {
  it("fail create naming the holder's ID, before any write", async () => {
    const hand = (await h.api("POST", "/groups/42/roles", [{ name: "Support", description: "by hand" }]))
      .json as Array<{ roleId: number }>;
    await h.clearRequests();
    const err = (await groupRoles
      .create(inputs({ support: { name: "Support" }, sales: { name: "Sales" } }))
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(
      `roles.support: "Support" is held by roleId ${hand[0]!.roleId}, which this resource does not manage`,
    );
    expect(err.message).toContain("set `adoptExisting: true`");
    expect(await h.routes()).toEqual(["LIST"]);
    expect(Object.keys(await h.held(42))).toEqual(["Support"]);
  });

  it("with adoptExisting are taken over and converged to the program, never made twice", async () => {
    const hand = (
      await h.api("POST", "/groups/42/roles", [
        { name: "Support", description: "by hand", settings: { viewVideo: false, inviteGuest: true } },
      ])
    ).json as Array<{ roleId: number }>;
    await h.clearRequests();
    const roles = {
      support: { name: "Support", description: "First line", settings: { viewVideo: true } },
      sales: { name: "Sales" },
    };
    const { outs } = await groupRoles.create(inputs(roles, { adoptExisting: true }));
    expect(await h.routes()).toEqual(["LIST", "DETAILS", "PUT", "POST"]);
    expect(outs.roles.support).toEqual({
      roleId: hand[0]!.roleId,
      name: "Support",
      description: "First line",
      settings: { viewVideo: true },
      inUse: false,
      userCount: 0,
    });
    expect((await h.api("GET", `/groups/42/roles/${hand[0]!.roleId}`)).json).toMatchObject({
      description: "First line",
      settings: { viewVideo: true, inviteGuest: true },
    });
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Sales", "Support"]);
  });
});

describe("refresh", () => {
  it("one list and one detail read per role; hand edits show; a role deleted by hand leaves the state once its details say so", async () => {
    const { outs } = await created(catalogue(30, "Role", { settings: { viewVideo: true } }));
    await h.api("PUT", "/groups/42/roles", [
      { roleId: outs.roles.r1!.roleId, name: "Edited", settings: { viewVideo: false } },
    ]);
    await h.api("POST", "/groups/42/delete-roles", [outs.roles.r2!.roleId]);
    await h.setUsers(42, outs.roles.r3!.roleId, 4);
    await h.clearRequests();
    const r = await groupRoles.read("42", stateOf(outs));
    // 29 listed roles, and the one the list leaves out, whose 404 is what says it is gone
    expect((await h.requests()).counts).toEqual({ [ROUTES.LIST]: 1, [ROUTES.DETAILS]: 30 });
    expect(r.props!.roles.r1).toMatchObject({ name: "Edited", settings: { viewVideo: false } });
    expect(r.props!.roles.r2).toBeUndefined();
    expect(r.props!.roles.r3).toMatchObject({ inUse: true, userCount: 4 });
    expect(Object.keys(r.props!.roles)).toHaveLength(29);
    // The drift is a change for the next up.
    expect(
      (await groupRoles.diff("42", r.props!, inputs(catalogue(30, "Role", { settings: { viewVideo: true } })))).changes,
    ).toBe(true);
  });
});

describe("delete", () => {
  it("one list, then delete-roles in arrays of maxBatchSize; retained entries stay", async () => {
    const roles = { ...catalogue(230), kept: { name: "Kept", retain: true } };
    const { id, outs } = await created(roles);
    await groupRoles.delete(id, stateOf(outs));
    expect(await h.routes()).toEqual(["LIST", "DELETE", "DELETE", "DELETE"]);
    expect(await h.held(42)).toEqual({ Kept: outs.roles.kept!.roleId });
  });

  it("roles users hold are all named, and nothing is deleted", async () => {
    const { id, outs } = await created(catalogue(5));
    await h.setUsers(42, outs.roles.r1!.roleId, 2);
    await h.setUsers(42, outs.roles.r4!.roleId, 1);
    const err = (await groupRoles.delete(id, stateOf(outs)).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toMatch(
      /roles\.r1: "Role 1" \(roleId \d+\) is held by 2 users\n {2}roles\.r4: "Role 4" \(roleId \d+\) is held by 1 user/,
    );
    expect(Object.keys(await h.held(42))).toHaveLength(5);
    expect((await h.requests()).counts[ROUTES.DELETE]).toBeUndefined();
  });
});
