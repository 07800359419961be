/**
 * Bearer tokens and the groups each one may touch. Tokens are opaque strings here: the real service
 * issues JWTs, but nothing on the client side may depend on their content, so the emulator does not
 * pretend to verify any.
 */
import { ApiError } from "./errors";

/** A token and the groups it is granted; no `groups` means every group. */
export interface TokenGrant {
  token: string;
  groups?: readonly number[];
}

/** The development token used when no token is configured. */
export const DEV_TOKEN = "dev-token";

/**
 * Parses `TOKEN` or `TOKEN:GROUP[,GROUP...]` (the CLI's `--token` form).
 * @throws Error on an empty token or a group that is not a positive integer.
 */
export function parseTokenSpec(spec: string): TokenGrant {
  const colon = spec.indexOf(":");
  const token = colon < 0 ? spec : spec.slice(0, colon);
  if (!token) throw new Error(`invalid token spec "${spec}": empty token`);
  if (colon < 0) return { token };
  const groups = spec
    .slice(colon + 1)
    .split(",")
    .map((g) => {
      const n = Number(g);
      if (!/^[1-9]\d*$/.test(g) || !Number.isSafeInteger(n)) {
        throw new Error(`invalid token spec for "${token}": group "${g}" is not a positive integer`);
      }
      return n;
    });
  return { token, groups };
}

/** Checks the Authorization header of every request against the configured grants. */
export class Auth {
  private readonly grants = new Map<string, ReadonlySet<number> | "all">();

  constructor(grants: readonly (TokenGrant | string)[]) {
    const list = grants.length ? grants : [{ token: DEV_TOKEN }];
    for (const g of list) {
      const grant = typeof g === "string" ? parseTokenSpec(g) : g;
      this.grants.set(grant.token, grant.groups ? new Set(grant.groups) : "all");
    }
  }

  /** The configured tokens, first one first. */
  tokens(): string[] {
    return [...this.grants.keys()];
  }

  /**
   * Returns the caller's token, or throws 401 (missing or unknown token) / 403 (token not granted
   * `groupId`). Messages never echo the token.
   */
  check(authorization: string | undefined, groupId?: number): string {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!m) {
      throw new ApiError(401, "unauthorized", "missing bearer token: send 'Authorization: Bearer <token>'");
    }
    const token = m[1] as string;
    const grant = this.grants.get(token);
    if (!grant) throw new ApiError(401, "unauthorized", "unknown or expired access token");
    if (groupId !== undefined && grant !== "all" && !grant.has(groupId)) {
      throw new ApiError(403, "forbidden", `access token is not granted group ${groupId}`);
    }
    return token;
  }
}
