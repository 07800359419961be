/**
 * Which credential the stack configures, read at call time and checked before any request.
 *
 * Three kinds, exactly one at a time:
 * - tokens as they are: `grouproles:accessToken` (every group) and/or `grouproles:accessTokens` (a
 *   JSON map of group ID to token; `accessToken` then serves the groups it does not list);
 * - a group's API key, from which the client signs login keys and fetches tokens at
 *   `grouproles:authUrl`: `grouproles:apiKey` (every group) or `grouproles:apiKeys` (JSON map of
 *   group ID to key), with `grouproles:partnerUserId`;
 * - a user: `grouproles:username` and `grouproles:password`, with `grouproles:authUrl`.
 * Precedence: when any credential key is set in the stack config, the environment's credential
 * variables are ignored, never mixed in; otherwise they are read (`GROUPROLES_ACCESS_TOKEN`, ...).
 * Two kinds set in the same place is a conflict, named in the error.
 */
import { createHash } from "node:crypto";
import type { ClientOptions } from "../client";
import { notAGroupKey, staticToken, tokensByGroup, type TokenSource } from "../client/credentials";
import { ConfigurationError } from "../client/errors";
import type { ConfigSource } from "./source";

/**
 * No credential is set at all. Its own class so that a check which also finds a credential under a
 * mistyped key (`grouproles:acessToken`) can leave it out: that key is the one to fix, and "no
 * credentials" beside it would send the user to the stack config (provider/shared/config-check.ts).
 */
export class NoCredentialsError extends ConfigurationError {}

/** The credential settings, stack config key and environment variable. */
export const CREDENTIAL_KEYS = {
  accessToken: ["grouproles:accessToken", "GROUPROLES_ACCESS_TOKEN"],
  accessTokens: ["grouproles:accessTokens", "GROUPROLES_ACCESS_TOKENS"],
  apiKey: ["grouproles:apiKey", "GROUPROLES_API_KEY"],
  apiKeys: ["grouproles:apiKeys", "GROUPROLES_API_KEYS"],
  username: ["grouproles:username", "GROUPROLES_USERNAME"],
  password: ["grouproles:password", "GROUPROLES_PASSWORD"],
} as const;

/** Settings of the authorization service, read config first, then environment, like any other. */
export const AUTHORIZATION_KEYS = {
  authUrl: ["grouproles:authUrl", "GROUPROLES_AUTH_URL"],
  partnerUserId: ["grouproles:partnerUserId", "GROUPROLES_PARTNER_USER_ID"],
  tokenMinutes: ["grouproles:tokenMinutes", "GROUPROLES_TOKEN_MINUTES"],
  site: ["grouproles:site", "GROUPROLES_SITE"],
} as const;

type CredentialKey = keyof typeof CREDENTIAL_KEYS;

/** Which credential is configured, for messages and for the client's cache key. */
export interface ResolvedCredentials {
  kind: "tokens" | "apiKey" | "user";
  /** The client options it amounts to. */
  client: Pick<ClientOptions, "tokens" | "authorization">;
  /** A hash of every credential setting: a changed (rotated) credential gets a new client. */
  fingerprint: string;
}

/** A value, or undefined when unset, empty or blank: an empty CI secret (`${{ secrets.X }}`) counts as unset. */
const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v);

/** Set, but empty or blank: named in the "no credentials" error, which would otherwise puzzle. */
const blank = (v: string | undefined) => v !== undefined && v.trim() === "";

/**
 * A bearer token goes into the Authorization header as it is: one with a space, a line break or a
 * control character (a token file's trailing newline) can never be accepted, so it fails here, named.
 */
function checkToken(token: string, where: string): void {
  if (/[\s\u0000-\u001f\u007f]/.test(token))
    throw new ConfigurationError(
      `${where} must not contain spaces, line breaks or control characters (no access token holds one; look ` +
        "for a trailing newline copied with it)",
    );
}

/** A JSON map of group ID to a secret; messages never show the value. */
function groupMap(text: string, name: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigurationError(
      `${name} must be a JSON object of group ID to value, e.g. {"42": "..."}; it is not JSON`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigurationError(`${name} must be a JSON object of group ID to value, e.g. {"42": "..."}`);
  }
  const entries = Object.entries(parsed);
  for (const [index, [group, value]] of entries.entries()) {
    if (!/^[1-9]\d*$/.test(group) || !Number.isSafeInteger(Number(group)))
      throw new ConfigurationError(notAGroupKey(name, index, entries.length));
    if (typeof value !== "string" || value === "") {
      throw new ConfigurationError(`${name}: the value for group ${group} must be a non-empty string`);
    }
  }
  return parsed as Record<string, string>;
}

/**
 * Reads the credential settings from the stack config, or else the environment.
 * @throws ConfigurationError for a missing, conflicting or malformed setting, naming the keys.
 */
