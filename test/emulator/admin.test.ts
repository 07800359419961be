import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLogView } from "../../emulator";
import { connectVisitor, credentialFingerprint } from "../../emulator";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.emu.close());

const readLog = async (): Promise<RequestLogView> =>
  (await http("GET", h.adminUrl("/requests"))).json as RequestLogView;

describe("admin surface", () => {
  it("user counts: 404 for an unknown role, 400 for a bad body", async () => {
    expect((await http("PUT", h.adminUrl("/groups/30/roles/999999/users"), { body: { userCount: 1 } })).status).toBe(
      404,
    );
    const [r] = await h.create(30, [{ name: "r" }]);
    for (const body of [{ userCount: -1 }, { userCount: 1.5 }, { count: 1 }, "x"]) {
      expect(
        (await http("PUT", h.adminUrl(`/groups/30/roles/${r?.roleId}/users`), { body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it("request log: counts by method and route template, bodies, credentials as fingerprints, admin routes not logged", async () => {
    await http("DELETE", h.adminUrl("/requests"));
    await h.create(31, [{ name: "secret-free" }]);
    await h.list(31);
    await h.list(32);
    await http("GET", `${h.rolesUrl(31)}/1`);
    await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=31&visitorid=v`);
    await http("POST", `${h.emu.directServers[0]}/signalvisitor?groupid=31&visitorid=v`, {
      body: { mtype: "signal", data: {} },
    });
    await http("GET", `${h.emu.baseUrl}/nowhere`);
    await http("GET", h.adminUrl("/faults"));
    const log = await readLog();
    expect(log.total).toBe(7);
    expect(log.counts).toEqual({
      "POST /api/v0/groups/:groupId/roles": 1,
      "GET /api/v0/groups/:groupId/roles": 2,
      "GET /api/v0/groups/:groupId/roles/:roleId": 1,
      "GET /findvisitor": 1,
      "POST /signalvisitor": 1,
      "GET *": 1,
    });
    expect(log.entries[0]).toEqual({
      server: "api",
      method: "POST",
      path: "/api/v0/groups/31/roles",
      query: "",
      route: "/api/v0/groups/:groupId/roles",
      status: 200,
      headers: expect.objectContaining({
        authorization: `Bearer ${credentialFingerprint("dev-token")}`,
        "content-type": "application/json",
      }),
      body: '[{"name":"secret-free"}]',
    });
    expect(log.entries[4]).toMatchObject({ server: "presence", query: "?groupid=31&visitorid=v" });
    expect(log.entries[5]).toMatchObject({ server: "direct", status: 404 });
    expect(log.entries.every((e) => !e.path.startsWith("/_emulator"))).toBe(true);
  });

  it("reset clears roles, assignments, faults and the log, but not connected visitors", async () => {
    const [r] = await h.create(33, [{ name: "gone soon" }]);
    await http("PUT", h.adminUrl(`/groups/33/roles/${r?.roleId}/users`), { body: { userCount: 1 } });
    await http("POST", h.adminUrl("/faults"), {
      body: { path: "/api/v0/groups/34/roles", action: "status", status: 500, times: 0 },
    });
    const visitor = await connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: 33, visitorId: "stays" });
    try {
      const reset = await http("POST", h.adminUrl("/reset"));
      expect(reset.status).toBe(200);
      expect(reset.json).toEqual({ status: "ok" });
      expect((await readLog()).total).toBe(0);
      expect((await http("GET", h.adminUrl("/faults"))).json).toEqual([]);
      expect(await h.list(33)).toEqual([]);
      expect((await http("GET", h.rolesUrl(34))).status).toBe(200);
      const [again] = await h.create(33, [{ name: "gone soon" }]);
      expect(again?.roleId).toBeGreaterThan(r?.roleId ?? Infinity); // ids are never reused
      expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=33&visitorid=stays`)).json).toMatchObject({
        visitorfound: true,
      });
    } finally {
      await visitor.close();
    }
  });

  it("GET /state saves the store and PUT /state restores it: roles, ids, user counts; faults and log cleared", async () => {
    const made = await h.create(35, [{ name: "Kept" }, { name: "Also kept" }]);
    await http("PUT", h.adminUrl(`/groups/35/roles/${made[0]!.roleId}/users`), { body: { userCount: 2 } });
    const saved = (await http("GET", h.adminUrl("/state"))).json as { nextRoleId: number };
    await h.create(35, [{ name: "Later" }]);
    await http("POST", h.adminUrl("/faults"), {
      body: { path: "/api/v0/groups/35/roles", action: "status", status: 500, times: 0 },
    });
    expect((await http("PUT", h.adminUrl("/state"), { body: saved })).status).toBe(200);
    const listed = (await h.list(35)) as Array<{ roleId: number; name: string; userCount: number }>;
    expect(listed.map((r) => [r.roleId, r.name, r.userCount])).toEqual([
      [made[0]!.roleId, "Kept", 2],
      [made[1]!.roleId, "Also kept", 0],
    ]);
    expect((await http("GET", h.adminUrl("/faults"))).json).toEqual([]);
    const [next] = await h.create(35, [{ name: "After restore" }]);
    expect(next!.roleId).toBe(saved.nextRoleId);
    const bad = await http("PUT", h.adminUrl("/state"), { body: { version: 1, nextRoleId: 0, groups: {} } });
    expect(bad.status).toBe(400);
  });
});
