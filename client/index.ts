/**
 * Typed client of the Group Roles service: roles (`{baseUrl}/api/v0`) and presence (`{presenceUrl}` and
 * the named presence servers).
 *
 * @example
 * const client = new GroupRolesClient({ baseUrl: "https://api.example.com", accessToken: token });
 * const roles = await client.roles.list(42);
 */
// First: on an older Node, fail naming the version needed (./node-version), not deep inside undici.
import "./node-version";
import { authorizedTokens, type AuthorizationOptions } from "./authorization";
import { notAGroupKey, staticToken, tokensByGroup, type TokenSource } from "./credentials";
import { ConfigurationError } from "./errors";
import { PresenceApi } from "./presence";
import { parsePresenceServerDomains } from "./presence-hosts";
import { RolesApi } from "./roles";
import { Transport, type TransportOptions } from "./transport";
import { seamsOf } from "./seams";
import { parseServiceUrl } from "./urls";

/**
 * Options of {@link GroupRolesClient}. Credentials: give exactly one of `accessToken` and/or
 * `accessTokens` (tokens as they are), `authorization` (tokens fetched and renewed by the client), or
 * `tokens` (any {@link TokenSource}).
 */
export interface ClientOptions extends Omit<TransportOptions, "tokens"> {
  /** Root of the roles interface, e.g. `https://api.example.com`. Required for `roles`. */
  baseUrl?: string;
  /** The presence load balancer, e.g. `https://presence.example.com`. Required for `presence`. */
  presenceUrl?: string;
  /**
   * One bearer token for every group, or a function that returns the current one. With
   * `accessTokens`, it serves the groups that map does not list. Never logged, never in errors.
   */
  accessToken?: string | (() => string | undefined);
  /** A bearer token per group ID (the service issues tokens for one group). */
  accessTokens?: Readonly<Record<string, string>>;
  /** Fetch a token per group (and service) from the authorization service, renewed before it expires. */
  authorization?: AuthorizationOptions;
  /** Any source of tokens. */
  tokens?: TokenSource;
  /**
   * Accept plain `http://` for non-loopback hosts. Loopback hosts (the emulator) are always accepted.
   * @default false
   */
  allowInsecureHttp?: boolean;
  /**
   * Where named presence servers may be besides the default rule (the load balancer's host and its
   * siblings under the same parent domain): domains, each allowing itself and the hosts under it, or
   * IP addresses. The access token is sent only to named servers that pass.
   * @default []
   */
  presenceServerDomains?: readonly string[];
}

/** The token source the options describe. @throws ConfigurationError unless exactly one kind is given. */
function tokenSource(options: ClientOptions, transport: () => Transport): TokenSource {
  const kinds = [
    options.accessToken !== undefined || options.accessTokens !== undefined ? "accessToken/accessTokens" : undefined,
    options.authorization !== undefined ? "authorization" : undefined,
    options.tokens !== undefined ? "tokens" : undefined,
  ].filter((k): k is string => k !== undefined);
  if (kinds.length !== 1) {
    throw new ConfigurationError(
      kinds.length === 0
        ? "no credentials: give accessToken, accessTokens, authorization or tokens"
        : `give one kind of credentials, got ${kinds.join(" and ")}`,
    );
  }
  if (options.tokens) return options.tokens;
  if (options.authorization) {
    const url = parseServiceUrl(options.authorization.authUrl, "authUrl", options.allowInsecureHttp);
    return authorizedTokens(options.authorization, url, transport, seamsOf(options).now);
  }
  const single = options.accessToken !== undefined ? staticToken(options.accessToken, "accessToken") : undefined;
  if (options.accessTokens === undefined) return single as TokenSource;
  const byGroup = new Map<number, string>();
  const entries = Object.entries(options.accessTokens);
  for (const [index, [group, token]] of entries.entries()) {
    const id = Number(group);
    if (!/^[1-9]\d*$/.test(group) || !Number.isSafeInteger(id))
      throw new ConfigurationError(notAGroupKey("accessTokens", index, entries.length));
    if (typeof token !== "string" || token === "")
      throw new ConfigurationError(`accessTokens: the token of group ${group} must be a non-empty string`);
    byGroup.set(id, token);
  }
  return tokensByGroup(byGroup, "accessTokens", single);
}

export class GroupRolesClient {
  private readonly transport: Transport;
  private rolesApi?: RolesApi;
  private presenceApi?: PresenceApi;

  /** @throws ConfigurationError when a URL is malformed or insecure. */
  constructor(options: ClientOptions) {
    // The authorization requests go through this same transport (no token, no redirects).
    const transport: Transport = new Transport(
      { ...options, tokens: tokenSource(options, () => transport) },
      seamsOf(options),
    );
    this.transport = transport;
    // Validate eagerly, so a bad URL fails before any request.
    if (options.baseUrl !== undefined)
      this.rolesApi = new RolesApi(
        this.transport,
        parseServiceUrl(options.baseUrl, "baseUrl", options.allowInsecureHttp),
      );
    const domains = parsePresenceServerDomains(options.presenceServerDomains, "presenceServerDomains");
    if (options.presenceUrl !== undefined) {
      const presenceUrl = parseServiceUrl(options.presenceUrl, "presenceUrl", options.allowInsecureHttp);
      this.presenceApi = new PresenceApi(this.transport, presenceUrl, domains);
    }
  }

  /** The roles endpoints. @throws ConfigurationError when no baseUrl was given. */
  get roles(): RolesApi {
    if (!this.rolesApi) throw new ConfigurationError("baseUrl is not set (grouproles:baseUrl or GROUPROLES_BASE_URL)");
    return this.rolesApi;
  }

  /** The presence endpoints. @throws ConfigurationError when no presenceUrl was given. */
  get presence(): PresenceApi {
    if (!this.presenceApi)
      throw new ConfigurationError("presenceUrl is not set (grouproles:presenceUrl or GROUPROLES_PRESENCE_URL)");
    return this.presenceApi;
  }
}

export {
  GroupRolesError,
  ReplyTooLargeError,
  ConnectionError,
  UnexpectedReplyError,
  ConfigurationError,
  VisitorNotConnectedError,
  type GroupRolesErrorCode,
  type GroupRolesErrorOptions,
  type RequestInfo,
} from "./errors";
export {
  HttpStatusError,
  RedirectError,
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  RoleInUseError,
  NameTakenError,
  ValidationError,
  RateLimitedError,
  ServerError,
} from "./status-errors";
export {
  TimeoutError,
  ConnectTimeoutError,
  HeadersTimeoutError,
  BodyTimeoutError,
  DeadlineExceededError,
  type TimeoutPhase,
} from "./timeout-errors";
export type * from "./types";
export type { RetryOptions } from "./retry";
export type { ServiceName, TokenSource } from "./credentials";
export type { AuthorizationCredential, AuthorizationOptions } from "./authorization";
export type { TimeoutOptions, TransportOptions } from "./transport";
export type { PresenceApi } from "./presence";
export type { RolesApi, RequestOptions } from "./roles";
