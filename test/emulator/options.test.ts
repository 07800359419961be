import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { http } from "../support/http";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe("options", () => {
  it.each([
    ["replace", { viewVideo: false }],
    ["merge", { viewVideo: false, inviteGuest: true }],
  ] as const)("settingsUpdate %s: what an update does with keys its map leaves out", async (mode, expected) => {
    emu = await startEmulator({ settingsUpdate: mode });
    const url = `${emu.baseUrl}/api/v0/groups/1/roles`;
    const created = await http("POST", url, {
      body: [{ name: "Agent", settings: { viewVideo: true, inviteGuest: true, remoteAssist: true } }],
    });
    const roleId = (created.json as Array<{ roleId: number }>)[0]!.roleId;
    expect(
      (
        await http("PUT", url, {
          body: [{ roleId, name: "Agent", settings: { viewVideo: false, remoteAssist: null } }],
        })
      ).status,
    ).toBe(200);
    expect(((await http("GET", `${url}/${roleId}`)).json as { settings: object }).settings).toEqual(expected);
  });

  it("settingsUpdate must be replace or merge", async () => {
    await expect(startEmulator({ settingsUpdate: "patch" as "merge" })).rejects.toThrow(
      /settingsUpdate must be "replace" or "merge"/,
    );
  });

  it("latencyMs delays service calls but not admin calls", async () => {
    emu = await startEmulator({ latencyMs: 120 });
    let t0 = performance.now();
    expect((await http("GET", `${emu.baseUrl}/api/v0/groups/1/roles`)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    t0 = performance.now();
    expect((await http("GET", `${emu.presenceUrl}/findvisitor?groupid=1&visitorid=v`)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
  });

  it("rateLimitPerSecond answers 429 rate_limited with Retry-After once the burst is used", async () => {
    emu = await startEmulator({ rateLimitPerSecond: 5 });
    const url = `${emu.baseUrl}/api/v0/groups/1/roles`;
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push(await http("GET", url));
    const limited = statuses.filter((r) => r.status === 429);
    expect(statuses.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(5);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]?.json).toMatchObject({ code: "rate_limited" });
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // admin routes are exempt, so tests can always inspect the emulator
    expect((await http("GET", `${emu.baseUrl}/_emulator/requests`)).status).toBe(200);
  });

  it("groups restricts which groups exist", async () => {
    emu = await startEmulator({ groups: [5] });
    expect((await http("GET", `${emu.baseUrl}/api/v0/groups/5/roles`)).status).toBe(200);
    expect((await http("GET", `${emu.baseUrl}/api/v0/groups/6/roles`)).status).toBe(404);
  });

  it("presenceServers sets the number of named servers; invalid options are refused", async () => {
    emu = await startEmulator({ presenceServers: 4 });
    expect(emu.directServers).toHaveLength(4);
    expect(new Set(emu.directServers).size).toBe(4);
    await expect(startEmulator({ presenceServers: 0 })).rejects.toThrow(/presenceServers/);
    await expect(startEmulator({ tokens: ["bad:0"] })).rejects.toThrow(/group/);
  });

  it("close() is idempotent and frees the port", async () => {
    emu = await startEmulator();
    const url = emu.baseUrl;
    await Promise.all([emu.close(), emu.close()]);
    await expect(fetch(`${url}/api/v0/groups/1/roles`)).rejects.toThrow();
  });
});
