import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, GroupRolesClient, RateLimitedError, ServerError } from "../../client";
import { reply, sequence, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

let server: ScriptedServer;
afterEach(() => server?.close());

function client(url: string, delays: number[]) {
  return new GroupRolesClient(
    withSeams(
      { baseUrl: url, accessToken: "tok-retry-1", retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 } },
      { sleep: async (ms) => void delays.push(ms), random: () => 0.5 },
    ),
  );
}

describe("retries", () => {
  it("retries a GET on 503 with capped exponential backoff, then succeeds", async () => {
    server = await startScriptedServer(
      sequence(
        (res) => reply(res, 503, { message: "busy" }),
        (res) => reply(res, 502, "bad gateway"),
        (res) => reply(res, 504, ""),
        (res) => reply(res, 200, []),
      ),
    );
    const delays: number[] = [];
    expect(await client(server.url, delays).roles.list(1)).toEqual([]);
    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([75, 150, 300]);
  });

  it("honours Retry-After in seconds and as a date", async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    server = await startScriptedServer(
      sequence(
        (res) => reply(res, 429, { message: "slow" }, { "retry-after": "2" }),
        (res) => reply(res, 429, { message: "slow" }, { "retry-after": date }),
        (res) => reply(res, 200, []),
      ),
    );
    const delays: number[] = [];
    await client(server.url, delays).roles.list(1);
    expect(delays[0]).toBe(2000);
    expect(delays[1]).toBeGreaterThan(25_000);
    expect(delays[1]).toBeLessThanOrEqual(30_000);
  });

  it("gives up after maxAttempts with the last error and the attempt count", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 503, { message: "down" }));
    const delays: number[] = [];
    const err = await client(server.url, delays)
      .roles.list(1)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err.attempts).toBe(4);
    expect(server.requests).toHaveLength(4);
  });

  it("does not wait for a Retry-After above the cap", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 429, {}, { "retry-after": "3600" }));
    const err = await client(server.url, [])
      .roles.list(1)
      .catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries PUT and delete-roles after a dropped connection", async () => {
    server = await startScriptedServer(
      sequence(
        (res) => res.socket?.destroy(),
        (res) => reply(res, 200, { status: "ok" }),
      ),
    );
    await client(server.url, []).roles.update(1, [{ roleId: 2, name: "x" }]);
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT"]);
    await server.close();
    server = await startScriptedServer(
      sequence(
        (res) => res.socket?.destroy(),
        (res) => reply(res, 200, { status: "ok" }),
      ),
    );
    await client(server.url, []).roles.delete(1, [2]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/v0/groups/1/delete-roles",
      "/api/v0/groups/1/delete-roles",
    ]);
  });

  it("never retries a create after a 503 or a dropped connection", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 503, {}));
    await expect(client(server.url, []).roles.create(1, [{ name: "a" }])).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    await server.close();
    server = await startScriptedServer((_req, res) => res.socket?.destroy());
    await expect(client(server.url, []).roles.create(1, [{ name: "a" }])).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a create refused with 429 (the service did not act)", async () => {
    server = await startScriptedServer(
      sequence(
        (res) => reply(res, 429, {}, { "retry-after": "1" }),
        (res, req) =>
          reply(
            res,
            200,
            (JSON.parse(req.body) as Array<{ name: string }>).map((r, i) => ({
              roleId: i + 1,
              name: r.name,
              inUse: false,
            })),
          ),
      ),
    );
    const created = await client(server.url, []).roles.create(1, [{ name: "a" }]);
    expect(created).toEqual([{ roleId: 1, name: "a", inUse: false }]);
    expect(server.requests).toHaveLength(2);
  });

  it("per-call options override client-wide ones", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 503, {}));
    await expect(client(server.url, []).roles.list(1, { retry: { maxAttempts: 2 } })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(server.requests).toHaveLength(2);
  });
});
