/**
 * What a GroupRoles apply plans (provider/group-roles/plan.ts), seen through the service: the state of
 * roles the apply leaves alone, a key renamed with its name kept, adoption next to a rename, creates of
 * an earlier run that were never confirmed, entries whose role is gone, descriptions changed alone or by
 * hand, the advice of a refused name, and what an `exclusive` catalogue removes. Outcomes are read from
 * the service (its roles, their details, its request log), not from what the test sent.
 */
import { describe, expect, it } from "vitest";
import {
  ROUTES,
  createdIn,
  emulatorPerFile,
  failure,
  groupRoles,
  inputs,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = async (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await createdIn(h, roles, extra)).outs;
/** The group's lists answer without descriptions (the field is optional in the service's documentation). */
const listsWithoutDescriptions = () =>
  h.fault({
    method: "GET",
    path: "/api/v0/groups/42/roles",
    action: "override",
    fields: { description: null },
    times: 0,
  });
/** What the service holds for a role, as the state records it (declared settings keys only). */
async function asService(roleId: number, settingsKeys: string[]) {
  const d = await h.details(42, roleId);
  const listed = (await h.listRoles(42)).find((r) => r.roleId === roleId)!;
  return {
    roleId,
    name: d.name,
    description: d.description,
    settings: Object.fromEntries(settingsKeys.map((k) => [k, d.settings[k]])),
    inUse: listed.inUse,
    userCount: listed.userCount,
  };
}

describe("plan: roles the apply leaves alone", () => {
  it("keep in the state the description and settings the service holds", async () => {
    const outs = await created({ a: { name: "A", description: "D", settings: { viewVideo: true } }, b: { name: "B" } });
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A", description: "D", settings: { viewVideo: true } }, b: { name: "B2" } }),
    );
    expect(await h.routes()).toEqual(["LIST", "PUT"]);
    expect(after.roles.a).toEqual(await asService(outs.roles.a!.roleId, ["viewVideo"]));
  });

  it("with lists that carry no description, an untouched role's state is not given one", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    await listsWithoutDescriptions();
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, b: { name: "B2" } }),
    );
    expect(after.roles.a).toEqual(await asService(outs.roles.a!.roleId, []));
  });
});

describe("plan: roles the apply leaves alone, lists without descriptions", () => {
  // listedState once recorded "" for an untouched role when the list carried no description, instead of
  // the description the state knew, and the next diff saw a change (found by the mutant review).
  it("an untouched role keeps the description the state knew, and the next diff sees no change", async () => {
    const outs = await created({ a: { name: "A", description: "D" }, b: { name: "B" } });
    await listsWithoutDescriptions();
    const roles = { a: { name: "A", description: "D" }, b: { name: "B2" } };
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs(roles));
    expect(after.roles.a!.description).toBe((await h.details(42, outs.roles.a!.roleId)).description);
    expect((await groupRoles.diff("42", stateOf(after), inputs(roles))).changes).toBe(false);
  });
});

describe("plan: a key renamed with its name kept", () => {
  it("is the same role under its new key: nothing deleted or created", async () => {
    const outs = await created({ a: { name: "A", description: "D" }, b: { name: "B" } });
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a2: { name: "A", description: "D" }, b: { name: "B" } }),
    );
    expect(await h.routes()).toEqual(["LIST"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, B: outs.roles.b!.roleId });
    expect(Object.keys(after.roles)).toEqual(["a2", "b"]);
    expect(after.roles.a2!.roleId).toBe(outs.roles.a!.roleId);
  });
});

