/**
 * Where access tokens come from. The service issues a token for one group (and one service) that
 * lasts 1 to 120 minutes, so a client that manages several groups over a long run needs a token per
 * group, fetched from the authorization service and renewed. Token sources answer "the token for this
 * group and service", and say what they are in messages without ever showing a value.
 */
import { ConfigurationError } from "./errors";
import { registerSecret } from "./redact";

/** The service a token is for: the roles REST interface, or the presence interface. */
export type ServiceName = "webservices" | "presence";

/** A source of access tokens. */
export interface TokenSource {
  /** The token to send for `groupId` and `service`: cached where the source fetches tokens. */
  token(groupId: number, service: ServiceName): Promise<string>;
  /**
   * The service refused `token` (401): forget it. True when a fresh one can be fetched, so the
   * request is worth sending once more; false for a token given as it is.
   */
  renew(groupId: number, service: ServiceName, token: string): boolean;
  /** What the credential is, for messages: `the API key of group 42 (grouproles:apiKeys)`; never a value. */
  describe(groupId: number): string;
}

/** One token for every group: `grouproles:accessToken`, or a function returning the current one. */
export function staticToken(token: string | (() => string | undefined), origin: string): TokenSource {
  const read = typeof token === "function" ? token : () => token;
  return {
    async token() {
      const t = read();
      if (!t) throw new ConfigurationError(`no access token: ${origin} is not set`);
      registerSecret(t);
      return t;
    },
    renew: () => false,
    describe: () => `the access token (${origin})`,
  };
}

/**
 * A token per group (`grouproles:accessTokens`), with an optional token for every other group. A
 * group with neither fails before any request, naming the key.
 */
export function tokensByGroup(
  tokens: ReadonlyMap<number, string>,
  origin: string,
  fallback?: TokenSource,
): TokenSource {
  for (const t of tokens.values()) registerSecret(t);
  return {
    async token(groupId, service) {
      const t = tokens.get(groupId);
      if (t !== undefined) return t;
      if (fallback) return fallback.token(groupId, service);
      const known = [...tokens.keys()].sort((a, b) => a - b).join(", ");
      throw new ConfigurationError(
        `no access token for group ${groupId}: ${origin} has tokens for groups ${known || "none"}`,
      );
    },
    renew: () => false,
    describe: (groupId) =>
      tokens.has(groupId) || !fallback
        ? `the access token of group ${groupId} (${origin})`
        : fallback.describe(groupId),
  };
}

/**
 * The message for a key of a group map (`accessTokens`, `apiKeys`) that is not a group ID, naming its
 * position, never the key: a map written backwards (`{"<token>": "42"}`) has the secret there.
 */
export function notAGroupKey(field: string, index: number, count: number): string {
  return (
    `${field}: key ${index + 1} of ${count} is not a group ID (a positive integer, e.g. "42"); the map goes ` +
    `from group ID to value, {"42": "..."}: is it written backwards? (the key is not shown: it may be the secret)`
  );
}
