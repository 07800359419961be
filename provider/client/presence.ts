/**
 * The presence endpoints: lookup and find on the load balancer, signal on the named server that holds
 * the visitor (never the load balancer).
 */
import { ConfigurationError, NotFoundError, VisitorNotConnectedError } from "./errors";
import type { Transport } from "./transport";
import type { RequestOptions } from "./roles";
import { isLoopbackHost, type ServiceUrl } from "./urls";
import type { PresenceRecord, VisitorLocation, VisitorMessage } from "./types";
import {
  VISITOR_ID_PATTERN,
  WirePresenceRecord,
  WireVisitorLocation,
  WireVisitorMessage,
} from "../wire";

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
  if (!Number.isSafeInteger(groupId) || groupId <= 0) {
    throw new ConfigurationError(`groupId must be a positive integer, got ${JSON.stringify(groupId)}`);
  }
  if (typeof visitorId !== "string" || !VISITOR_ID_PATTERN.test(visitorId)) {
    throw new ConfigurationError(
      `visitorId must be 1 to 62 characters of letters, digits, '-', '_' and '~', got ${JSON.stringify(visitorId)}`,
    );
  }
}

function query(groupId: number, visitorId: string): string {
  return `?groupid=${encodeURIComponent(String(groupId))}&visitorid=${encodeURIComponent(visitorId)}`;
}

/**
 * The address of a named presence server: `https://{directserver}` with `httpsport` when it is not 443.
 * Plain http is used only for a loopback server when the load balancer itself is a loopback http
 * emulator; a real host name is never downgraded.
 */
export function directServerOrigin(location: VisitorLocation, presence: ServiceUrl): string {
  const host = location.directServer ?? location.direct?.replace(/:\d+$/, "");
  if (!host) throw new ConfigurationError("findvisitor reply names no directserver");
  const insecure = !presence.secure && presence.loopback && isLoopbackHost(host);
  const port = location.httpsPort ?? (location.direct ? toInt(location.direct.split(":").pop()) : undefined);
  const defaultPort = insecure ? 80 : 443;
  const hostPart = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `${insecure ? "http" : "https"}://${hostPart}${port && port !== defaultPort ? `:${port}` : ""}`;
}

export class PresenceApi {
  constructor(
    private readonly transport: Transport,
    private readonly presence: ServiceUrl,
  ) {}

  /** The visitor's presence record; `present: false` for an absent visitor (the service answers `{}`). */
  async lookupVisitor(groupId: number, visitorId: string, options?: RequestOptions): Promise<PresenceRecord> {
    checkVisitorRef(groupId, visitorId);
    const r = await this.transport.call({
      method: "GET", origin: this.presence.origin,
      path: `${this.presence.basePath}/lookupvisitor${query(groupId, visitorId)}`,
      schema: WirePresenceRecord, idempotent: true, ...options,
    });
    const record: PresenceRecord = { present: Object.values(r).some((v) => v !== undefined) };
    if (!record.present) return record;
    const fields: Omit<PresenceRecord, "present"> = {
      visitorId: r.visitorid,
      groupId: toInt(r.groupid),
      direct: r.direct,
      ds: r.ds,
      directServer: r.directserver,
      tlsPort: toInt(r.tlsport),
      httpsPort: toInt(r.httpsport),
      visitorPresent: toSeconds(r.visitorpresent),
      timestamp: toSeconds(r.timestamp),
    };
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) (record as unknown as Record<string, unknown>)[k] = v;
    return record;
  }

  /** Which named server the visitor is connected to, if any. */
  async findVisitor(groupId: number, visitorId: string, options?: RequestOptions): Promise<VisitorLocation> {
    checkVisitorRef(groupId, visitorId);
    const r = await this.transport.call({
      method: "GET", origin: this.presence.origin,
      path: `${this.presence.basePath}/findvisitor${query(groupId, visitorId)}`,
      schema: WireVisitorLocation, idempotent: true, ...options,
    });
    if (!r.visitorfound) return { visitorFound: false };
    const location: VisitorLocation = { visitorFound: true };
    if (r.ds !== undefined) location.ds = r.ds;
    if (r.direct !== undefined) location.direct = r.direct;
    if (r.directserver !== undefined) location.directServer = r.directserver;
    if (r.tlsport !== undefined) location.tlsPort = toInt(r.tlsport);
    if (r.httpsport !== undefined) location.httpsPort = toInt(r.httpsport);
    return location;
  }

  /**
   * Sends a message to a connected visitor: finds the visitor's named server through the load balancer,
   * then posts there. Not retried after it may have been delivered (a signal is not idempotent).
   * @throws VisitorNotConnectedError when the visitor is not connected, before or during the call.
   */
  async signalVisitor(groupId: number, visitorId: string, message: VisitorMessage, options?: RequestOptions): Promise<void> {
    checkVisitorRef(groupId, visitorId);
    const checked = WireVisitorMessage.safeParse(message);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new ConfigurationError(`message.${issue.path.map(String).join(".")}: ${issue.message}`);
    }
    const location = await this.findVisitor(groupId, visitorId, options);
    if (!location.visitorFound) throw new VisitorNotConnectedError(groupId, visitorId);
    const origin = directServerOrigin(location, this.presence);
    try {
      await this.transport.call({
        method: "POST", origin, path: `/signalvisitor${query(groupId, visitorId)}`, body: checked.data,
        idempotent: false, ...options, // the reply is not documented: any body, or none, is success
      });
    } catch (error) {
      // The visitor left between find and signal.
      if (error instanceof NotFoundError) throw new VisitorNotConnectedError(groupId, visitorId, { cause: error });
      throw error;
    }
  }
}
