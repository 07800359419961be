/**
 * GroupRoles never half-applied without saying so: a step that fails after others succeeded returns
 * the state reached (an init error with `id`, `properties` with `__provider`, `reasons`), which is
 * what the service holds, and the next update finishes the job; lost replies never make a duplicate.
 */
import { describe, expect, it } from "vitest";
import type { GroupRolesState } from "../../provider/group-roles/types";
import { waitFor } from "../support/wait";
import {
  PROVIDER_REF,
  ROUTES,
  catalogue,
  groupRoles,
  emulatorPerFile,
  failure,
  inputs,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const POSTS = { method: "POST", path: "/api/v0/groups/42/roles" };

/** The state's roles are exactly the service's: same IDs, same names. */
async function expectStateIsService(state: GroupRolesState): Promise<void> {
  const held = await h.held(42);
  expect(Object.fromEntries(Object.values(state.roles).map((r) => [r.name, r.roleId]))).toEqual(held);
}

describe("partial applies", () => {
  it("a create whose second POST fails keeps the roles the first made; the next update creates the rest", async () => {
    await h.fault({ ...POSTS, action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.create(inputs(catalogue(250))));
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.message).toMatch(
      /^creating the roles of group 42: creating roles\.r100, roles\.r101, roles\.r102 and 97 more failed: .*422/s,
    );
    expect(err.message).toContain("Before it, 0 deleted, 0 updated and 100 created");
    expect(err.id).toBe("42");
    expect(err.reasons).toEqual([err.message]);
    expect(err.properties.__provider).toBe(PROVIDER_REF);
    expect(Object.keys(err.properties.roles)).toEqual(Object.keys(catalogue(100)));
    await expectStateIsService(err.properties);

    await h.clearRequests();
    const { outs } = await groupRoles.update("42", err.properties, inputs(catalogue(250)));
    expect(await h.routes()).toEqual(["LIST", "POST", "POST"]);
    await expectStateIsService(outs);
    expect(Object.keys(outs.roles)).toHaveLength(250);
  });

  it("an update whose second PUT fails records the renames that were applied, and the next one finishes", async () => {
    const { outs } = await groupRoles.create(inputs(catalogue(150)));
    await h.fault({ method: "PUT", path: "/api/v0/groups/42/roles", action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(catalogue(150, "Renamed"))));
    expect(err.message).toContain("Before it, 0 deleted, 100 updated and 0 created");
    await expectStateIsService(err.properties);
    expect(Object.values(err.properties.roles).filter((r) => r.name.startsWith("Renamed"))).toHaveLength(100);
    const { outs: done } = await groupRoles.update("42", err.properties, inputs(catalogue(150, "Renamed")));
    await expectStateIsService(done);
    expect(Object.values(done.roles).every((r) => r.name.startsWith("Renamed"))).toBe(true);
  });

  it("a failure before anything was written keeps its own class, and no state is claimed", async () => {
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const err = await failure(groupRoles.create(inputs(catalogue(3))));
    expect(err.code).toBe("ERR_VALIDATION");
    expect(err.id).toBeUndefined();
    expect(err.message).toContain("(nothing was changed)");
  });
});

describe("short lists", () => {
  it("destroy whose list leaves out a role fails and deletes nothing; the next one deletes every role", async () => {
    // Found by the simulation (docs/simulation.md, a destroy): a list reply that lost its last item
    // made destroy forget that role without deleting it (an orphan in the service).
    const { id, outs } = await groupRoles.create(inputs(catalogue(3)));
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape" });
    const err = await failure(groupRoles.delete(id, stateOf(outs)));
    expect(err.message).toContain("is missing from the list of group 42, but the service still has it");
    expect(Object.keys(await h.held(42))).toHaveLength(3);
    await groupRoles.delete(id, stateOf(outs));
    expect(await h.held(42)).toEqual({});
  });
});

describe("short lists in an apply", () => {
  const LIST_RULE = { method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape" };

  it("an entry removed while the list leaves its role out: the list is read again and the role deleted", async () => {
    // Found by the simulation (docs/simulation.md, history 3647): the role missing from a short list was
    // planned as gone, its entry dropped from state and the role left in the service (an orphan).
    const { outs } = await groupRoles.create(inputs(catalogue(3)));
    await h.fault(LIST_RULE);
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs(catalogue(2)));
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Role 0", "Role 1"]);
    await expectStateIsService(after);
  });

  it("a declared role every list leaves out: stops before any write, then the next update converges", async () => {
    const { outs } = await groupRoles.create(inputs(catalogue(3)));
    await h.fault({ ...LIST_RULE, times: 0 });
    await h.clearRequests();
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs(catalogue(3, "Renamed"))));
    expect(err.message).toContain("(nothing was changed)");
    expect(err.message).toContain("is missing from the list of group 42, but the service still has it");
    expect(await h.routes()).not.toContain("PUT");
    expect(await h.routes()).not.toContain("POST");
    await h.admin("DELETE", "/faults");
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Role 0", "Role 1", "Role 2"]);
    const { outs: done } = await groupRoles.update("42", stateOf(outs), inputs(catalogue(3, "Renamed")));
    await expectStateIsService(done);
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Renamed 0", "Renamed 1", "Renamed 2"]);
  });
});