describe("plan: adoption", () => {
  it("an added entry never takes over a role this catalogue renames away: it gets a role of its own", async () => {
    const outs = await created({ a: { name: "A" } });
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A2" }, c: { name: "A" } }, { adoptExisting: true }),
    );
    const held = await h.held(42);
    expect(held.A2).toBe(outs.roles.a!.roleId);
    expect(held.A).toBeDefined();
    expect(held.A).not.toBe(outs.roles.a!.roleId);
    expect(after.roles.c!.roleId).toBe(held.A);
  });

  it("a role taken over without declared settings is not read; one whose description differs is converged", async () => {
    const [plain, described] = await h.create(42, [{ name: "Plain" }, { name: "Described", description: "by hand" }]);
    await h.clearRequests();
    await groupRoles.create(inputs({ p: { name: "Plain" }, d: { name: "Described" } }, { adoptExisting: true }));
    expect(await h.routes()).toEqual(["LIST", "PUT"]);
    expect((await h.bodies(ROUTES.PUT)).flat()).toEqual([
      { roleId: described!.roleId, name: "Described", description: "" },
    ]);
    expect((await h.details(42, described!.roleId)).description).toBe("");
    expect((await h.details(42, plain!.roleId)).name).toBe("Plain");
  });

  it("with lists that carry no description, a role taken over as declared is not written", async () => {
    const [plain] = await h.create(42, [{ name: "Plain" }]);
    await listsWithoutDescriptions();
    await h.clearRequests();
    const { outs } = await groupRoles.create(inputs({ p: { name: "Plain" } }, { adoptExisting: true }));
    expect(await h.routes()).toEqual(["LIST"]);
    expect(outs.roles.p).toEqual(await asService(plain!.roleId, []));
  });

  it("a failure before any write still records the role taken over (an init error with the state)", async () => {
    const [support] = await h.create(42, [{ name: "Support" }]);
    await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "status", status: 422 });
    const err = await failure(
      groupRoles.create(inputs({ s: { name: "Support" }, n: { name: "New" } }, { adoptExisting: true })),
    );
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.properties!.roles.s!.roleId).toBe(support!.roleId);
    expect(await h.held(42)).toEqual({ Support: support!.roleId });
  });
});

describe("plan: creates of an earlier run never confirmed", () => {
  it("a removed one whose role an added entry takes over is neither deleted nor made twice", async () => {
    const [x] = await h.create(42, [{ name: "X" }]);
    await h.clearRequests();
    const state = { groupId: 42, roles: {}, unconfirmed: { z: "X" } };
    const { outs } = await groupRoles.update(
      "42",
      stateOf(state),
      inputs({ b: { name: "X" } }, { adoptExisting: true }),
    );
    expect(await h.routes()).toEqual(["LIST"]);
    expect(await h.held(42)).toEqual({ X: x!.roleId });
    expect(outs.roles.b!.roleId).toBe(x!.roleId);
    expect(outs.unconfirmed).toBeUndefined();
  });

  it("one that an entry renamed since took over is not claimed by an added entry of its name too", async () => {
    const [x] = await h.create(42, [{ name: "X" }]);
    await h.clearRequests();
    const state = { groupId: 42, roles: {}, unconfirmed: { a: "X" } };
    const { outs } = await groupRoles.update(
      "42",
      stateOf(state),
      inputs({ a: { name: "Y" }, b: { name: "X" } }, { adoptExisting: true }),
    );
    const held = await h.held(42);
    expect(held.Y).toBe(x!.roleId);
    expect(held.X).toBeDefined();
    expect(outs.roles.a!.roleId).toBe(held.Y);
    expect(outs.roles.b!.roleId).toBe(held.X);
  });

  it("a removed one that never made a role is simply forgotten", async () => {
    const state = { groupId: 42, roles: {}, unconfirmed: { z: "Ghost" } };
    const { outs } = await groupRoles.update("42", stateOf(state), inputs({ a: { name: "A" } }));
    expect(await h.routes()).toEqual(["LIST", "POST"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId });
    expect(outs.unconfirmed).toBeUndefined();
  });
});

describe("plan: removed entries", () => {
  it("one whose role was deleted by hand is dropped, nothing else is deleted", async () => {
    const outs = await created({ a: { name: "A" }, b: { name: "B" } });
    await h.api("POST", "/groups/42/delete-roles", [outs.roles.b!.roleId]);
    await h.clearRequests();
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs({ a: { name: "A" } }));
    // Left out of the list, confirmed gone by its own details (404): no delete is sent.
    expect(await h.routes()).toEqual(["LIST", "DETAILS"]);
    expect(Object.keys(after.roles)).toEqual(["a"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId });
  });

  it("a delete that fails half-way leaves the rest in the state with the settings the service holds", async () => {
    await h.configure({ "grouproles:maxBatchSize": "1" });
    const outs = await created({
      a: { name: "A" },
      b: { name: "B", settings: { viewVideo: true } },
      c: { name: "C", settings: { viewVideo: true } },
    });
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "status", status: 422, skip: 1 });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs({ a: { name: "A" } })));
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    const left = Object.values(err.properties!.roles).filter((r) => r.name !== "A");
    expect(left).toHaveLength(1);
    expect(left[0]).toEqual(await asService(left[0]!.roleId, ["viewVideo"]));
  });
});

