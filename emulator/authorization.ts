/**
 * The authorization endpoint of the service family, as the vendor documents it: a POST with query
 * parameters `service`, `duration` (minutes, 1 to 120) and optionally `site`, and a JSON body of either
 * `{username, password}` or `{partnerId, partnerUserId, loginKey}`. It answers `{authToken,
 * authTokeExp, groupId, ...}` with a token for one group and one service. Login keys are verified
 * against the group's API key: `$1$<expiry>$<signature>`, expiry in Unix seconds at most one day ahead,
 * signature the Base64URL HMAC-SHA256 (API key as secret) of `<partnerId><partnerUserId>1<expiry>`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Auth, ServiceName } from "./auth";
import { ApiError } from "./errors";
import { compileTemplate, parseJson } from "./http-util";
import type { Route } from "./pipeline";

/** A group's API key (the secret login keys are signed with). */
export interface ApiKeyGrant {
  groupId: number;
  apiKey: string;
}

/** A user name, its password and the one group it belongs to. */
export interface UserGrant {
  username: string;
  password: string;
  groupId: number;
}

/** How long a login key may reach into the future (the vendor: at most one day ahead). */
const LOGIN_KEY_MAX_AHEAD_S = 24 * 60 * 60;

const positive = (what: string, text: string): number => {
  const n = Number(text);
  if (!/^[1-9]\d*$/.test(text) || !Number.isSafeInteger(n))
    throw new Error(`${what}: "${text}" is not a positive integer`);
  return n;
};

/** Parses `GROUP:KEY` (the CLI's `--api-key` form). */
export function parseApiKeySpec(spec: string): ApiKeyGrant {
  const colon = spec.indexOf(":");
  if (colon < 1 || colon === spec.length - 1) throw new Error(`invalid API key spec: expected GROUP:KEY`);
  return { groupId: positive("API key group", spec.slice(0, colon)), apiKey: spec.slice(colon + 1) };
}

/** Parses `NAME:PASSWORD:GROUP` (the CLI's `--user` form). */
export function parseUserSpec(spec: string): UserGrant {
  const first = spec.indexOf(":");
  const last = spec.lastIndexOf(":");
  if (first < 1 || last <= first + 1 || last === spec.length - 1)
    throw new Error(`invalid user spec: expected NAME:PASSWORD:GROUP`);
  return {
    username: spec.slice(0, first),
    password: spec.slice(first + 1, last),
    groupId: positive("user group", spec.slice(last + 1)),
  };
}

const Body = z.union([
  z.object({ username: z.string().min(1), password: z.string().min(1) }).strict(),
  z
    .object({
      partnerId: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)]),
      partnerUserId: z.string().min(1).max(255),
      loginKey: z.string(),
    })
    .strict(),
]);

const unauthorized = (message: string) => new ApiError(401, "unauthorized", message);

/** The signature of a login key, as the vendor defines it. */
export function loginKeySignature(apiKey: string, partnerId: number, partnerUserId: string, expiry: number): string {
  return createHmac("sha256", apiKey).update(`${partnerId}${partnerUserId}1${expiry}`).digest("base64url");
}

function verifyLoginKey(loginKey: string, apiKey: string, partnerId: number, partnerUserId: string): void {
  const m = /^\$1\$(\d{1,12})\$([A-Za-z0-9_-]{43})$/.exec(loginKey);
  if (!m) throw unauthorized("login key is malformed: expected $1$<expiry>$<signature> (57 characters)");
  const expiry = Number(m[1]);
  const now = Math.floor(Date.now() / 1000);
  if (expiry <= now) throw unauthorized("login key has expired");
  if (expiry > now + LOGIN_KEY_MAX_AHEAD_S) throw unauthorized("login key expires more than one day ahead");
  const expected = Buffer.from(loginKeySignature(apiKey, partnerId, partnerUserId, expiry));
  const given = Buffer.from(m[2] as string);
  if (!timingSafeEqual(expected, given)) throw unauthorized("login key signature does not match the group's API key");
}

export interface AuthorizationDeps {
  auth: Auth;
  apiKeys: readonly ApiKeyGrant[];
  users: readonly UserGrant[];
  /** Caps the lifetime of issued tokens, in seconds (tests shorten it); else `duration` minutes. */
  tokenLifetimeSeconds?: number;
}

/** The authorization endpoint, `POST /authorize` on the authorization server. */
export function authorizationRoutes(deps: AuthorizationDeps): Route[] {
  const keys = new Map(deps.apiKeys.map((k) => [k.groupId, k.apiKey]));
  const users = new Map(deps.users.map((u) => [u.username, u]));
  return [
    {
      method: "POST",
      path: compileTemplate("/authorize"),
      kind: "authorization",
      handle: (ctx) => {
        const service = ctx.query.get("service");
        if (service !== "webservices" && service !== "presence") {
          throw new ApiError(
            400,
            "validation_failed",
            `service: must be "webservices" or "presence", got ${JSON.stringify(service)}`,
          );
        }
        const durationText = ctx.query.get("duration") ?? "";
        const duration = Number(durationText);
        if (!/^\d{1,3}$/.test(durationText) || duration < 1 || duration > 120) {
          throw new ApiError(
            400,
            "validation_failed",
            `duration: must be 1 to 120 minutes, got ${JSON.stringify(durationText)}`,
          );
        }
        const parsed = Body.safeParse(parseJson(ctx.body));
        if (!parsed.success) {
          throw new ApiError(
            400,
            "validation_failed",
            "body: expected {username, password} or {partnerId, partnerUserId, loginKey}",
          );
        }
        let groupId: number;
        if ("username" in parsed.data) {
          const user = users.get(parsed.data.username);
          if (!user || user.password !== parsed.data.password)
            throw unauthorized("unknown user name or wrong password");
          groupId = user.groupId;
        } else {
          groupId = Number(parsed.data.partnerId);
          const apiKey = keys.get(groupId);
          if (apiKey === undefined) throw unauthorized(`group ${groupId} has no API key`);
          verifyLoginKey(parsed.data.loginKey, apiKey, groupId, parsed.data.partnerUserId);
        }
        const lifetimeS = Math.min(duration * 60, deps.tokenLifetimeSeconds ?? Infinity);
        const { token, expiresAt } = deps.auth.issue(groupId, service as ServiceName, lifetimeS * 1000);
        return {
          status: 200,
          body: {
            authToken: token,
            authTokeExp: new Date(expiresAt).toISOString(),
            groupId,
            service,
            gssnId: `emulator-${groupId}`,
            privilegeString: "",
            isTrial: false,
          },
        };
      },
    },
  ];
}