describe("lost replies", () => {
  it("destroy whose every delete reply is lost: the roles are gone, so it succeeds (state keeps nothing gone)", async () => {
    // Found by the simulation (docs/simulation.md, history 1014): the delete was applied, every retry's
    // reply lost, and the failed destroy left state recording roles the service no longer had.
    const { id, outs } = await groupRoles.create(inputs(catalogue(3)));
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "drop-after", times: 0 });
    await groupRoles.delete(id, stateOf(outs));
    expect(await h.held(42)).toEqual({});
  });

  it("a delete that never reached the service fails as before: the roles are still there", async () => {
    const { id, outs } = await groupRoles.create(inputs(catalogue(3)));
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "drop-before", times: 0 });
    const err = await failure(groupRoles.delete(id, stateOf(outs)));
    expect(err.message).toMatch(/^deleting the roles of group 42: deleting roles\.r0, roles\.r1, roles\.r2: /);
    expect(Object.keys(await h.held(42))).toHaveLength(3);
  });

  it("a create applied but unanswered is found by name: no duplicate, no failure", async () => {
    await h.fault({ ...POSTS, action: "drop-after" });
    const { outs } = await groupRoles.create(inputs(catalogue(5)));
    expect((await h.requests()).counts[ROUTES.POST]).toBe(1);
    await expectStateIsService(outs);
    expect(Object.keys(outs.roles)).toHaveLength(5);
  });

  it("unanswered, group unlisted: kept as unconfirmed, then adopted (even renamed), never made twice", async () => {
    await h.fault({ ...POSTS, action: "drop-after" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 503, times: 0, skip: 1 });
    const err = await failure(groupRoles.create(inputs(catalogue(3))));
    expect(err.id).toBe("42");
    expect(err.message).toContain("kept in state as unconfirmed");
    expect(err.properties.roles).toEqual({});
    expect(err.properties.unconfirmed).toEqual({ r0: "Role 0", r1: "Role 1", r2: "Role 2" });
    await h.admin("DELETE", "/faults");

    // the program renamed one entry and removed another before the next up
    const roles = { r0: { name: "Role 0" }, r1: { name: "Role one" } };
    expect((await groupRoles.diff("42", err.properties, inputs(roles))).changes).toBe(true);
    const { outs } = await groupRoles.update("42", err.properties, inputs(roles));
    await expectStateIsService(outs);
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Role 0", "Role one"]);
    expect((await h.requests()).counts[ROUTES.POST]).toBe(1);
    expect(outs.unconfirmed).toBeUndefined();
  });

  it("a create that timed out and lands later is kept unconfirmed, then adopted by the next up: never made twice", async () => {
    await h.configure({ "grouproles:timeoutMs": "300" });
    await h.fault({ ...POSTS, action: "latency", latencyMs: 1500 });
    const err = await failure(groupRoles.create(inputs(catalogue(2))));
    expect(err.message).toContain("kept in state as unconfirmed");
    expect(err.properties.unconfirmed).toEqual({ r0: "Role 0", r1: "Role 1" });
    await waitFor(async () => Object.keys(await h.held(42)).length === 2, "the late create to land", 10_000);
    const { outs } = await groupRoles.update("42", err.properties, inputs(catalogue(2)));
    await expectStateIsService(outs);
    expect((await h.requests()).counts[ROUTES.POST]).toBe(1);
  });
});
