import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  GroupRolesClient,
  GroupRolesError,
  HttpStatusError,
  NotFoundError,
  RateLimitedError,
  RoleInUseError,
  ServerError,
  ValidationError,
} from "../../client";
import { redact, registerSecret } from "../../client/redact";
import { allText } from "../support/error-text";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

let server: ScriptedServer;
afterEach(() => server?.close());

const CANARY = "canary-7f3e9b2c-secret-token";
const noRetry = { retry: { maxAttempts: 1 } };
const client = (url: string) =>
  new GroupRolesClient(withSeams({ baseUrl: url, accessToken: CANARY }, { sleep: async () => {} }));

describe("error classes", () => {
  it.each([
    [401, AuthenticationError, "ERR_AUTHENTICATION", { code: "unauthorized", message: "token unknown" }],
    [403, ForbiddenError, "ERR_FORBIDDEN", { code: "forbidden", message: "token not granted group 7" }],
    [404, NotFoundError, "ERR_NOT_FOUND", { code: "not_found", message: "no role 9" }],
    [409, RoleInUseError, "ERR_ROLE_IN_USE", { code: "role_in_use", message: "role 9 is assigned to 3 users" }],
    [409, ConflictError, "ERR_CONFLICT", { code: "name_conflict", message: "name taken" }],
    [400, ValidationError, "ERR_VALIDATION", { code: "validation_failed", message: "[0].name: too long" }],
    [422, ValidationError, "ERR_VALIDATION", { message: "bad" }],
    [429, RateLimitedError, "ERR_RATE_LIMITED", { code: "rate_limited", message: "slow down" }],
    [500, ServerError, "ERR_SERVER", "internal oops"],
    [503, ServerError, "ERR_SERVER", { message: "maintenance" }],
  ])("%i becomes %o", async (status, cls, code, body) => {
    server = await startScriptedServer((_req, res) =>
      reply(res, status, body, status === 429 ? { "retry-after": "7" } : {}),
    );
    const err = await client(server.url)
      .roles.list(7, noRetry)
      .catch((e) => e);
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(GroupRolesError);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.request).toMatchObject({ method: "GET", path: "/api/v0/groups/7/roles" });
    expect(err.message).toContain("GET /api/v0/groups/7/roles");
    const said = typeof body === "string" ? body : body.message;
    expect(err.serviceMessage).toBe(said);
    expect(err.message).toContain(said);
    const sentCode = typeof body === "string" ? undefined : (body as { code?: string }).code;
    if (sentCode) expect(err.serviceCode).toBe(sentCode);
    if (status === 429) {
      expect(err.retryAfter).toBe("7");
      expect(err.retryAfterMs).toBe(7000);
    }
  });

  it("a dropped connection is a ConnectionError with the request marked as sent", async () => {
    server = await startScriptedServer((_req, res) => res.socket?.destroy());
    const err = await client(server.url)
      .roles.list(7, noRetry)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.code).toBe("ERR_CONNECTION");
    expect(err.requestSent).toBe(true);
  });

  it("a refused connection is a ConnectionError with the request not sent", async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, "127.0.0.1", r));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const err = await client(`http://127.0.0.1:${port}`)
      .roles.list(7, noRetry)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.requestSent).toBe(false);
    expect(err.message).toContain("ECONNREFUSED");
  });
});

describe("redaction", () => {
  it("never shows the token, even when the service echoes it", async () => {
    server = await startScriptedServer((req, res) =>
      reply(res, 401, {
        code: "unauthorized",
        message: `token ${CANARY} rejected; got header ${req.headers.authorization}`,
      }),
    );
    const err = await client(server.url)
      .roles.list(7, noRetry)
      .catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(allText(err)).not.toContain(CANARY);
    expect(err.message).toContain("[REDACTED]");
    // the request really carried it
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${CANARY}`);
  });

  it("never shows the token in a cause chain", async () => {
    server = await startScriptedServer((_req, res) => res.socket?.destroy());
    const err = await client(server.url)
      .roles.list(7, noRetry)
      .catch((e) => e);
    expect(err.cause).toBeInstanceOf(Error);
    expect(allText(err)).not.toContain(CANARY);
  });

  it("redacts the token inside a cause, wherever the cause carries it", () => {
    new GroupRolesClient({ baseUrl: "http://127.0.0.1:1", accessToken: CANARY }); // registers the token
    const inner = Object.assign(new Error(`vault lookup for ${CANARY} failed`), {
      code: "EVAULT",
      headers: { authorization: `Bearer ${CANARY}` },
      cause: new Error(`nested: ${CANARY}`),
    });
    const causes: unknown[] = [inner, `a thrown string with token=${CANARY}`, new Error(`authorization: ${CANARY}`)];
    for (const cause of causes) {
      const err = new HttpStatusError("request failed", { cause });
      expect(err.cause).toBeInstanceOf(Error);
      expect(allText(err)).not.toContain(CANARY);
      expect((err.cause as Error).message).toContain("[REDACTED]");
    }
    // the copy keeps what callers branch on
    const copy = new HttpStatusError("request failed", { cause: inner }).cause as Error & { code?: string };
    expect(copy.code).toBe("EVAULT");
    expect(copy.message).toBe("vault lookup for [REDACTED] failed");
  });

  it("redact() removes bearer credentials, authorization values and registered secrets, keeping the rest", () => {
    registerSecret("w4x9"); // four characters: the shortest secret registered
    registerSecret("abc"); // shorter ones would redact ordinary words
    expect(
      [
        "Bearer  xyz1",
        "Bearer xyz1 rest",
        "authorization: xyz1",
        "authorization:xyz1",
        "authorization : xyz1",
        '"authorization": "Bearer xyz1"',
        "Authorization=abc,next",
        "token w4x9 ok",
        "abc stays",
      ].map(redact),
    ).toEqual([
      "Bearer  [REDACTED]",
      "Bearer [REDACTED] rest",
      "authorization: [REDACTED]",
      "authorization:[REDACTED]",
      "authorization : [REDACTED]",
      '"authorization": "[REDACTED]"',
      "Authorization=[REDACTED],next",
      "token [REDACTED] ok",
      "abc stays",
    ]);
  });

  it("a cause is copied as name, code, message and a one-line stack, and only when there is one", () => {
    expect(new HttpStatusError("plain").message).toBe("plain");
    expect(new HttpStatusError("plain").cause).toBeUndefined();
    expect(new HttpStatusError("plain", { cause: null }).cause).toBeUndefined();
    const source = Object.assign(new TypeError("bad thing"), { code: 5 });
    const copy = new HttpStatusError("plain", { cause: source }).cause as Error & { code?: unknown };
    expect(copy).not.toBe(source);
    expect([copy.name, copy.message, copy.stack, copy.code]).toEqual([
      "TypeError",
      "bad thing",
      "TypeError: bad thing",
      undefined,
    ]);
  });

  it("redacts a token supplied by a function, read at call time", async () => {
    server = await startScriptedServer((req, res) => reply(res, 403, { message: `bad ${req.headers.authorization}` }));
    const late = "late-canary-9d8c7b6a";
    const c = new GroupRolesClient({ baseUrl: server.url, accessToken: () => late });
    const err = await c.roles.list(7, noRetry).catch((e) => e);
    expect(allText(err)).not.toContain(late);
  });
});
