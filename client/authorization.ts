/**
 * Tokens from the authorization service: one per group and service, fetched on first use (one request
 * however many callers ask at once), kept in memory only, reused until shortly before they expire, and
 * fetched again once when the service refuses one (401). The vendor asks clients to re-authorize only
 * when a token expires: authorization is expensive on their side.
 *
 * The request is a POST to the configured `authUrl` only, with query parameters `service`, `duration`
 * (minutes) and optionally `site`, and a JSON body: `{partnerId, partnerUserId, loginKey}` signed with
 * the group's API key, or `{username, password}`. The reply carries `authToken` and `authTokeExp`.
 */
import { createHmac } from "node:crypto";
import { z } from "zod";
import type { ServiceName, TokenSource } from "./credentials";
import { ConfigurationError, GroupRolesError } from "./errors";
import { AuthenticationError, ForbiddenError } from "./status-errors";
import { registerSecret } from "./redact";
import type { Transport } from "./transport";
import type { ServiceUrl } from "./urls";

/** The credential the authorization service is asked with. */
export type AuthorizationCredential =
  | {
      kind: "apiKey";
      /** The API key of a group, or undefined when the configuration has none for it. */
      apiKeyFor(groupId: number): string | undefined;
      /** The caller's own user identifier (up to 255 characters), part of every login key. */
      partnerUserId: string;
      /** Where the key came from, for messages, e.g. `grouproles:apiKeys`. */
      origin: string;
    }
  | { kind: "user"; username: string; password: string; origin: string };

/** How the client obtains tokens from the authorization service. */
export interface AuthorizationOptions {
  /** The authorization endpoint, e.g. `https://auth.example.com/authorize` (configuration only). */
  authUrl: string;
  credential: AuthorizationCredential;
  /**
   * Lifetime asked for each token, in minutes (the service allows 1 to 120).
   * @default 120
   */
  tokenMinutes?: number;
  /** The `site` query parameter, e.g. `production`; omitted when unset. */
  site?: string;
}

/** The reply fields the client needs; others (`gssnId`, `privilegeString`, ...) are ignored. */
const WireAuthorization = z.object({
  authToken: z.string().min(1),
  authTokeExp: z.string().optional(),
  groupId: z.union([z.number(), z.string()]).optional(),
});

/** How long login keys the client signs are valid (the service allows at most one day). */
const LOGIN_KEY_VALIDITY_S = 5 * 60;

/** `$1$<expiry>$<signature>`: the vendor's login key, signed with the group's API key. */
export function loginKey(apiKey: string, partnerId: number, partnerUserId: string, nowMs = Date.now()): string {
  const expiry = Math.floor(nowMs / 1000) + LOGIN_KEY_VALIDITY_S;
  const signature = createHmac("sha256", apiKey).update(`${partnerId}${partnerUserId}1${expiry}`).digest("base64url");
  return `$1$${expiry}$${signature}`;
}

/** A token counts as expired this long before its expiry: 2% of its lifetime, at most 30 s (clock skew). */
const renewMargin = (lifetimeMs: number) => Math.min(30_000, lifetimeMs * 0.02);

interface Cached {
  token: string;
  /** Renew from this time on. */
  renewAt: number;
}

function describeCredential(c: AuthorizationCredential, groupId: number): string {
  return c.kind === "apiKey"
    ? `the API key of group ${groupId} (${c.origin})`
    : `the user "${c.username}" (${c.origin})`;
}

export function authorizedTokens(
  options: AuthorizationOptions,
  authUrl: ServiceUrl,
  /** The client's transport (a getter: the client builds it with this source). */
  transport: () => Transport,
  now: () => number = Date.now,
): TokenSource {
  const minutes = options.tokenMinutes ?? 120;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 120) {
    throw new ConfigurationError(`tokenMinutes must be an integer from 1 to 120, got ${minutes}`);
  }
  const { credential } = options;
  if (credential.kind === "user") registerSecret(credential.password);
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<string>>();

  async function authorize(groupId: number, service: ServiceName): Promise<Cached> {
    const describe = describeCredential(credential, groupId);
    let body: Record<string, unknown>;
    if (credential.kind === "apiKey") {
      const apiKey = credential.apiKeyFor(groupId);
      if (apiKey === undefined) throw new ConfigurationError(`no API key for group ${groupId} in ${credential.origin}`);
      registerSecret(apiKey);
      const key = loginKey(apiKey, groupId, credential.partnerUserId, now());
      registerSecret(key);
      body = { partnerId: groupId, partnerUserId: credential.partnerUserId, loginKey: key };
    } else {
      body = { username: credential.username, password: credential.password };
    }
    const query = new URLSearchParams({
      service,
      duration: String(minutes),
      ...(options.site ? { site: options.site } : {}),
    });
    const started = now();
    let reply: z.infer<typeof WireAuthorization>;
    try {
      reply = await transport().call({
        method: "POST",
        origin: authUrl.origin,
        path: `${authUrl.basePath}?${query}`,
        body,
        schema: WireAuthorization,
        // Asking again after a lost reply only costs another token.
        idempotent: true,
      });
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof ForbiddenError) {
        throw error.rephrase(
          `authorizing for group ${groupId} (${service}) with ${describe} was refused: ${error.message}`,
        );
      }
      throw error instanceof GroupRolesError
        ? error.withContext(`authorizing for group ${groupId} (${service})`)
        : error;
    }
    registerSecret(reply.authToken);
    if (reply.groupId !== undefined && Number(reply.groupId) !== groupId) {
      throw new ForbiddenError(`${describe} belongs to group ${String(reply.groupId)}, not group ${groupId}`);
    }
    const expiresAt = reply.authTokeExp ? Date.parse(reply.authTokeExp) : NaN;
    // An expiry already past (a skewed clock) would loop: then trust the lifetime asked for.
    const end = Number.isFinite(expiresAt) && expiresAt > started ? expiresAt : started + minutes * 60_000;
    return { token: reply.authToken, renewAt: end - renewMargin(end - started) };
  }

  return {
    async token(groupId, service) {
      const key = `${groupId}|${service}`;
      const cached = cache.get(key);
      if (cached && now() < cached.renewAt) return cached.token;
      let flight = pending.get(key);
      if (!flight) {
        flight = authorize(groupId, service)
          .then((fresh) => {
            cache.set(key, fresh);
            return fresh.token;
          })
          .finally(() => pending.delete(key));
        pending.set(key, flight);
      }
      return flight;
    },
    renew(groupId, service, token) {
      const key = `${groupId}|${service}`;
      if (cache.get(key)?.token === token) cache.delete(key);
      return true;
    },
    describe: (groupId) => describeCredential(credential, groupId),
  };
}
