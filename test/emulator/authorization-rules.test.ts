/**
 * The emulator's authorization endpoint, its handler called directly (routes made inside each test, so a
 * mutation run reaches what an emulator started before the tests builds once): the `--api-key` and
 * `--user` specs, the query's service and duration, login keys (format, expiry window, signature over the
 * vendor's fields) and the reply. The HTTP path is test/emulator/authorization.test.ts.
 */
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Auth } from "../../emulator/auth";
import { authorizationRoutes, loginKeySignature, parseApiKeySpec, parseUserSpec } from "../../emulator/authorization";
import { ApiError } from "../../emulator/errors";

const NOW_S = 1_800_000_000;
afterEach(() => {
  vi.useRealTimers();
});

/** The vendor's signature, computed here from its definition rather than by the emulator's own helper. */
const signed = (apiKey: string, partnerId: number, user: string, expiry: number) =>
  `$1$${expiry}$${createHmac("sha256", apiKey).update(`${partnerId}${user}1${expiry}`).digest("base64url")}`;

/** Calls `POST /authorize?<query>` with `body`; the reply, or the refusal as status, code and message. */
function authorize(query: string, body: unknown, deps = { apiKeys: [{ groupId: 42, apiKey: "k42" }] }) {
  const auth = new Auth([]);
  const users = [{ username: "ana", password: "pw", groupId: 7 }];
  const [route] = authorizationRoutes({ auth, apiKeys: deps.apiKeys, users, tokenLifetimeSeconds: 600 });
  try {
    const reply = route!.handle({
      params: {},
      query: new URLSearchParams(query),
      body: JSON.stringify(body),
      groupId: 0,
    });
    return { reply: reply as { status: number; body: Record<string, unknown> }, auth };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { refused: { status: e.status, code: e.code, message: e.message } };
  }
}
const unauthorized = (message: string) => ({ refused: { status: 401, code: "unauthorized", message } });
const invalid = (message: string) => ({ refused: { status: 400, code: "validation_failed", message } });

describe("the --api-key and --user specs", () => {
  it("read GROUP:KEY and NAME:PASSWORD:GROUP, a colon allowed in a key or password", () => {
    expect(parseApiKeySpec("42:k:ey")).toEqual({ groupId: 42, apiKey: "k:ey" });
    expect(parseUserSpec("ana:p:w:7")).toEqual({ username: "ana", password: "p:w", groupId: 7 });
  });

  it("refuse a missing part and a group that is not a positive integer, naming it", () => {
    for (const spec of ["", "42", ":k", "42:"])
      expect(() => parseApiKeySpec(spec), spec).toThrow("invalid API key spec: expected GROUP:KEY");
    for (const spec of ["0:k", "04:k", "4a:k", "9007199254740993:k"])
      expect(() => parseApiKeySpec(spec), spec).toThrow(
        `API key group: "${spec.split(":")[0]}" is not a positive integer`,
      );
    for (const spec of ["ana", "ana:pw", ":pw:7", "ana::7", "ana:pw:"])
      expect(() => parseUserSpec(spec), spec).toThrow("invalid user spec: expected NAME:PASSWORD:GROUP");
    expect(() => parseUserSpec("ana:pw:x7")).toThrow('user group: "x7" is not a positive integer');
  });
});

describe("POST /authorize", () => {
  it("refuses a service or duration out of the documented ones, quoting what it got", () => {
    const body = { username: "ana", password: "pw" };
    expect(authorize("service=roles&duration=5", body)).toEqual(
      invalid('service: must be "webservices" or "presence", got "roles"'),
    );
    expect(authorize("duration=5", body)).toEqual(invalid('service: must be "webservices" or "presence", got null'));
    for (const duration of ["0", "121", "1000", "x5", "5x", "", "1.5"])
      expect(authorize(`service=presence&duration=${duration}`, body), duration).toEqual(
        invalid(`duration: must be 1 to 120 minutes, got ${JSON.stringify(duration)}`),
      );
    expect(authorize("service=presence&duration=120", body).reply?.status).toBe(200);
    expect(authorize("service=presence&duration=1", { username: "ana" })).toEqual(
      invalid("body: expected {username, password} or {partnerId, partnerUserId, loginKey}"),
    );
  });

  it("a user's password gives a token for the user's group and the service asked, for the duration asked", () => {
    vi.useFakeTimers({ now: NOW_S * 1000 });
    const { reply, auth } = authorize("service=presence&duration=5", { username: "ana", password: "pw" });
    expect(reply).toEqual({
      status: 200,
      body: {
        authToken: expect.any(String),
        authTokeExp: new Date((NOW_S + 300) * 1000).toISOString(),
        groupId: 7,
        service: "presence",
        gssnId: "emulator-7",
        privilegeString: "",
        isTrial: false,
      },
    });
    expect(auth!.check(`Bearer ${reply!.body.authToken}`, 7, "presence")).toBe(reply!.body.authToken);
    expect(authorize("service=presence&duration=5", { username: "ana", password: "nope" })).toEqual(
      unauthorized("unknown user name or wrong password"),
    );
    expect(authorize("service=presence&duration=5", { username: "bo", password: "pw" })).toEqual(
      unauthorized("unknown user name or wrong password"),
    );
  });

  it("a login key: signed with the group's API key over partner ID, user ID and expiry, at most a day ahead", () => {
    vi.useFakeTimers({ now: NOW_S * 1000 });
    const login = (loginKey: string, partnerId: number | string = 42) =>
      authorize("service=webservices&duration=60", { partnerId, partnerUserId: "ci", loginKey });
    expect(loginKeySignature("k42", 42, "ci", NOW_S + 60)).toBe(signed("k42", 42, "ci", NOW_S + 60).split("$")[3]);
    const ok = login(signed("k42", 42, "ci", NOW_S + 60));
    expect(ok.reply?.body).toMatchObject({ groupId: 42, service: "webservices" });
    // The token lives the lesser of the duration and the emulator's cap (600 s here).
    expect(ok.reply?.body.authTokeExp).toBe(new Date((NOW_S + 600) * 1000).toISOString());
    expect(login(signed("k42", 42, "ci", NOW_S + 60), "42").reply?.status).toBe(200);
    expect(login(signed("k42", 42, "ci", NOW_S + 24 * 3600)).reply?.status).toBe(200);
    expect(login(signed("k42", 42, "ci", NOW_S + 24 * 3600 + 1))).toEqual(
      unauthorized("login key expires more than one day ahead"),
    );
    expect(login(signed("k42", 42, "ci", NOW_S))).toEqual(unauthorized("login key has expired"));
    expect(login(signed("other", 42, "ci", NOW_S + 60))).toEqual(
      unauthorized("login key signature does not match the group's API key"),
    );
    const malformed = unauthorized("login key is malformed: expected $1$<expiry>$<signature> (57 characters)");
    const good = signed("k42", 42, "ci", NOW_S + 60);
    for (const key of [`x${good}`, `${good}x`, good.slice(0, -1), good.replace("$1$", "$2$"), ""])
      expect(login(key), key).toEqual(malformed);
    expect(login(signed("k43", 43, "ci", NOW_S + 60), 43)).toEqual(unauthorized("group 43 has no API key"));
  });
});
