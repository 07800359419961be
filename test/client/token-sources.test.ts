/**
 * The token sources (client/credentials.ts, client/authorization.ts) at their edges: a token given as
 * a function, a source that has no token for a group, a refused token given as it is, what is asked of
 * the authorization service (lifetime, site, retries) and what is done with its reply (no group in it,
 * an expiry equal to now, a late 401 for a token already renewed). Against scripted servers that
 * record every request, on an injected clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError, ConfigurationError, GroupRolesClient } from "../../client";
import { authorizedTokens, type AuthorizationOptions } from "../../client/authorization";
import { staticToken, tokensByGroup } from "../../client/credentials";
import { withSeams } from "../../client/seams";
import { Transport } from "../../client/transport";
import { parseServiceUrl } from "../../client/urls";
import { reply, startScriptedServer, type RecordedRequest, type ScriptedServer } from "../support/scripted-server";

const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);

/** What the authorization service answers next; by default a token for group 42 expiring in 10 minutes. */
let authorize: (req: RecordedRequest, n: number) => { status: number; body: unknown };
let issued = 0;
const token = (n: number) => `issued-token-${n}-${T0}`;
const fresh = (n: number, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { authToken: token(n), authTokeExp: new Date(T0 + 10 * 60_000).toISOString(), groupId: 42, ...extra },
});
/** What the roles service answers: an empty list, or what `serve` says. */
let serve: (req: RecordedRequest) => { status: number; body: unknown };

let auth: ScriptedServer;
let service: ScriptedServer;
beforeAll(async () => {
  auth = await startScriptedServer((req, res) => {
    issued++;
    const r = authorize(req, issued);
    reply(res, r.status, r.body);
  });
  service = await startScriptedServer((req, res) => {
    const r = serve(req);
    reply(res, r.status, r.body);
  });
});
afterAll(async () => {
  await auth.close();
  await service.close();
});
beforeEach(() => {
  issued = 0;
  auth.requests.length = 0;
  service.requests.length = 0;
  authorize = (_req, n) => fresh(n);
  serve = () => ({ status: 200, body: [] });
});

const user = { kind: "user" as const, username: "ana", password: "pw-of-ana", origin: "grouproles:password" };
const authorized = (options: Partial<AuthorizationOptions> = {}, now: () => number = () => T0): GroupRolesClient =>
  new GroupRolesClient(
    withSeams(
      { baseUrl: service.url, authorization: { authUrl: `${auth.url}/authorize`, credential: user, ...options } },
      { now, sleep: async () => undefined },
    ),
  );
const bearers = () => service.requests.map((r) => r.headers.authorization);

