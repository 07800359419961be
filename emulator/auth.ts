/**
 * Bearer tokens and the groups each one may touch: static tokens given at start (`--token`, the
 * development token), and tokens the authorization endpoint issues (./authorization), each for one
 * group and one service, until it expires. Tokens are opaque to clients: nothing on the client side
 * may depend on their content.
 */
import { randomBytes } from "node:crypto";
import { ApiError } from "./errors";

/** What a token is issued for: the roles REST interface, or the presence interface. */
export type ServiceName = "webservices" | "presence";

interface Issued {
  groupId: number;
  service: ServiceName;
  expiresAt: number;
}

/** A JWT-shaped opaque token: the real service issues JWTs, clients must not read them. */
function newToken(groupId: number, service: ServiceName): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ grp: groupId, svc: service })}.${randomBytes(24).toString("base64url")}`;
}

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

/** Checks the Authorization header of every request against the configured grants and issued tokens. */
export class Auth {
  private readonly grants = new Map<string, ReadonlySet<number> | "all">();
  private readonly issued = new Map<string, Issued>();

  /** Issues a token for one group and one service, valid for `lifetimeMs`. */
  issue(groupId: number, service: ServiceName, lifetimeMs: number): { token: string; expiresAt: number } {
    const token = newToken(groupId, service);
    const expiresAt = Date.now() + lifetimeMs;
    this.issued.set(token, { groupId, service, expiresAt });
    return { token, expiresAt };
  }

  constructor(grants: readonly (TokenGrant | string)[]) {
    const list = grants.length ? grants : [{ token: DEV_TOKEN }];
    for (const g of list) {
      const grant = typeof g === "string" ? parseTokenSpec(g) : g;
      this.grants.set(grant.token, grant.groups ? new Set(grant.groups) : "all");
    }
  }

  /**
   * Returns the caller's token when it is an admin token: one given at start with no group (`--token
   * TOKEN`, or the development token when none is given). Throws 401 for a missing or unknown token,
   * 403 for any other: a token limited to groups, or one the authorization endpoint issued, must not
   * read other groups' roles, other callers' requests, or reset everything.
   */
  checkAdmin(authorization: string | undefined): string {
    const token = this.check(authorization);
    if (this.grants.get(token) === "all") return token;
    throw new ApiError(
      403,
      "forbidden",
      "the /_emulator routes need the admin token (one given with --token and no group); this token is limited to its groups",
    );
  }

  /** The configured admin tokens (no group), first one first. */
  adminTokens(): string[] {
    return [...this.grants].filter(([, groups]) => groups === "all").map(([token]) => token);
  }

  /** The configured tokens, first one first. */
  tokens(): string[] {
    return [...this.grants.keys()];
  }

  /**
   * Returns the caller's token, or throws 401 (missing or unknown token) / 403 (token not granted
   * `groupId`). Messages never echo the token.
   */
  check(authorization: string | undefined, groupId?: number, service?: ServiceName): string {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!m) {
      throw new ApiError(401, "unauthorized", "missing bearer token: send 'Authorization: Bearer <token>'");
    }
    const token = m[1] as string;
    const issued = this.issued.get(token);
    if (issued) {
      if (Date.now() >= issued.expiresAt) throw new ApiError(401, "unauthorized", "unknown or expired access token");
      if (groupId !== undefined && issued.groupId !== groupId) {
        throw new ApiError(
          403,
          "forbidden",
          `access token is not granted group ${groupId} (it was issued for one other group)`,
        );
      }
      if (service !== undefined && issued.service !== service) {
        throw new ApiError(
          403,
          "forbidden",
          `access token was issued for service "${issued.service}", not "${service}"`,
        );
      }
      return token;
    }
    const grant = this.grants.get(token);
    if (!grant) throw new ApiError(401, "unauthorized", "unknown or expired access token");
    if (groupId !== undefined && grant !== "all" && !grant.has(groupId)) {
      throw new ApiError(403, "forbidden", `access token is not granted group ${groupId}`);
    }
    return token;
  }
}
