/**
 * Renewal ahead of expiry for a real 120-minute token, on an injected clock: a token counts as expired
 * 30 s before its expiry (2% of its lifetime, at most 30 s), never earlier, never later. A wrong margin
 * (30 ms, or 30 minutes) fails here, where a 2-second token could not tell them apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroupRolesClient } from "../../client";
import { withSeams } from "../../client/seams";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";

const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);
const LIFETIME_MS = 120 * 60_000;

let auth: ScriptedServer;
let service: ScriptedServer;
let issued = 0;
/** The expiry the authorization service states: its own, one already past (a skewed clock), or none. */
let stated: "lifetime" | "past" | "none" = "lifetime";
beforeAll(async () => {
  auth = await startScriptedServer((_req, res) => {
    issued++;
    const exp =
      stated === "lifetime"
        ? new Date(T0 + LIFETIME_MS).toISOString()
        : stated === "past"
          ? new Date(T0 - 60_000).toISOString()
          : undefined;
    reply(res, 200, { authToken: `token-${issued}`, ...(exp ? { authTokeExp: exp } : {}), groupId: 42 });
  });
  service = await startScriptedServer((_req, res) => reply(res, 200, []));
});
afterAll(async () => {
  await auth.close();
  await service.close();
});

/** A client of a user's tokens on the clock `now`, asking for `tokenMinutes` (default: the 120 of the config layer). */
const clientAt = (now: () => number, tokenMinutes?: number) =>
  new GroupRolesClient(
    withSeams(
      {
        baseUrl: service.url,
        authorization: {
          authUrl: `${auth.url}/authorize`,
          ...(tokenMinutes === undefined ? {} : { tokenMinutes }),
          credential: { kind: "user", username: "ana", password: "pw", origin: "grouproles:password" },
        },
      },
      { now },
    ),
  );

describe("a 120-minute token", () => {
  it("is reused until 30 s before its expiry, and renewed from then on", async () => {
    let now = T0;
    const client = clientAt(() => now);
    const bearer = () => service.requests.at(-1)!.headers.authorization;
    await client.roles.list(42);
    expect(issued).toBe(1);
    now = T0 + LIFETIME_MS - 31_000;
    await client.roles.list(42);
    expect(issued).toBe(1); // still 31 s to go: reused
    expect(bearer()).toBe("Bearer token-1");
    now = T0 + LIFETIME_MS - 29_000;
    await client.roles.list(42);
    expect(issued).toBe(2); // within the last 30 s: renewed before use
    expect(bearer()).toBe("Bearer token-2");
  });
});

describe("an expiry already past or not stated", () => {
  it.each(["past", "none"] as const)(
    "(%s): the token lives the 10 minutes asked for, renewed 12 s (2%%) before their end, never looping",
    async (kind) => {
      stated = kind;
      const before = issued;
      let now = T0;
      const client = clientAt(() => now, 10);
      await client.roles.list(42);
      await client.roles.list(42);
      expect(issued - before).toBe(1);
      now = T0 + 10 * 60_000 - 13_000;
      await client.roles.list(42);
      expect(issued - before).toBe(1);
      now = T0 + 10 * 60_000 - 11_000;
      await client.roles.list(42);
      expect(issued - before).toBe(2);
      stated = "lifetime";
    },
  );
});
