/**
 * GroupRoles create and update against the emulator: requests at the array endpoints' limit, names
 * that swap or move onto a removed role's name in one apply, settings read only where they change,
 * and outputs that are what the service holds (checked through the service, not the inputs).
 */
import { describe, expect, it } from "vitest";
import {
  ROUTES,
  catalogue,
  groupRoles,
  emulatorPerFile,
  inputs,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

const created = async (roles: Record<string, unknown>) => {
  const made = await groupRoles.create(inputs(roles));
  await h.clearRequests();
  return made;
};

describe("create", () => {
  it("250 roles: one list, then POSTs of at most maxBatchSize (100), nothing read back", async () => {
    const { id, outs } = await groupRoles.create(
      inputs(catalogue(250, "Role", { description: "d", settings: { viewVideo: true } })),
    );
    expect(id).toBe("42");
    expect(await h.routes()).toEqual(["LIST", "POST", "POST", "POST"]);
    expect(((await h.bodies(ROUTES.POST)) as unknown[][]).map((b) => b.length)).toEqual([100, 100, 50]);
    const held = await h.held(42);
    expect(Object.keys(held)).toHaveLength(250);
    for (const [key, role] of Object.entries(outs.roles)) {
      expect(held[role.name]).toBe(role.roleId);
      expect(role).toEqual({
        roleId: held[`Role ${key.slice(1)}`],
        name: `Role ${key.slice(1)}`,
        description: "d",
        settings: { viewVideo: true },
        inUse: false,
        userCount: 0,
      });
    }
  });

  it("grouproles:maxBatchSize sets the array size", async () => {
    await h.configure({ "grouproles:maxBatchSize": "7" });
    await groupRoles.create(inputs(catalogue(20)));
    expect(((await h.bodies(ROUTES.POST)) as unknown[][]).map((b) => b.length)).toEqual([7, 7, 6]);
  });

  it("a reply that says a role is in use (the vendor's example) is settled by one list", async () => {
    await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "override", fields: { inUse: true } });
    const { outs } = await groupRoles.create(inputs(catalogue(3)));
    expect(await h.routes()).toEqual(["LIST", "POST", "LIST"]);
    // the list is the truth: nobody holds them
    expect(Object.values(outs.roles).map((r) => [r.inUse, r.userCount])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
  });
});

