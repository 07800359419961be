/**
 * A log of the requests the emulator served, for tests: counts by method and route template (how many
 * HTTP calls did the client make?) and each request as sent: path, query, every header and the body,
 * with credentials replaced by fingerprints (./log-redaction): a bearer token, a password or login
 * key in an `/authorize` body, an API key. A test compares `credentialFingerprint(expected)`, and can
 * still look for a leaked secret anywhere else in it. Only the admin token reads the log. Admin routes
 * and WebSocket upgrades are not logged, so reading the log never changes it.
 */
import { redactBody, redactHeader } from "./log-redaction";

/** Which listener served a request. */
export type ServerKind = "api" | "presence" | "direct" | "auth";

/** One logged request. */
export interface RequestLogEntry {
  server: ServerKind;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string including `?`, or `""`. */
  query: string;
  /** Route template, e.g. `/api/v0/groups/:groupId/roles`; `"*"` when no route matched. */
  route: string;
  /** Status sent; `0` when a fault rule dropped the connection instead. */
  status: number;
  /** Every request header, names in lower case, repeated headers joined with `", "`; credentials redacted. */
  headers: Record<string, string>;
  /** Request body, credentials redacted, cut at {@link MAX_LOGGED_BODY} characters. */
  body: string;
}

/** The headers of a request as logged: one string per name. */
export function loggedHeaders(distinct: NodeJS.Dict<string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(distinct).map(([name, values]) => [name, (values ?? []).join(", ")]));
}

/** The `GET /_emulator/requests` reply. */
export interface RequestLogView {
  /** Requests logged since start or the last reset, including those no longer in `entries`. */
  total: number;
  /** `"METHOD /route/template"` to count. */
  counts: Record<string, number>;
  /** The most recent {@link MAX_LOG_ENTRIES} requests, oldest first. */
  entries: RequestLogEntry[];
  /**
   * Requests received and not yet answered (or dropped): what a test waits on instead of sleeping, e.g.
   * a slowed request whose client gave up still lands when its delay is over.
   */
  inFlight: Array<Pick<RequestLogEntry, "server" | "method" | "path">>;
}

/** Longest body kept per entry, in characters. */
export const MAX_LOGGED_BODY = 16 * 1024;
/** Entries kept; older ones are dropped (counts keep them). */
export const MAX_LOG_ENTRIES = 5000;

/** The log behind `GET /_emulator/requests`. */
export class RequestLog {
  private total = 0;
  private counts = new Map<string, number>();
  private entries: RequestLogEntry[] = [];
  private open = new Map<number, Pick<RequestLogEntry, "server" | "method" | "path">>();
  private nextTicket = 1;

  /** @param keepCredentials log credentials as sent (EmulatorOptions.logCredentials); default: fingerprints. */
  constructor(private readonly keepCredentials = false) {}

  /** A request arrived; pass the ticket to {@link record} when it is answered. */
  begin(request: Pick<RequestLogEntry, "server" | "method" | "path">): number {
    this.open.set(this.nextTicket, request);
    return this.nextTicket++;
  }

  record(entry: RequestLogEntry, ticket?: number): void {
    if (ticket !== undefined) this.open.delete(ticket);
    this.total++;
    const key = `${entry.method} ${entry.route}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const headers = this.keepCredentials
      ? entry.headers
      : Object.fromEntries(Object.entries(entry.headers).map(([name, value]) => [name, redactHeader(name, value)]));
    const body = this.keepCredentials ? entry.body : redactBody(entry.body);
    this.entries.push({ ...entry, headers, body: body.slice(0, MAX_LOGGED_BODY) });
    // Bounded so a benchmark run cannot grow memory without limit.
    if (this.entries.length > MAX_LOG_ENTRIES) this.entries.splice(0, this.entries.length - MAX_LOG_ENTRIES);
  }

  view(): RequestLogView {
    return {
      total: this.total,
      counts: Object.fromEntries(this.counts),
      entries: [...this.entries],
      inFlight: [...this.open.values()],
    };
  }

  clear(): void {
    this.total = 0;
    this.counts.clear();
    this.entries = [];
  }
}