describe("tokens given as they are", () => {
  it("a token given as a function is read for each request and sent as it is", async () => {
    let current = "function-token-one";
    const client = new GroupRolesClient({ baseUrl: service.url, accessToken: () => current });
    await client.roles.list(42);
    current = "function-token-two";
    await client.roles.list(42);
    expect(bearers()).toEqual(["Bearer function-token-one", "Bearer function-token-two"]);
  });

  it("a function that gives no token fails naming the setting, before any request", async () => {
    const client = new GroupRolesClient({ baseUrl: service.url, accessToken: () => undefined });
    const err = await client.roles.list(42).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe("no access token: accessToken is not set");
    expect(service.requests).toEqual([]);
  });

  it.each([
    ["accessToken", { accessToken: "refused-static-token" }],
    ["accessTokens", { accessTokens: { "42": "refused-group-token" } }],
  ])("a refused %s is not sent again: one request, the 401", async (_label, tokens) => {
    serve = () => ({ status: 401, body: { message: "invalid token" } });
    const err = await new GroupRolesClient({ baseUrl: service.url, ...tokens }).roles.list(42).catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(service.requests).toHaveLength(1);
  });

  it("a group's own token never shows in a message, even when the service quotes it", async () => {
    const secret = "per-group-token-quoted-by-the-service";
    serve = () => ({ status: 400, body: { message: `token ${secret} cannot do this` } });
    const client = new GroupRolesClient({ baseUrl: service.url, accessTokens: { "42": secret } });
    const err = (await client.roles.list(42).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("cannot do this");
    expect(JSON.stringify({ message: err.message, cause: String(err.cause) })).not.toContain(secret);
  });

  it("a group without a token fails listing, in order, the groups that have one (or none)", async () => {
    const byGroup = tokensByGroup(
      new Map([
        [43, "t-43"],
        [100, "t-100"],
        [7, "t-7"],
      ]),
      "grouproles:accessTokens",
    );
    await expect(byGroup.token(5, "webservices")).rejects.toThrow(
      "no access token for group 5: grouproles:accessTokens has tokens for groups 7, 43, 100",
    );
    await expect(tokensByGroup(new Map(), "grouproles:accessTokens").token(5, "webservices")).rejects.toThrow(
      "no access token for group 5: grouproles:accessTokens has tokens for groups none",
    );
  });

  it("messages name a group's own token, or the fallback for the other groups", () => {
    const own = new Map([[42, "t-42"]]);
    const withFallback = tokensByGroup(own, "grouproles:accessTokens", staticToken("t-all", "grouproles:accessToken"));
    expect(withFallback.describe(42)).toBe("the access token of group 42 (grouproles:accessTokens)");
    expect(withFallback.describe(43)).toBe("the access token (grouproles:accessToken)");
    expect(tokensByGroup(own, "grouproles:accessTokens").describe(43)).toBe(
      "the access token of group 43 (grouproles:accessTokens)",
    );
  });
});

describe("what is asked of the authorization service", () => {
  it.each([0, 121, 1.5])("a token lifetime of %s minutes is refused when the client is made", (minutes) => {
    expect(() => authorized({ tokenMinutes: minutes })).toThrow(
      new ConfigurationError(`tokenMinutes must be an integer from 1 to 120, got ${minutes}`),
    );
  });

  it("1 and 120 minutes are asked for as they are, with the site when one is set", async () => {
    await authorized({ tokenMinutes: 1 }).roles.list(42);
    await authorized({ tokenMinutes: 120, site: "production" }).roles.list(42);
    const queries = auth.requests.map((r) => new URL(r.url, auth.url).searchParams);
    expect(queries.map((q) => q.get("duration"))).toEqual(["1", "120"]);
    expect(queries.map((q) => q.get("site"))).toEqual([null, "production"]);
  });

  it("a group without an API key fails naming the group and the setting, before any request", async () => {
    const client = authorized({
      credential: { kind: "apiKey", apiKeyFor: () => undefined, partnerUserId: "ci-bot", origin: "grouproles:apiKeys" },
    });
    const err = await client.roles.list(43).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe("no API key for group 43 in grouproles:apiKeys");
    expect(auth.requests).toEqual([]);
  });

  it("a lost authorization reply (502) is asked again, and the call succeeds", async () => {
    authorize = (_req, n) => (n === 1 ? { status: 502, body: { message: "bad gateway" } } : fresh(n));
    await authorized().roles.list(42);
    expect(auth.requests).toHaveLength(2);
    expect(bearers()).toEqual([`Bearer ${token(2)}`]);
  });

  it("an authorization that fails for another reason than the credential says what failed, not 'refused'", async () => {
    authorize = () => ({ status: 400, body: { message: "duration out of range" } });
    const err = (await authorized()
      .roles.list(42)
      .catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.code).toBe("ERR_VALIDATION");
    expect(err.message).toMatch(/^authorizing for group 42 \(webservices\): /);
    expect(err.message).toContain("duration out of range");
    expect(err.message).not.toContain("refused");
  });
});

describe("what is done with the reply", () => {
  it("a reply without a group is accepted", async () => {
    authorize = (_req, n) => ({ status: 200, body: { authToken: token(n) } });
    await authorized().roles.list(42);
    expect(bearers()).toEqual([`Bearer ${token(1)}`]);
  });

  it("an issued token never shows in a message, even when the service quotes it", async () => {
    serve = (req) => ({ status: 400, body: { message: `token ${req.headers.authorization?.slice(7)} is malformed` } });
    const err = (await authorized()
      .roles.list(42)
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("is malformed");
    expect(JSON.stringify({ message: err.message, cause: String(err.cause) })).not.toContain(token(1));
  });

  it("an expiry equal to the time of asking is not trusted: the token lives the minutes asked for", async () => {
    authorize = (_req, n) => fresh(n, { authTokeExp: new Date(T0).toISOString() });
    const client = authorized({ tokenMinutes: 10 });
    await client.roles.list(42);
    await client.roles.list(42);
    expect(auth.requests).toHaveLength(1);
  });

  it("a token is renewed at the very moment its renewal time comes", async () => {
    let now = T0;
    const client = authorized({}, () => now);
    await client.roles.list(42);
    // 10 minutes stated: renewed 2% (12 s) before the end.
    now = T0 + 10 * 60_000 - 12_001;
    await client.roles.list(42);
    expect(auth.requests).toHaveLength(1);
    now = T0 + 10 * 60_000 - 12_000;
    await client.roles.list(42);
    expect(auth.requests).toHaveLength(2);
  });

  it("a late 401 for a token already renewed keeps the renewed one; a 401 with nothing cached is no error", () =>
    withSource(async (source) => {
      expect(source.renew(42, "webservices", "never-issued")).toBe(true);
      const first = await source.token(42, "webservices");
      source.renew(42, "webservices", first);
      const second = await source.token(42, "webservices");
      source.renew(42, "webservices", first); // another call's 401, for the old token
      expect(await source.token(42, "webservices")).toBe(second);
      expect([first, second]).toEqual([token(1), token(2)]);
      expect(auth.requests).toHaveLength(2);
    }));
});

/** An authorization token source as the client builds it, with its own transport. */
async function withSource(use: (source: ReturnType<typeof authorizedTokens>) => Promise<void>): Promise<void> {
  const source = authorizedTokens(
    { authUrl: `${auth.url}/authorize`, credential: user },
    parseServiceUrl(`${auth.url}/authorize`, "authUrl", true),
    () => transport,
    () => T0,
  );
  const transport: Transport = new Transport({ tokens: source });
  await use(source);
}
