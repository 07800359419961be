/**
 * Typed client of the Group Roles service: roles (`{baseUrl}/api/v0`) and presence (`{presenceUrl}` and
 * the named presence servers).
 *
 * @example
 * const client = new GroupRolesClient({ baseUrl: "https://api.example.com", accessToken: token });
 * const roles = await client.roles.list(42);
 */
import { ConfigurationError } from "./errors";
import { PresenceApi } from "./presence";
import { parsePresenceServerDomains } from "./presence-hosts";
import { RolesApi } from "./roles";
import { Transport, type TransportOptions } from "./transport";
import { parseServiceUrl } from "./urls";

export interface ClientOptions extends Omit<TransportOptions, "accessToken"> {
  /** Root of the roles interface, e.g. `https://api.example.com`. Required for `roles`. */
  baseUrl?: string;
  /** The presence load balancer, e.g. `https://presence.example.com`. Required for `presence`. */
  presenceUrl?: string;
  /** Bearer token, or a function that returns the current one. Never logged, never in errors. */
  accessToken: string | (() => string | undefined);
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
  // authUrl: the authorization service comes in a later change; it must be reached only at its
  // configured URL (never an address a reply names), through the same transport (no redirects).
}

export class GroupRolesClient {
  private readonly transport: Transport;
  private rolesApi?: RolesApi;
  private presenceApi?: PresenceApi;

  /** @throws ConfigurationError when a URL is malformed or insecure. */
  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    // Validate eagerly, so a bad URL fails before any request.
    if (options.baseUrl !== undefined) this.rolesApi = new RolesApi(this.transport, parseServiceUrl(options.baseUrl, "baseUrl", options.allowInsecureHttp));
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
    if (!this.presenceApi) throw new ConfigurationError("presenceUrl is not set (grouproles:presenceUrl or GROUPROLES_PRESENCE_URL)");
    return this.presenceApi;
  }
}

export {
  GroupRolesError, HttpStatusError, RedirectError, AuthenticationError, ForbiddenError, NotFoundError, ConflictError,
  RoleInUseError, NameTakenError, ValidationError, RateLimitedError, ServerError, TimeoutError, ConnectTimeoutError,
  HeadersTimeoutError, BodyTimeoutError, ConnectionError, UnexpectedReplyError, ConfigurationError,
  VisitorNotConnectedError, RoleNotAppliedError, ImportMismatchError,
  type GroupRolesErrorCode, type GroupRolesErrorOptions, type RequestInfo, type TimeoutPhase,
} from "./errors";
export type * from "./types";
export type { RetryOptions } from "./retry";
export type { TimeoutOptions, TransportOptions } from "./transport";
export type { PresenceApi } from "./presence";
export type { RolesApi, RequestOptions } from "./roles";
export * as wire from "./wire";
