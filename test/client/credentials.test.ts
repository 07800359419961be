/**
 * Tokens per group: as given (`accessTokens`), or fetched from the authorization service, once per
 * group and service however many calls start at once, renewed before they expire, and renewed once
 * on a 401. Against the real emulator, counting its authorizations in its request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError, ConfigurationError, ForbiddenError, GroupRolesClient } from "../../client";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import { withSeams, type Seams } from "../../client/seams";
import { within } from "../support/wait";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await startHarness({
    tokens: ["every-group", "static-41:41", "static-42:42"],
    apiKeys: ["41:api-key-41", "42:api-key-42", "43:api-key-43"],
    users: ["ana:pa55word:42"],
    tokenLifetimeSeconds: 2,
  });
});
afterAll(() => h.close());
beforeEach(() => h.clearRequests());

const apiKeys: Record<string, string> = { "41": "api-key-41", "42": "api-key-42", "43": "api-key-43" };
const withKeys = (keys = apiKeys, seams: Seams = {}) =>
  new GroupRolesClient(
    withSeams(
      {
        baseUrl: h.emu.baseUrl,
        presenceUrl: h.emu.presenceUrl,
        authorization: {
          authUrl: h.emu.authUrl,
          credential: {
            kind: "apiKey",
            apiKeyFor: (g) => keys[String(g)],
            partnerUserId: "ci-bot",
            origin: "grouproles:apiKeys",
          },
          tokenMinutes: 5,
        },
      },
      seams,
    ),
  );
const authorizations = async () => (await h.requests()).counts["POST /authorize"] ?? 0;

describe("tokens per group", () => {
  it("accessTokens sends each group its own token; a group without one fails before any request", async () => {
    const client = new GroupRolesClient({
      baseUrl: h.emu.baseUrl,
      accessTokens: { "41": "static-41", "42": "static-42" },
    });
    await client.roles.list(41);
    await client.roles.list(42);
    const err = await client.roles.list(43).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe("no access token for group 43: accessTokens has tokens for groups 41, 42");
    expect((await h.requests()).total).toBe(2);
  });

  it("with accessToken beside accessTokens, the single token serves the other groups", async () => {
    const client = new GroupRolesClient({
      baseUrl: h.emu.baseUrl,
      accessTokens: { "41": "static-41" },
      accessToken: "every-group",
    });
    await client.roles.list(43);
    expect((await h.requests()).total).toBe(1);
  });

  it("a map written backwards ({token: group}) is refused naming the position, never the token", async () => {
    await h.clearRequests();
    const secret = "tok-written-backwards-5e1f";
    const error = (() => {
      try {
        new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessTokens: { "41": "static-41", [secret]: "42" } });
      } catch (e) {
        return e as ConfigurationError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.message).toMatch(/^accessTokens: key 2 of 2 is not a group ID .* is it written backwards\?/);
    expect(`${error?.message} ${error?.stack}`).not.toContain(secret);
    expect((await h.requests()).total).toBe(0);
  });
});

describe("tokens from the authorization service", () => {
  it("three groups: one authorization each, shared by concurrent calls, reused by later ones", async () => {
    const client = withKeys();
    await Promise.all([41, 42, 43].flatMap((g) => Array.from({ length: 5 }, () => client.roles.list(g))));
    await Promise.all([41, 42, 43].map((g) => client.roles.list(g)));
    const log = await h.requests();
    expect(log.counts["POST /authorize"]).toBe(3);
    expect(log.counts["GET /api/v0/groups/:groupId/roles"]).toBe(18);
    // A token for the roles interface, and a separate one for presence.
    await client.presence.findVisitor(41, "v1");
    expect(await authorizations()).toBe(4);
    const auth = log.entries.filter((e) => e.route === "/authorize").map((e) => e.query);
    expect(auth.every((q) => q.includes("service=webservices") && q.includes("duration=5"))).toBe(true);
  });

  it("renews a token shortly before it expires (lifetime 2 s), never in between", async () => {
    const client = withKeys();
    const started = Date.now();
    while (Date.now() - started < 4500) {
      await client.roles.list(42);
      await new Promise((r) => setTimeout(r, 100));
    }
    const n = await authorizations();
    expect(n).toBeGreaterThanOrEqual(3);
    expect(n).toBeLessThanOrEqual(4);
    expect((await h.requests()).entries.filter((e) => e.status === 401)).toEqual([]);
  });

  it("a 401 (the token was revoked) renews once and the call succeeds", async () => {
    const client = withKeys();
    await client.roles.list(42);
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 401 });
    await client.roles.list(42);
    expect(await authorizations()).toBe(2);
  });

  it("a second 401 fails naming the group and the credential, never its value; no loop", async () => {
    const client = withKeys();
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 401, times: 0 });
    // A loop of renewals would never end: fail fast, saying so, instead of waiting out the test timeout.
    const err = await within(client.roles.list(42), 5_000, "the end of the call after a second 401").catch(
      (e: unknown) => e,
    );
    await h.admin("DELETE", "/faults");
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toContain(
      "the service refused the API key of group 42 (grouproles:apiKeys) for group 42 again, with a freshly issued token",
    );
    expect(JSON.stringify(err)).not.toContain("api-key-42");
    expect(await authorizations()).toBe(2);
    expect((await h.requests()).counts["GET /api/v0/groups/:groupId/roles"]).toBe(2);
  });

  it("a token of another group (403) names the group and the credential", async () => {
    const client = new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: "static-41" });
    const err = await client.roles.list(42).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as Error).message).toContain("the access token (accessToken) is not granted group 42");
  });

  it.each([
    ["a wrong API key", () => withKeys({ ...apiKeys, "42": "not-the-api-key-of-42" }), /signature does not match/],
    [
      "an expired login key (a clock 10 minutes behind)",
      () => withKeys(apiKeys, { now: () => Date.now() - 600_000 }),
      /login key has expired/,
    ],
    ["an unknown user", () => withUser("bob", "pa55word"), /unknown user name or wrong password/],
  ])(
    "%s: one clear error naming the group and credential, one authorization, no retry loop",
    async (_label, make, reason) => {
      const err = await make()
        .roles.list(42)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as Error).message).toMatch(
        /^authorizing for group 42 \(webservices\) with the .* was refused: POST \/authorize\?/,
      );
      expect((err as Error).message, (err as Error).message).toMatch(reason);
      expect(await authorizations()).toBe(1);
      expect((await h.requests()).total).toBe(1);
    },
  );

  it("a user is granted only its own group", async () => {
    const err = await withUser("ana", "pa55word")
      .roles.list(41)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as Error).message).toContain('the user "ana" (grouproles:password) belongs to group 42, not group 41');
    await withUser("ana", "pa55word").roles.list(42);
  });
});

function withUser(username: string, password: string) {
  return new GroupRolesClient({
    baseUrl: h.emu.baseUrl,
    authorization: {
      authUrl: h.emu.authUrl,
      credential: { kind: "user", username, password, origin: "grouproles:password" },
    },
  });
}