export function resolveCredentials(
  config: ConfigSource | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedCredentials {
  const fromConfig = (Object.keys(CREDENTIAL_KEYS) as CredentialKey[]).some((k) =>
    nonEmpty(config?.get(CREDENTIAL_KEYS[k][0])),
  );
  const place = fromConfig ? 0 : 1;
  const name = (k: CredentialKey) => CREDENTIAL_KEYS[k][place];
  const get = (k: CredentialKey) =>
    nonEmpty(fromConfig ? config?.get(CREDENTIAL_KEYS[k][0]) : env[CREDENTIAL_KEYS[k][1]]);
  const setting = (k: keyof typeof AUTHORIZATION_KEYS) =>
    nonEmpty(config?.get(AUTHORIZATION_KEYS[k][0])) ?? nonEmpty(env[AUTHORIZATION_KEYS[k][1]]);

  const set = (Object.keys(CREDENTIAL_KEYS) as CredentialKey[]).filter((k) => get(k) !== undefined);
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify([
        ...set.map((k) => [k, get(k)]),
        ...Object.keys(AUTHORIZATION_KEYS).map((k) => setting(k as never)),
      ]),
    )
    .digest("hex");
  const kinds = new Set(set.map((k) => (k.startsWith("access") ? "tokens" : k.startsWith("api") ? "apiKey" : "user")));
  if (kinds.size > 1) {
    throw new ConfigurationError(
      `conflicting credentials: ${set.map(name).join(", ")} are set; set one kind: ${name("accessToken")} and/or ` +
        `${name("accessTokens")}, or ${name("apiKey")} or ${name("apiKeys")} (with grouproles:partnerUserId), or ` +
        `${name("username")} and ${name("password")}`,
    );
  }
  const kind = [...kinds][0];
  if (kind === undefined) {
    const empty = (Object.keys(CREDENTIAL_KEYS) as CredentialKey[]).flatMap((k) => [
      ...(blank(config?.get(CREDENTIAL_KEYS[k][0])) ? [CREDENTIAL_KEYS[k][0]] : []),
      ...(blank(env[CREDENTIAL_KEYS[k][1]]) ? [CREDENTIAL_KEYS[k][1]] : []),
    ]);
    const emptyNote = empty.length ? `${empty.join(", ")} ${empty.length === 1 ? "is" : "are"} set but empty; ` : "";
    throw new NoCredentialsError(
      `no credentials: ${emptyNote}set ` +
        "`pulumi config set --secret grouproles:accessToken <token>` (one token), " +
        "grouproles:accessTokens (a token per group), grouproles:apiKey or grouproles:apiKeys with " +
        "grouproles:partnerUserId and grouproles:authUrl (tokens fetched and renewed), or grouproles:username and " +
        "grouproles:password with grouproles:authUrl; or the same in the environment (GROUPROLES_ACCESS_TOKEN, " +
        "GROUPROLES_ACCESS_TOKENS, GROUPROLES_API_KEY, GROUPROLES_API_KEYS, GROUPROLES_USERNAME, GROUPROLES_PASSWORD)",
    );
  }
  if (kind === "tokens") {
    const single = get("accessToken");
    if (single !== undefined) checkToken(single, name("accessToken"));
    const one = single !== undefined ? staticToken(single, name("accessToken")) : undefined;
    const mapText = get("accessTokens");
    if (mapText === undefined) return { kind, fingerprint, client: { tokens: one as TokenSource } };
    const map = groupMap(mapText, name("accessTokens"));
    for (const [group, token] of Object.entries(map))
      checkToken(token, `${name("accessTokens")}: the token of group ${group}`);
    const byGroup = new Map(Object.entries(map).map(([g, t]) => [Number(g), t]));
    return { kind, fingerprint, client: { tokens: tokensByGroup(byGroup, name("accessTokens"), one) } };
  }
  const authUrl = setting("authUrl");
  if (!authUrl)
    throw new ConfigurationError(`${set.map(name).join(" and ")} need grouproles:authUrl, the authorization endpoint`);
  const minutesText = setting("tokenMinutes");
  const tokenMinutes = minutesText === undefined ? 120 : Number(minutesText);
  if (!/^\d+$/.test(minutesText ?? "120") || tokenMinutes < 1 || tokenMinutes > 120) {
    throw new ConfigurationError(
      `grouproles:tokenMinutes must be a whole number of minutes from 1 to 120, got ${JSON.stringify(minutesText)}`,
    );
  }
  const site = setting("site");
  const common = { authUrl, tokenMinutes, ...(site ? { site } : {}) };
  if (kind === "user") {
    const username = get("username");
    const password = get("password");
    if (!username || !password)
      throw new ConfigurationError(`${name("username")} and ${name("password")} must both be set`);
    return {
      kind,
      fingerprint,
      client: {
        authorization: { ...common, credential: { kind: "user", username, password, origin: name("password") } },
      },
    };
  }
  if (get("apiKey") !== undefined && get("apiKeys") !== undefined) {
    throw new ConfigurationError(
      `conflicting credentials: set ${name("apiKey")} (every group) or ${name("apiKeys")} (per group), not both`,
    );
  }
  const partnerUserId = setting("partnerUserId");
  if (!partnerUserId || partnerUserId.length > 255) {
    throw new ConfigurationError(
      "grouproles:partnerUserId (your user identifier, at most 255 characters) must be set with an API key",
    );
  }
  const single = get("apiKey");
  const map = single === undefined ? groupMap(get("apiKeys") as string, name("apiKeys")) : undefined;
  const apiKeyFor = (groupId: number) => single ?? map?.[String(groupId)];
  const origin = single !== undefined ? name("apiKey") : name("apiKeys");
  return {
    kind,
    fingerprint,
    client: { authorization: { ...common, credential: { kind: "apiKey", apiKeyFor, partnerUserId, origin } } },
  };
}