describe("update", () => {
  it("rename all 250: one list and PUTs of 100, no settings map, no detail read", async () => {
    const { outs } = await created(catalogue(250, "Role", { settings: { viewVideo: true } }));
    const next = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs(catalogue(250, "Renamed", { settings: { viewVideo: true } })),
    );
    expect(await h.routes()).toEqual(["LIST", "PUT", "PUT", "PUT"]);
    const puts = (await h.bodies(ROUTES.PUT)) as Array<Array<Record<string, unknown>>>;
    expect(puts.flat().every((r) => !("settings" in r))).toBe(true);
    const held = await h.held(42);
    expect(Object.keys(held).sort()).toEqual(Array.from({ length: 250 }, (_, i) => `Renamed ${i}`).sort());
    for (const [key, role] of Object.entries(next.outs.roles)) {
      expect(role.roleId).toBe(outs.roles[key]!.roleId); // the same roles, renamed
      expect(held[role.name]).toBe(role.roleId);
    }
  });

  it("a swap, a rename onto a removed role's name, an addition and a removal apply in one update", async () => {
    const { outs } = await created({
      a: { name: "Alpha" },
      b: { name: "Beta" },
      c: { name: "Gamma" },
      d: { name: "Delta" },
    });
    const ids = Object.fromEntries(Object.entries(outs.roles).map(([k, r]) => [k, r.roleId]));
    // a and b swap; c takes the name of d, which is removed; e is new and takes c's old name
    const roles = { a: { name: "Beta" }, b: { name: "Alpha" }, c: { name: "Delta" }, e: { name: "Gamma" } };
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs(roles));
    expect(await h.routes()).toEqual(["LIST", "DELETE", "PUT", "POST"]);
    expect(await h.bodies(ROUTES.DELETE)).toEqual([[ids.d]]);
    expect(await h.held(42)).toEqual({ Beta: ids.a, Alpha: ids.b, Delta: ids.c, Gamma: after.roles.e!.roleId });
    expect(Object.fromEntries(Object.entries(after.roles).map(([k, r]) => [k, [r.roleId, r.name]]))).toEqual({
      a: [ids.a, "Beta"],
      b: [ids.b, "Alpha"],
      c: [ids.c, "Delta"],
      e: [after.roles.e!.roleId, "Gamma"],
    });
  });

  it("a rotation larger than a PUT goes through a temporary name", async () => {
    await h.configure({ "grouproles:maxBatchSize": "2" });
    const { outs } = await created({ a: { name: "A" }, b: { name: "B" }, c: { name: "C" } });
    await groupRoles.update("42", stateOf(outs), inputs({ a: { name: "B" }, b: { name: "C" }, c: { name: "A" } }));
    const puts = (await h.bodies(ROUTES.PUT)) as Array<Array<{ roleId: number; name: string }>>;
    expect(puts.map((p) => p.length).every((n) => n <= 2)).toBe(true);
    expect(puts[0]).toEqual([
      expect.objectContaining({ name: expect.stringMatching(/^~renaming role \d+ \(pulumi-grouproles\)$/) }),
    ]);
    const held = await h.held(42);
    expect([held.B, held.C, held.A]).toEqual([outs.roles.a!.roleId, outs.roles.b!.roleId, outs.roles.c!.roleId]);
  });

  it("settings: only the roles whose settings change are read, and sent in full; unlisted keys survive", async () => {
    const { outs } = await created({
      a: { name: "A", settings: { viewVideo: true, remoteAssist: true } },
      b: { name: "B", settings: { viewVideo: true } },
    });
    const a = outs.roles.a!.roleId;
    // a key set by hand, which the program does not list
    await h.api("PUT", "/groups/42/roles", [
      { roleId: a, name: "A", settings: { viewVideo: true, remoteAssist: true, inviteGuest: true } },
    ]);
    await h.clearRequests();
    const roles = { a: { name: "A", settings: { viewVideo: false } }, b: { name: "B", settings: { viewVideo: true } } };
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs(roles));
    expect(await h.routes()).toEqual(["LIST", "DETAILS", "PUT"]);
    expect(await h.bodies(ROUTES.PUT)).toEqual([
      [
        {
          roleId: a,
          name: "A",
          description: "",
          settings: { viewVideo: false, remoteAssist: null, inviteGuest: true },
        },
      ],
    ]);
    expect((await h.api("GET", `/groups/42/roles/${a}`)).json).toMatchObject({
      settings: { viewVideo: false, inviteGuest: true },
    });
    expect(after.roles.a!.settings).toEqual({ viewVideo: false });
  });

  it("changes that leave the service as it is send nothing but the list; a retain flag is state only", async () => {
    const { outs } = await created({ a: { name: "A", settings: { viewVideo: true, remoteAssist: false } } });
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A", retain: true, settings: { remoteAssist: false, viewVideo: true } } }),
    );
    expect(await h.routes()).toEqual(["LIST"]);
    expect(after.roles.a).toMatchObject({ retain: true, roleId: outs.roles.a!.roleId });
  });

  it("a role deleted by hand is created again; a role renamed by hand is renamed back", async () => {
    const { outs } = await created({ a: { name: "A" }, b: { name: "B" } });
    await h.api("POST", "/groups/42/delete-roles", [outs.roles.a!.roleId]);
    await h.api("PUT", "/groups/42/roles", [{ roleId: outs.roles.b!.roleId, name: "B by hand" }]);
    await h.clearRequests();
    const { outs: after } = await groupRoles.update(
      "42",
      stateOf(outs),
      inputs({ a: { name: "A" }, b: { name: "B" } }),
    );
    // The role the list leaves out is confirmed gone by its own details (404) before it is made again.
    expect(await h.routes()).toEqual(["LIST", "DETAILS", "PUT", "POST"]);
    expect(await h.held(42)).toEqual({ A: after.roles.a!.roleId, B: outs.roles.b!.roleId });
  });

  it("a retained entry removed from the map is forgotten, not deleted", async () => {
    const { outs } = await created({ a: { name: "A", retain: true }, b: { name: "B" } });
    const { outs: after } = await groupRoles.update("42", stateOf(outs), inputs({ b: { name: "B" } }));
    expect(await h.routes()).toEqual(["LIST"]);
    expect(Object.keys(after.roles)).toEqual(["b"]);
    expect(await h.held(42)).toEqual({ A: outs.roles.a!.roleId, B: outs.roles.b!.roleId });
  });
});
