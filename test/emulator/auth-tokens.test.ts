/**
 * The emulator's token rules, called directly: the `--token` spec, which tokens are admin tokens, what a
 * request's Authorization header must hold, and an issued token's group, service and expiry. (The HTTP
 * suites start their emulator before any test runs, so they cannot show a mutation run a change of the
 * spec parser; these call it inside each test.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Auth, DEV_TOKEN, parseTokenSpec } from "../../emulator/auth";
import { ApiError } from "../../emulator/errors";

/** What `f` throws, as the status, code and message the emulator would send. */
function refusal(f: () => unknown): { status: number; code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  throw new Error("no refusal");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the --token spec", () => {
  it("is a token alone (every group) or a token and its groups", () => {
    expect(parseTokenSpec("root")).toEqual({ token: "root" });
    expect(parseTokenSpec("team:1,22,303")).toEqual({ token: "team", groups: [1, 22, 303] });
    expect(parseTokenSpec("a-b_c.d:7")).toEqual({ token: "a-b_c.d", groups: [7] });
  });

  it("refuses an empty token and a group that is not a positive integer, naming it", () => {
    expect(() => parseTokenSpec("")).toThrow('invalid token spec "": empty token');
    expect(() => parseTokenSpec(":1")).toThrow('invalid token spec ":1": empty token');
    for (const group of ["", "0", "01", "1a", "a1", "-1", "1.5", " 1", "9007199254740993"]) {
      expect(() => parseTokenSpec(`team:${group}`), group).toThrow(
        `invalid token spec for "team": group "${group}" is not a positive integer`,
      );
    }
    expect(() => parseTokenSpec("team:1,,2")).toThrow('group "" is not a positive integer');
  });
});

describe("the configured tokens", () => {
  it("the development token when none is given; admin tokens are those with no group, in order", () => {
    expect(new Auth([]).tokens()).toEqual([DEV_TOKEN]);
    expect(new Auth([]).adminTokens()).toEqual([DEV_TOKEN]);
    const auth = new Auth(["team:1", "root", { token: "other", groups: [2] }, { token: "second" }]);
    expect(auth.tokens()).toEqual(["team", "root", "other", "second"]);
    expect(auth.adminTokens()).toEqual(["root", "second"]);
    expect(auth.checkAdmin("Bearer root")).toBe("root");
    expect(refusal(() => auth.checkAdmin("Bearer team"))).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "the /_emulator routes need the admin token (one given with --token and no group); this token is limited to its groups",
    });
  });
});

describe("a request's Authorization header", () => {
  const auth = new Auth(["root", "team:1,2"]);

  it("is `Bearer <token>`, the scheme in any case, spaces around the token allowed", () => {
    for (const header of ["Bearer root", "bearer root", "BEARER   root", "Bearer root  "]) {
      expect(auth.check(header), header).toBe("root");
    }
    const missing = {
      status: 401,
      code: "unauthorized",
      message: "missing bearer token: send 'Authorization: Bearer <token>'",
    };
    for (const header of [undefined, "", "root", "Bearer", "Bearer root extra", "xBearer root", "Basic cm9vdDo="]) {
      expect(
        refusal(() => auth.check(header)),
        String(header),
      ).toEqual(missing);
    }
  });

  it("names an unknown token as such and a group not granted by number, never echoing the token", () => {
    expect(refusal(() => auth.check("Bearer nope"))).toEqual({
      status: 401,
      code: "unauthorized",
      message: "unknown or expired access token",
    });
    expect(auth.check("Bearer team", 2)).toBe("team");
    expect(auth.check("Bearer root", 9)).toBe("root");
    expect(refusal(() => auth.check("Bearer team", 3))).toEqual({
      status: 403,
      code: "forbidden",
      message: "access token is not granted group 3",
    });
  });
});

describe("an issued token", () => {
  it("is shaped as a JWT (the real service issues JWTs) and holds for its group and service only", () => {
    const auth = new Auth([]);
    const { token } = auth.issue(42, "presence", 60_000);
    const parts = token.split(".");
    expect(parts).toHaveLength(3);
    const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    expect(json(parts[0]!)).toEqual({ alg: "HS256", typ: "JWT" });
    expect(json(parts[1]!)).toEqual({ grp: 42, svc: "presence" });
    expect(Buffer.from(parts[2]!, "base64url")).toHaveLength(24);
    expect(auth.check(`Bearer ${token}`, 42, "presence")).toBe(token);
    expect(auth.check(`Bearer ${token}`)).toBe(token);
    expect(refusal(() => auth.check(`Bearer ${token}`, 43, "presence"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "access token is not granted group 43 (it was issued for one other group)",
    });
    expect(refusal(() => auth.check(`Bearer ${token}`, 42, "webservices"))).toEqual({
      status: 403,
      code: "forbidden",
      message: 'access token was issued for service "presence", not "webservices"',
    });
    // Not an admin token, whatever it was issued for.
    expect(refusal(() => auth.checkAdmin(`Bearer ${token}`)).status).toBe(403);
  });

  it("expires at its expiry time, not a millisecond later", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const auth = new Auth([]);
    const { token, expiresAt } = auth.issue(42, "webservices", 5_000);
    expect(expiresAt).toBe(1_005_000);
    vi.setSystemTime(1_004_999);
    expect(auth.check(`Bearer ${token}`, 42)).toBe(token);
    vi.setSystemTime(1_005_000);
    expect(refusal(() => auth.check(`Bearer ${token}`, 42))).toEqual({
      status: 401,
      code: "unauthorized",
      message: "unknown or expired access token",
    });
  });
});
