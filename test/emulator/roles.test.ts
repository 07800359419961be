import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WireCreatedRoles, WireRoleDetails, WireRoleList } from "../../client/wire";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.emu.close());

describe("roles API: the five endpoints", () => {
  it("lists an unused group as an empty array", async () => {
    const r = await http("GET", h.rolesUrl(100));
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("creates roles with generated integer ids and returns {roleId, name, inUse}", async () => {
    const r = await http("POST", h.rolesUrl(101), {
      body: [{ name: "Support", description: "first line", settings: { viewVideo: true } }, { name: "Admins" }],
    });
    expect(r.status).toBe(200);
    const created = WireCreatedRoles.parse(r.json);
    expect(created.map((c) => c.name)).toEqual(["Support", "Admins"]);
    expect(created.every((c) => Number.isInteger(c.roleId) && c.inUse === false)).toBe(true);
    expect(created[0]?.roleId).not.toBe(created[1]?.roleId);
    expect(Object.keys((r.json as object[])[0] ?? {})).toEqual(["roleId", "name", "inUse"]);
  });

  it("lists every role with description and userCount", async () => {
    const [a] = await h.create(102, [{ name: "Viewer", description: "can watch" }]);
    const list = WireRoleList.parse(await h.list(102));
    expect(list).toEqual([{ roleId: a?.roleId, name: "Viewer", inUse: false, description: "can watch", userCount: 0 }]);
  });

  it("reads one role's details with its settings; null settings are unset", async () => {
    const [a] = await h.create(103, [
      { name: "Agent", settings: { viewVideo: true, remoteAssist: false, inviteGuest: null } },
    ]);
    const r = await http("GET", `${h.rolesUrl(103)}/${a?.roleId}`);
    expect(r.status).toBe(200);
    expect(WireRoleDetails.parse(r.json)).toEqual({
      roleId: a?.roleId,
      name: "Agent",
      settings: { viewVideo: true, remoteAssist: false },
      description: "",
    });
  });

  it("updates names; description and settings are replaced when given and kept when omitted", async () => {
    const [a, b] = await h.create(104, [
      { name: "One", description: "d1", settings: { viewVideo: true } },
      { name: "Two", description: "d2", settings: { viewVideo: false } },
    ]);
    const r = await http("PUT", h.rolesUrl(104), {
      body: [
        { roleId: a?.roleId, name: "One renamed" },
        { roleId: b?.roleId, name: "Two", description: "", settings: { remoteAssist: true } },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok" });
    const one = await http("GET", `${h.rolesUrl(104)}/${a?.roleId}`);
    expect(one.json).toEqual({
      roleId: a?.roleId,
      name: "One renamed",
      settings: { viewVideo: true },
      description: "d1",
    });
    const two = await http("GET", `${h.rolesUrl(104)}/${b?.roleId}`);
    expect(two.json).toEqual({ roleId: b?.roleId, name: "Two", settings: { remoteAssist: true }, description: "" });
  });

  it("lets two roles swap names in one update (uniqueness is checked on the result)", async () => {
    const [a, b] = await h.create(105, [{ name: "X" }, { name: "Y" }]);
    const r = await http("PUT", h.rolesUrl(105), {
      body: [
        { roleId: a?.roleId, name: "Y" },
        { roleId: b?.roleId, name: "X" },
      ],
    });
    expect(r.status).toBe(200);
    expect((await h.list(105)).map((x) => x.name)).toEqual(["Y", "X"]);
  });

  it("deletes a batch of unused roles", async () => {
    const [a, b, c] = await h.create(106, [{ name: "a" }, { name: "b" }, { name: "c" }]);
    const r = await http("POST", `${h.emu.baseUrl}/api/v0/groups/106/delete-roles`, { body: [a?.roleId, c?.roleId] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: "ok" });
    expect((await h.list(106)).map((x) => x.roleId)).toEqual([b?.roleId]);
    const gone = await http("GET", `${h.rolesUrl(106)}/${a?.roleId}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ code: "not_found" });
  });

  it("keeps groups apart and never reuses role ids", async () => {
    const [a] = await h.create(107, [{ name: "Same" }]);
    const [b] = await h.create(108, [{ name: "Same" }]);
    expect(b?.roleId).toBeGreaterThan(a?.roleId ?? Infinity);
    expect((await http("GET", `${h.rolesUrl(108)}/${a?.roleId}`)).status).toBe(404);
    await http("POST", `${h.emu.baseUrl}/api/v0/groups/107/delete-roles`, { body: [a?.roleId] });
    const [c] = await h.create(107, [{ name: "Same" }]);
    expect(c?.roleId).toBeGreaterThan(b?.roleId ?? Infinity);
  });

  it("reports inUse and userCount from user assignments", async () => {
    const [a] = await h.create(109, [{ name: "Assigned" }]);
    const set = await http("PUT", h.adminUrl(`/groups/109/roles/${a?.roleId}/users`), { body: { userCount: 4 } });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ roleId: a?.roleId, userCount: 4, inUse: true });
    expect(await h.list(109)).toEqual([
      { roleId: a?.roleId, name: "Assigned", inUse: true, description: "", userCount: 4 },
    ]);
    await http("PUT", h.adminUrl(`/groups/109/roles/${a?.roleId}/users`), { body: { userCount: 0 } });
    expect((await h.list(109))[0]).toMatchObject({ inUse: false, userCount: 0 });
  });
});