describe("plan: descriptions", () => {
  it("a description changed alone is sent", async () => {
    const outs = await created({ a: { name: "A" } });
    await groupRoles.update("42", stateOf(outs), inputs({ a: { name: "A", description: "New" } }));
    expect(await h.routes()).toEqual(["LIST", "PUT"]);
    expect((await h.details(42, outs.roles.a!.roleId)).description).toBe("New");
  });

  it("a description changed by hand is converged back by the next apply", async () => {
    const outs = await created({ a: { name: "A", description: "D" }, b: { name: "B" } });
    await h.api("PUT", "/groups/42/roles", [{ roleId: outs.roles.a!.roleId, name: "A", description: "Hand" }]);
    await groupRoles.update("42", stateOf(outs), inputs({ a: { name: "A", description: "D" }, b: { name: "B2" } }));
    expect((await h.details(42, outs.roles.a!.roleId)).description).toBe("D");
  });
});

describe("plan: names held by roles the catalogue cannot take", () => {
  it("a rename onto a hand-made role's name is refused without advising adoptExisting", async () => {
    const outs = await created({ a: { name: "A" } });
    const [hand] = await h.create(42, [{ name: "Taken" }]);
    await h.clearRequests();
    const err = await failure(
      groupRoles.update("42", stateOf(outs), inputs({ a: { name: "Taken" } }, { adoptExisting: true })),
    );
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(
      `roles.a: "Taken" is held by roleId ${hand!.roleId}, which this resource does not manage (a rename cannot take a role over)`,
    );
    expect(err.message).not.toContain("adoptExisting");
    expect(await h.routes()).toEqual(["LIST"]);
  });

  it("a name held by an entry removed with retain: true is refused, naming it as such", async () => {
    const outs = await created({ a: { name: "A", retain: true }, b: { name: "B" } });
    const err = await failure(groupRoles.update("42", stateOf(outs), inputs({ b: { name: "A" } })));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(
      `roles.b: "A" is held by roleId ${outs.roles.a!.roleId}, the role of an entry removed from this resource with \`retain: true\``,
    );
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, B: outs.roles.b!.roleId });
  });
});

describe("plan: exclusive", () => {
  it("an exclusive catalogue removes the hand-made roles of its group and keeps its own", async () => {
    const outs = await created({ a: { name: "A" } }, { exclusive: true });
    await h.create(42, [{ name: "By hand" }]);
    await h.clearRequests();
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, b: { name: "B" } }, { exclusive: true }),
    );
    expect(await h.routes()).toEqual(["LIST", "DELETE", "POST"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, B: after.roles.b!.roleId });
  });

  it("one with adoptExisting keeps the role it takes over, even one users hold", async () => {
    const outs = await created({ a: { name: "A" } }, { exclusive: true });
    const [hand] = await h.create(42, [{ name: "By hand" }]);
    await h.setUsers(42, hand!.roleId, 2);
    await h.clearRequests();
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, h: { name: "By hand" } }, { exclusive: true, adoptExisting: true }),
    );
    expect(await h.routes()).toEqual(["LIST"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, "By hand": hand!.roleId });
    expect(after.roles.h).toEqual(await asService(hand!.roleId, []));
  });

  it("a catalogue without it leaves the hand-made roles of its group alone", async () => {
    const outs = await created({ a: { name: "A" } });
    const [hand] = await h.create(42, [{ name: "By hand" }]);
    await h.clearRequests();
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, b: { name: "B" } }),
    );
    expect(await h.routes()).toEqual(["LIST", "POST"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, "By hand": hand!.roleId, B: after.roles.b!.roleId });
  });
});
