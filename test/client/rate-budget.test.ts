/**
 * The client-side request budget: concurrency and requests-per-second limits per origin, observed by a
 * scripted server. Time is a fake clock the test advances, so nothing depends on wall-clock gaps.
 */
import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { GroupRolesClient } from "../../client";
import { clientFromConfig, setStackConfig } from "../../config/stack-config";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { waitFor } from "../support/wait";
import { withSeams } from "../../client/seams";

let server: ScriptedServer;
afterEach(async () => {
  setStackConfig(undefined);
  await server?.close();
});

/** A clock that moves only when the test says so; `sleep` resolves when the clock passes its deadline. */
function fakeClock() {
  let t = 0;
  const sleepers: Array<{ until: number; wake: () => void }> = [];
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ until: t + ms, wake })),
    /** Requested sleeps, as durations from now. */
    pending: () => sleepers.map((s) => s.until - t),
    /** Moves to the earliest deadline and wakes everyone due. */
    advance(): number {
      t = Math.min(...sleepers.map((s) => s.until));
      for (const s of sleepers.filter((x) => x.until <= t)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.wake();
      }
      return t;
    },
  };
}

/** Polls until `cond` holds (the scripted server sees requests asynchronously). */
const until = (cond: () => boolean): Promise<void> => waitFor(cond, "the expected requests");

/** Lets pending I/O and timers run, so a request that should not start would have shown up. */
const settle = () => new Promise((r) => setTimeout(r, 30));

const groupOf = (url: string) => Number(/groups\/(\d+)/.exec(url)?.[1]);

/** A server that holds every reply until `release()`, counting requests in flight. */
async function holdingServer() {
  const held: http.ServerResponse[] = [];
  let inFlight = 0;
  let peak = 0;
  server = await startScriptedServer((_req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    held.push(res);
  });
  return {
    held,
    peak: () => peak,
    release() {
      for (const res of held.splice(0)) {
        inFlight--;
        reply(res, 200, []);
      }
    },
  };
}

describe("maxConcurrentRequests", () => {
  it("keeps at most N requests in flight per origin and serves the queue in order", async () => {
    const s = await holdingServer();
    const client = new GroupRolesClient({ baseUrl: server.url, accessToken: "tok-budget-1", maxConcurrentRequests: 2 });
    const calls = [1, 2, 3, 4, 5].map((g) => client.roles.list(g));
    await until(() => server.requests.length === 2);
    await settle();
    expect(server.requests.map((r) => groupOf(r.url)).sort()).toEqual([1, 2]);
    s.release();
    await until(() => server.requests.length === 4);
    await settle();
    expect(server.requests.length).toBe(4);
    s.release();
    await until(() => server.requests.length === 5);
    s.release();
    await Promise.all(calls);
    expect(s.peak()).toBe(2);
    expect(server.requests.slice(2).map((r) => groupOf(r.url))).toEqual(expect.arrayContaining([3, 4, 5]));
    expect(groupOf(server.requests[4].url)).toBe(5);
  });
});

describe("maxRequestsPerSecond", () => {
  it("starts requests at an even pace: one now, then one per 1/rate seconds of the injected clock", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, []));
    const clock = fakeClock();
    const client = new GroupRolesClient(
      withSeams(
        { baseUrl: server.url, accessToken: "tok-budget-2", maxRequestsPerSecond: 4 },
        { now: clock.now, sleep: clock.sleep },
      ),
    );
    const calls = [1, 2, 3, 4].map((g) => client.roles.list(g));
    const seen: Array<[number, number]> = [];
    for (let k = 1; k <= 4; k++) {
      await until(() => server.requests.length === k);
      await settle();
      // the k-th request went out, and no other until the clock moves
      expect(server.requests.length).toBe(k);
      seen.push([clock.now(), groupOf(server.requests[k - 1].url)]);
      if (k < 4) {
        expect(clock.pending()).toEqual([250]);
        clock.advance();
      }
    }
    await Promise.all(calls);
    expect(seen).toEqual([
      [0, 1],
      [250, 2],
      [500, 3],
      [750, 4],
    ]);
  });

  it("a 429 with Retry-After holds the whole queue, not just the request that got it", async () => {
    server = await startScriptedServer((_req, res, i) =>
      i === 0 ? reply(res, 429, { message: "slow down" }, { "retry-after": "3" }) : reply(res, 200, []),
    );
    const clock = fakeClock();
    const client = new GroupRolesClient(
      withSeams(
        { baseUrl: server.url, accessToken: "tok-budget-3", maxConcurrentRequests: 1 },
        { now: clock.now, sleep: clock.sleep },
      ),
    );
    const a = client.roles.list(1);
    const b = client.roles.list(2);
    await until(() => clock.pending().length === 2);
    await settle();
    // only the first request went out; both the retry and the queue wait the 3 s asked for
    expect(server.requests.map((r) => groupOf(r.url))).toEqual([1]);
    expect(clock.pending()).toEqual([3000, 3000]);
    clock.advance();
    await Promise.all([a, b]);
    // the queued request goes first, then the retry
    expect(server.requests.map((r) => groupOf(r.url))).toEqual([1, 2, 1]);
  });
});

describe("config", () => {
  it("grouproles:maxConcurrentRequests reaches the provider's client", async () => {
    const s = await holdingServer();
    const config: Record<string, string> = {
      "grouproles:baseUrl": server.url,
      "grouproles:accessToken": "tok-budget-4",
      "grouproles:maxConcurrentRequests": "1",
    };
    setStackConfig({ get: (k) => config[k] });
    const client = clientFromConfig();
    const calls = [1, 2, 3].map((g) => client.roles.list(g));
    for (let k = 1; k <= 3; k++) {
      await until(() => server.requests.length === k);
      await settle();
      expect(server.requests.length).toBe(k);
      s.release();
    }
    await Promise.all(calls);
    expect(s.peak()).toBe(1);
  });

  it("an invalid limit fails naming the key and its environment variable", () => {
    const config: Record<string, string> = {
      "grouproles:baseUrl": "http://127.0.0.1:1",
      "grouproles:accessToken": "tok-budget-5",
      "grouproles:maxRequestsPerSecond": "0",
    };
    setStackConfig({ get: (k) => config[k] });
    expect(() => clientFromConfig()).toThrow(
      /grouproles:maxRequestsPerSecond \(or GROUPROLES_MAX_REQUESTS_PER_SECOND\) must be a positive number, got "0"/,
    );
  });
});
