import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness({ tokens: ["root", "team-a:1,2", { token: "team-b", groups: [3] }] });
});
afterAll(() => h.emu.close());

describe("auth", () => {
  it("exposes the configured tokens, first one as `token`", () => {
    expect(h.emu.token).toBe("root");
    expect(h.emu.tokens).toEqual(["root", "team-a", "team-b"]);
  });

  it("401 without a bearer token, with an unknown one, or with the default dev token when tokens are configured", async () => {
    for (const token of [null, "nope", "dev-token"]) {
      const r = await http("GET", h.rolesUrl(1), { token });
      expect(r.status, String(token)).toBe(401);
      expect(r.json).toMatchObject({ code: "unauthorized" });
      expect(r.text).not.toContain("nope");
    }
    const basic = await fetch(h.rolesUrl(1), { headers: { authorization: "Basic cm9vdDo=" } });
    expect(basic.status).toBe(401);
  });

  it("403 when the token is not granted the group, on every role endpoint", async () => {
    const [role] = await h.create(3, [{ name: "B's" }], "team-b");
    const calls: Array<[string, string, unknown]> = [
      ["GET", h.rolesUrl(3), undefined],
      ["POST", h.rolesUrl(3), [{ name: "x" }]],
      ["GET", `${h.rolesUrl(3)}/${role?.roleId}`, undefined],
      ["PUT", h.rolesUrl(3), [{ roleId: role?.roleId, name: "y" }]],
      ["POST", `${h.emu.baseUrl}/api/v0/groups/3/delete-roles`, [role?.roleId]],
    ];
    for (const [method, url, body] of calls) {
      const r = await http(method, url, { token: "team-a", body });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.json).toMatchObject({ code: "forbidden", message: "access token is not granted group 3" });
    }
    expect(await h.list(3)).toEqual([expect.objectContaining({ roleId: role?.roleId, name: "B's" })]);
  });

  it("a limited token works on its own groups; an unlimited one on all", async () => {
    expect((await http("GET", h.rolesUrl(1), { token: "team-a" })).status).toBe(200);
    expect((await http("GET", h.rolesUrl(2), { token: "team-a" })).status).toBe(200);
    expect((await http("GET", h.rolesUrl(3), { token: "team-b" })).status).toBe(200);
    expect((await http("GET", h.rolesUrl(987654), { token: "root" })).status).toBe(200);
  });

  it("guards presence and admin routes too", async () => {
    const q = "groupid=3&visitorid=v1";
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?${q}`, { token: null })).status).toBe(401);
    expect((await http("GET", `${h.emu.presenceUrl}/lookupvisitor?${q}`, { token: "team-a" })).status).toBe(403);
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?${q}`, { token: "team-b" })).status).toBe(200);
    const sig = await http("POST", `${h.emu.directServers[0]}/signalvisitor?${q}`, {
      token: "team-a",
      body: { mtype: "signal", data: {} },
    });
    expect(sig.status).toBe(403);
    expect((await http("GET", h.adminUrl("/requests"), { token: null })).status).toBe(401);
    expect((await http("POST", h.adminUrl("/reset"), { token: "bad" })).status).toBe(401);
    const users = await http("PUT", h.adminUrl("/groups/3/roles/1/users"), { token: "team-a", body: { userCount: 1 } });
    expect(users.status).toBe(403);
  });
});
