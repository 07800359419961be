/**
 * The presence endpoints: lookup and find on the load balancer, signal on the named server that holds
 * the visitor (never the load balancer).
 */
import { isIP } from "node:net";
import { UnexpectedReplyError, VisitorNotConnectedError } from "./errors";
import { NotFoundError } from "./status-errors";
import {
  describeAllowedPresenceServers,
  isAllowedPresenceServer,
  isIpLiteral,
  isPlainHostName,
} from "./presence-hosts";
import type { Transport } from "./transport";
import type { RequestOptions } from "./roles";
import { isLoopbackHost, type ServiceUrl } from "./urls";
import type { PresenceRecord, VisitorLocation, VisitorMessage } from "./types";
import { describeValue as describe, idRule, requireValid, visitorIdRule } from "./rules";
import { ROUTES, type Route } from "./routes";
import type { WirePresenceRecord, WireVisitorLocation } from "./wire";
import { checkVisitorMessage } from "./visitor-message";

function toInt(v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

function toSeconds(v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Checks the query parameters every presence call carries; throws before anything is sent. */
export function checkVisitorRef(groupId: number, visitorId: string): void {
  requireValid(idRule, groupId, "groupId");
  requireValid(visitorIdRule, visitorId, "visitorId");
}

/** The object without its undefined fields, so absent wire fields stay absent. */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The named-server fields both presence replies carry, camelCase, ports as numbers. */
function serverFields(
  r: WirePresenceRecord | WireVisitorLocation,
): Pick<VisitorLocation, "ds" | "direct" | "directServer" | "tlsPort" | "httpsPort"> {
  return definedOnly({
    ds: r.ds,
    direct: r.direct,
    directServer: r.directserver,
    tlsPort: toInt(r.tlsport),
    httpsPort: toInt(r.httpsport),
  });
}

function query(groupId: number, visitorId: string): string {
  return `?groupid=${encodeURIComponent(String(groupId))}&visitorid=${encodeURIComponent(visitorId)}`;
}

/** `direct` as the service sends it: `<host>:<port>`, or `[<IPv6>]:<port>`. */
const DIRECT_FORM = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/;
/** A TCP port as text: 1 to 5 digits, no sign, no leading zero. */
const PORT_TEXT = /^[1-9]\d{0,4}$/;

const isTcpPort = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 65535;

function refuseReply(problem: string): never {
  const message = `findvisitor reply: ${problem}; the message and the access token were not sent`;
  throw new UnexpectedReplyError(message, undefined, {});
}

/** Refuses a named-server host that is not plain, or that the rule of `./presence-hosts` does not allow. */
function checkNamedHost(field: string, host: string, presence: ServiceUrl, domains: readonly string[]): void {
  if (!isPlainHostName(host) && !isIpLiteral(host)) {
    refuseReply(
      `${field} must be a plain host name or IP address, with no port, path, user info or other URL syntax, ` +
        `got ${describe(host)}`,
    );
  }
  if (!isAllowedPresenceServer(host, presence.hostname, domains)) {
    const allowed = describeAllowedPresenceServers(presence.hostname, domains);
    refuseReply(`${field} ${describe(host)} is not an allowed presence server (allowed: ${allowed})`);
  }
}

/**
 * The named server a find reply points to, checked before anything is sent to it: every host it names
 * (`directserver`, the host of `direct`) passes the rule of `./presence-hosts`, and every port
 * (`httpsport`, the port of `direct`) is an integer from 1 to 65535.
 * @throws UnexpectedReplyError naming the field and the rule.
 */
export function checkNamedServer(
  location: VisitorLocation,
  presence: ServiceUrl,
  presenceServerDomains: readonly string[] = [],
): { host: string; port?: number } {
  if (location.directServer !== undefined) {
    checkNamedHost("directserver", location.directServer, presence, presenceServerDomains);
  }
  let direct: { host: string; port: number } | undefined;
  if (location.direct !== undefined) {
    const parts = DIRECT_FORM.exec(location.direct);
    const [, ipv6, name, portText = ""] = parts ?? [];
    const port = PORT_TEXT.test(portText) ? Number(portText) : 0;
    const host = ipv6 ?? name;
    if (host === undefined || !isTcpPort(port) || (ipv6 !== undefined && isIP(ipv6) !== 6)) {
      refuseReply(
        "direct must be <host>:<port> ([<IPv6>]:<port> for IPv6) with a port from 1 to 65535, " +
          `got ${describe(location.direct)}`,
      );
    }
    checkNamedHost("the host of direct", host, presence, presenceServerDomains);
    direct = { host, port };
  }
  if (location.httpsPort !== undefined && !isTcpPort(location.httpsPort)) {
    refuseReply(`httpsport must be an integer from 1 to 65535, got ${describe(location.httpsPort)}`);
  }
  const host = location.directServer ?? direct?.host;
  if (host === undefined) refuseReply("names no presence server (neither directserver nor direct)");
  return { host, port: location.httpsPort ?? direct?.port };
}

/**
 * The address of a named presence server, after {@link checkNamedServer}: `https://{directserver}` with
 * `httpsport` when it is not 443. Plain http is used only for a loopback server when the load balancer
 * itself is a loopback http emulator; a real host name is never downgraded.
 */
export function directServerOrigin(
  location: VisitorLocation,
  presence: ServiceUrl,
  presenceServerDomains: readonly string[] = [],
): string {
  const { host, port } = checkNamedServer(location, presence, presenceServerDomains);
  const insecure = !presence.secure && presence.loopback && isLoopbackHost(host);
  const defaultPort = insecure ? 80 : 443;
  const hostPart = isIP(host) === 6 ? `[${host}]` : host;
  return `${insecure ? "http" : "https"}://${hostPart}${port && port !== defaultPort ? `:${port}` : ""}`;
}

export class PresenceApi {
  constructor(
    private readonly transport: Transport,
    private readonly presence: ServiceUrl,
    /** Checked entries of `presenceServerDomains`: where named servers may be besides the default rule. */
    private readonly presenceServerDomains: readonly string[] = [],
  ) {}

  private send<T>(
    route: Route<T>,
    origin: string,
    basePath: string,
    groupId: number,
    visitorId: string,
    options?: RequestOptions,
    body?: unknown,
  ): Promise<T> {
    const path = `${basePath}${route.path}${query(groupId, visitorId)}`;
    return this.transport.call({
      method: route.method,
      origin,
      path,
      body,
      schema: route.reply,
      idempotent: route.idempotent,
      bearer: { groupId, service: "presence" },
      ...options,
    });
  }

  /** The visitor's presence record; `present: false` for an absent visitor (the service answers `{}`). */
  async lookupVisitor(groupId: number, visitorId: string, options?: RequestOptions): Promise<PresenceRecord> {
    checkVisitorRef(groupId, visitorId);
    const r = await this.send(
      ROUTES.lookupVisitor,
      this.presence.origin,
      this.presence.basePath,
      groupId,
      visitorId,
      options,
    );
    const record: PresenceRecord = { present: Object.values(r).some((v) => v !== undefined) };
    if (!record.present) return record;
    return Object.assign(
      record,
      serverFields(r),
      definedOnly({
        visitorId: r.visitorid,
        groupId: toInt(r.groupid),
        visitorPresent: toSeconds(r.visitorpresent),
        timestamp: toSeconds(r.timestamp),
      }),
    );
  }

  /** Which named server the visitor is connected to, if any. */
  async findVisitor(groupId: number, visitorId: string, options?: RequestOptions): Promise<VisitorLocation> {
    checkVisitorRef(groupId, visitorId);
    const r = await this.send(
      ROUTES.findVisitor,
      this.presence.origin,
      this.presence.basePath,
      groupId,
      visitorId,
      options,
    );
    if (!r.visitorfound) return { visitorFound: false };
    const location: VisitorLocation = { visitorFound: true, ...serverFields(r) };
    return location;
  }

  /**
   * Sends a message to a connected visitor: finds the visitor's named server through the load balancer,
   * then posts there. Not retried after it may have been delivered (a signal is not idempotent).
   * @throws VisitorNotConnectedError when the visitor is not connected, before or during the call.
   */
  async signalVisitor(
    groupId: number,
    visitorId: string,
    message: VisitorMessage,
    options?: RequestOptions,
  ): Promise<void> {
    checkVisitorRef(groupId, visitorId);
    const body = checkVisitorMessage(message);
    const location = await this.findVisitor(groupId, visitorId, options);
    if (!location.visitorFound) throw new VisitorNotConnectedError(groupId, visitorId);
    const origin = directServerOrigin(location, this.presence, this.presenceServerDomains);
    try {
      await this.send(ROUTES.signalVisitor, origin, "", groupId, visitorId, options, body);
    } catch (error) {
      // The visitor left between find and signal.
      if (error instanceof NotFoundError) throw new VisitorNotConnectedError(groupId, visitorId, { cause: error });
      throw error;
    }
  }
}
