import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FaultRule, RequestLogView } from "../../emulator";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.emu.close());
afterEach(async () => {
  await http("DELETE", h.adminUrl("/faults"));
});

const addFault = async (rule: Record<string, unknown>): Promise<number> => {
  const r = await http("POST", h.adminUrl("/faults"), { body: rule });
  expect(r.status, r.text).toBe(201);
  return (r.json as { id: number }).id;
};
const names = async (g: number): Promise<unknown[]> => (await h.list(g)).map((r) => r.name);

describe("fault rules", () => {
  it("status: answers the status with Retry-After and does not apply the request", async () => {
    await addFault({ method: "POST", path: "/api/v0/groups/20/roles", action: "status", status: 503, retryAfter: "2" });
    const r = await http("POST", h.rolesUrl(20), { body: [{ name: "r" }] });
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("2");
    expect(r.json).toMatchObject({ code: "fault_injected" });
    expect(await names(20)).toEqual([]);
    expect((await http("POST", h.rolesUrl(20), { body: [{ name: "r" }] })).status).toBe(200);
  });

  it("drop-before: the connection dies and nothing is applied", async () => {
    await addFault({ method: "POST", path: "/api/v0/groups/21/roles", action: "drop-before" });
    await expect(http("POST", h.rolesUrl(21), { body: [{ name: "lost" }] })).rejects.toThrow();
    expect(await names(21)).toEqual([]);
  });

  it("drop-after: the change is applied, then the connection dies unanswered", async () => {
    await addFault({ method: "POST", path: "/api/v0/groups/22/roles", action: "drop-after" });
    await expect(http("POST", h.rolesUrl(22), { body: [{ name: "ghost" }] })).rejects.toThrow();
    expect(await names(22)).toEqual(["ghost"]);
  });

  it("malformed-json: applied, then 200 with a truncated JSON body", async () => {
    await addFault({ path: "/api/v0/groups/23/roles", method: "POST", action: "malformed-json" });
    const r = await http("POST", h.rolesUrl(23), { body: [{ name: "half" }] });
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    expect(r.text.length).toBeGreaterThan(0);
    expect(await names(23)).toEqual(["half"]);
  });

  it("wrong-shape: applied, then 200 with well-formed JSON of the wrong shape", async () => {
    await addFault({ path: "/api/v0/groups/24/roles", method: "POST", action: "wrong-shape" });
    const created = await http("POST", h.rolesUrl(24), { body: [{ name: "a" }, { name: "b" }] });
    expect(created.status).toBe(200);
    expect(created.json).toHaveLength(1);
    expect(await names(24)).toEqual(["a", "b"]);
    await addFault({ path: "/api/v0/groups/24/roles/*", action: "wrong-shape" });
    const role = (await h.list(24))[0];
    const details = await http("GET", `${h.rolesUrl(24)}/${String(role?.roleId)}`);
    expect(details.json).toEqual({ unexpected: true });
  });

  it("latency: delays, then answers normally; the request log lists it in flight meanwhile", async () => {
    await addFault({ path: "/api/v0/groups/25/roles", action: "latency", latencyMs: 1000 });
    const t0 = performance.now();
    let done = false;
    const slow = http("GET", h.rolesUrl(25)).finally(() => (done = true));
    const inFlight = async () => ((await http("GET", h.adminUrl("/requests"))).json as RequestLogView).inFlight;
    let seen: RequestLogView["inFlight"] = [];
    while (!seen.length && !done) seen = await inFlight();
    expect(seen).toEqual([{ server: "api", method: "GET", path: "/api/v0/groups/25/roles" }]);
    const r = await slow;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(990);
    expect(r.status).toBe(200);
    expect(await inFlight()).toEqual([]);
  });

  it("override: merges fields into the real 2xx JSON reply of /findvisitor and /lookupvisitor only", async () => {
    const fields = { visitorfound: true, directserver: "pr1.evil.example", direct: "pr1.evil.example:8", httpsport: 0 };
    await addFault({ server: "presence", path: "/findvisitor", action: "override", fields });
    const q = "groupid=29&visitorid=nobody";
    const find = await http("GET", `${h.emu.presenceUrl}/findvisitor?${q}`);
    expect(find.json).toEqual(fields); // the real reply was {"visitorfound": false}
    const again = await http("GET", `${h.emu.presenceUrl}/findvisitor?${q}`);
    expect(again.json).toEqual({ visitorfound: false }); // the rule is used up

    await addFault({ path: "/lookupvisitor", action: "override", fields: { directserver: "10.9.8.7" } });
    expect((await http("GET", `${h.emu.presenceUrl}/lookupvisitor?${q}`)).json).toEqual({ directserver: "10.9.8.7" });

    await addFault({ path: "/findvisitor", action: "override", fields, times: 0 });
    const unauthorized = await http("GET", `${h.emu.presenceUrl}/findvisitor?${q}`, { token: "wrong" });
    expect(unauthorized.status).toBe(401);
    const invalid = await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=29&visitorid=a%20b`);
    expect(invalid.json).toMatchObject({ code: "validation_failed" }); // an error reply is not merged into
    expect(invalid.json).not.toHaveProperty("directserver");
  });

  it("override: merges fields into each object of a 2xx JSON array reply (a create that says inUse)", async () => {
    await addFault({ method: "POST", path: "/api/v0/groups/31/roles", action: "override", fields: { inUse: true } });
    const created = await http("POST", `${h.emu.baseUrl}/api/v0/groups/31/roles`, {
      body: [{ name: "A" }, { name: "B" }],
    });
    expect((created.json as Array<{ name: string; inUse: boolean }>).map((r) => [r.name, r.inUse])).toEqual([
      ["A", true],
      ["B", true],
    ]);
    // the store is not changed: the roles are made, and nobody holds them
    const listed = await http("GET", `${h.emu.baseUrl}/api/v0/groups/31/roles`);
    expect((listed.json as Array<{ inUse: boolean }>).map((r) => r.inUse)).toEqual([false, false]);
  });

  it("skip lets the first matching requests through, then the rule applies", async () => {
    await addFault({ method: "POST", path: "/api/v0/groups/32/roles", action: "status", status: 422, skip: 2 });
    const post = (name: string) => http("POST", `${h.emu.baseUrl}/api/v0/groups/32/roles`, { body: [{ name }] });
    expect([
      (await post("A")).status,
      (await post("B")).status,
      (await post("C")).status,
      (await post("D")).status,
    ]).toEqual([200, 200, 422, 200]);
  });

  it("times counts down, 0 means until cleared; GET lists rules; DELETE clears them", async () => {
    await addFault({ path: "/api/v0/groups/26/roles", action: "status", status: 500, times: 2 });
    const listed = (await http("GET", h.adminUrl("/faults"))).json as FaultRule[];
    expect(listed).toEqual([expect.objectContaining({ action: "status", remaining: 2, hits: 0 })]);
    expect((await http("GET", h.rolesUrl(26))).status).toBe(500);
    expect(((await http("GET", h.adminUrl("/faults"))).json as FaultRule[])[0]).toMatchObject({
      remaining: 1,
      hits: 1,
    });
    expect((await http("GET", h.rolesUrl(26))).status).toBe(500);
    expect((await http("GET", h.rolesUrl(26))).status).toBe(200);
    expect((await http("GET", h.adminUrl("/faults"))).json).toEqual([]);

    await addFault({ path: "/api/v0/groups/26/*", action: "status", status: 502, times: 0 });
    for (let i = 0; i < 5; i++) expect((await http("GET", h.rolesUrl(26))).status).toBe(502);
    const cleared = await http("DELETE", h.adminUrl("/faults"));
    expect(cleared.json).toEqual({ status: "ok", cleared: 1 });
    expect((await http("GET", h.rolesUrl(26))).status).toBe(200);
  });

  it("DELETE /faults/{id} removes one rule, returns its hits, and leaves the others", async () => {
    const keep = await addFault({ path: "/api/v0/groups/28/roles", action: "status", status: 502, times: 0 });
    const drop = await addFault({
      method: "GET",
      path: "/api/v0/groups/29/roles",
      action: "status",
      status: 503,
      times: 0,
    });
    expect((await http("GET", h.rolesUrl(29))).status).toBe(503);
    const removed = await http("DELETE", h.adminUrl(`/faults/${drop}`));
    expect(removed.json).toMatchObject({ status: "ok", rule: { id: drop, hits: 1 } });
    expect((await http("GET", h.rolesUrl(29))).status).toBe(200);
    expect((await http("GET", h.rolesUrl(28))).status).toBe(502);
    expect((await http("DELETE", h.adminUrl(`/faults/${drop}`))).status).toBe(404);
    expect(((await http("GET", h.adminUrl("/faults"))).json as FaultRule[]).map((r) => r.id)).toEqual([keep]);
  });

  it("matches by method, exact path or * prefix, and server", async () => {
    await addFault({ method: "PUT", path: "/api/v0/*", action: "status", status: 418, times: 0 });
    await addFault({ path: "/findvisitor", server: "api", action: "status", status: 418, times: 0 });
    await addFault({ path: "/api/v0/groups/27", action: "status", status: 418, times: 0 });
    expect((await http("GET", h.rolesUrl(27))).status).toBe(200); // wrong method, not a prefix match
    expect((await http("PUT", h.rolesUrl(27), { body: [] })).status).toBe(418);
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=27&visitorid=v`)).status).toBe(200); // other server
  });

  it("rejects malformed rules", async () => {
    const malformed = [
      { path: "/x", action: "explode" },
      { path: "/x", action: "status" },
      { action: "drop-before" },
      { path: "/x", action: "latency" },
      { path: "/x", action: "status", status: 503, extra: 1 },
      { path: "/x", action: "override" },
      { path: "/x", action: "override", fields: {} },
      { path: "/x", action: "override", fields: ["directserver"] },
    ];
    for (const rule of malformed) {
      const r = await http("POST", h.adminUrl("/faults"), { body: rule });
      expect(r.status, JSON.stringify(rule)).toBe(400);
      expect(r.json).toMatchObject({ code: "validation_failed" });
    }
  });

  it("logs dropped requests with status 0 and injected ones with their status", async () => {
    await http("DELETE", h.adminUrl("/requests"));
    await addFault({ path: "/api/v0/groups/28/roles", action: "drop-before" });
    await addFault({ path: "/api/v0/groups/28/roles", action: "status", status: 429 });
    await expect(http("GET", h.rolesUrl(28))).rejects.toThrow();
    await http("GET", h.rolesUrl(28));
    const log = (await http("GET", h.adminUrl("/requests"))).json as RequestLogView;
    expect(log.entries.map((e) => e.status)).toEqual([0, 429]);
  });
});
