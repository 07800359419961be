/**
 * Every request ends: a reply trickled a byte at a time never trips the body timeout (it bounds only the
 * gap between chunks), so each attempt also has a deadline for the whole of it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DeadlineExceededError, GroupRolesClient, TimeoutError } from "../../client";
import { clientFromConfig, setStackConfig } from "../../config/stack-config";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server";

const TOKEN = "tok-deadline-secret-1";
let server: ScriptedServer | undefined;
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  await server?.close();
  server = undefined;
});

/** A list reply that never ends: one byte every 50 ms, far inside any gap timeout. */
async function trickling(): Promise<ScriptedServer> {
  return startScriptedServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("[");
    timers.push(setInterval(() => res.write(" "), 50));
  });
}

describe("the deadline of a whole request", () => {
  it("a body trickled one byte at a time fails with ERR_DEADLINE_EXCEEDED naming the URL, not the token", async () => {
    server = await trickling();
    const c = new GroupRolesClient({
      accessToken: TOKEN,
      baseUrl: server.url,
      retry: { maxAttempts: 1 },
      timeouts: { bodyMs: 10_000, deadlineMs: 400 },
    });
    const err = await c.roles.list(7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: "ERR_DEADLINE_EXCEEDED", phase: "total", timeoutMs: 400 });
    expect((err as Error).message).toContain(`${server.url}/api/v0/groups/7/roles`);
    expect((err as Error).message).not.toContain(TOKEN);
    // The server saw the one request, with the token where it belongs.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("grouproles:deadlineMs (or GROUPROLES_DEADLINE_MS) sets it; a bad value names the key", async () => {
    server = await trickling();
    const config: Record<string, string> = {
      "grouproles:baseUrl": server.url,
      "grouproles:accessToken": TOKEN,
      "grouproles:deadlineMs": "300",
    };
    setStackConfig({ get: (k) => config[k] });
    try {
      const err = await clientFromConfig()
        .roles.list(1, { retry: { maxAttempts: 1 } })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "ERR_DEADLINE_EXCEEDED", timeoutMs: 300 });
      config["grouproles:deadlineMs"] = "soon";
      expect(() => clientFromConfig()).toThrow(
        /grouproles:deadlineMs \(or GROUPROLES_DEADLINE_MS\) must be a positive integer, got "soon"/,
      );
    } finally {
      setStackConfig(undefined);
    }
  });

  it("bounds the whole call, retries included: a 503, then a trickled reply, ends at the deadline with both attempts counted", async () => {
    server = await startScriptedServer((_req, res, i) => {
      if (i === 0) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end('{"message":"busy"}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      timers.push(setInterval(() => res.write(" "), 50));
    });
    const c = new GroupRolesClient({
      accessToken: TOKEN,
      baseUrl: server.url,
      retry: { maxAttempts: 4, baseDelayMs: 50 },
      timeouts: { bodyMs: 10_000, deadlineMs: 1500 },
    });
    const started = Date.now();
    const err = await c.roles.list(7).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err).toMatchObject({ code: "ERR_DEADLINE_EXCEEDED", timeoutMs: 1500, attempts: 2 });
    expect((err as Error).message).toContain("bounds the whole call: 2 attempts in 1.");
    // An upper bound only: the deadline plus one second, whatever the retry policy would still allow.
    expect(took).toBeLessThan(1500 + 1000);
    expect(server.requests).toHaveLength(2);
  });

  it("a server that accepts and never answers: no retry starts without a second of the deadline left", async () => {
    const arrivals: number[] = [];
    server = await startScriptedServer(() => void arrivals.push(Date.now()));
    const c = new GroupRolesClient({
      accessToken: TOKEN,
      baseUrl: server.url,
      retry: { maxAttempts: 10, baseDelayMs: 50, maxDelayMs: 50 },
      timeouts: { headersMs: 600, deadlineMs: 2500 },
    });
    const started = Date.now();
    const err = await c.roles.list(7).catch((e: unknown) => e);
    const took = Date.now() - started;
    // Each attempt waits 600 ms for headers; a retry is made only with a second left after its wait, so the
    // last attempt ends on its own timeout, not on the deadline, and none starts in the last second.
    expect(err).toMatchObject({ code: "ERR_HEADERS_TIMEOUT" });
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    expect(arrivals.length).toBeLessThan(10);
    for (const t of arrivals) expect(t - started).toBeLessThan(2500 - 1000 + 100);
    expect(took).toBeLessThan(2500 + 1000);
  });
});
