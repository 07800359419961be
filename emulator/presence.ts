/**
 * Presence: which visitor is connected to which named server. The load balancer answers
 * `/lookupvisitor`, `/findvisitor` and (for visitors) `/assign`; each named server answers
 * `/signalvisitor` and accepts visitor WebSockets at `/visitor?groupid=..&visitorid=..`.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import {
  MAX_SIGNAL_BYTES,
  MAX_VISITOR_FRAME_BYTES,
  VISITOR_ID,
  VisitorMessage,
  type NamedServerFields,
  type PresenceRecord,
  type VisitorLocation,
} from "./service-rules";
import { ApiError } from "./errors";
import { compileTemplate, decimalSeconds, parseJson, parsePositiveInt, urlHost } from "./http-util";
import type { Route, RouteContext } from "./pipeline";

/** A named presence server as the load balancer knows it. */
export interface NamedServer {
  index: number;
  host: string;
  port: number;
}

/** The first frame a named server sends on a new visitor socket: registration is complete. */
export interface WelcomeFrame {
  type: "welcome";
  /** `direct` form of the server, `host:port`. */
  server: string;
  ds: string;
  groupid: string;
  visitorid: string;
}

/** Body of the load balancer's `GET /assign` (visitor-facing, no bearer token). */
export interface AssignReply {
  index: number;
  direct: string;
  /** Where to open the visitor WebSocket. */
  url: string;
}

/** The real service's TLS port is 5501; the emulator speaks no TLS, so this is nominal (5501 + index). */
const NOMINAL_TLS_PORT = 5501;

interface Visitor {
  server: NamedServer;
  socket: WebSocket;
  connectedAt: number;
}

/** FNV-1a: a stable, dependency-free hash, so a visitor lands on the same server on every run. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function visitorIdOf(query: URLSearchParams): string {
  const id = query.get("visitorid");
  if (id === null || !VISITOR_ID.test(id)) {
    throw new ApiError(
      400,
      "validation_failed",
      `visitorid: must be 1 to 62 letters, digits, '-', '_' or '~', got ${JSON.stringify(id)}`,
    );
  }
  return id;
}

const directOf = (s: NamedServer): string => urlHost(s.host, s.port);
const dsOf = (s: NamedServer): string => `${s.host}/${s.index}`;

function location(s: NamedServer): NamedServerFields {
  return {
    ds: dsOf(s),
    direct: directOf(s),
    directserver: s.host,
    tlsport: NOMINAL_TLS_PORT + s.index,
    httpsport: s.port,
  };
}

/** Who is connected where. Visitors are live connections, so they are never persisted or reset. */
export class PresenceRegistry {
  private visitors = new Map<string, Visitor>();
  // A visitor's frames are bounded: without it one socket could make the emulator buffer 100 MiB (ws's default).
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_VISITOR_FRAME_BYTES });

  constructor(private readonly servers: readonly NamedServer[]) {}

  /** Deterministic assignment: hash of `groupid/visitorid` modulo the number of named servers. */
  assign(groupId: number, visitorId: string): NamedServer {
    return this.servers[fnv1a(`${groupId}/${visitorId}`) % this.servers.length] as NamedServer;
  }

  /** The visitor's entry if its socket is open (a closing socket is already absent). */
  private present(groupId: number, visitorId: string): Visitor | undefined {
    const v = this.visitors.get(`${groupId}/${visitorId}`);
    return v && v.socket.readyState === WebSocket.OPEN ? v : undefined;
  }

  loadBalancerRoutes(): Route[] {
    const lookup = (ctx: RouteContext): PresenceRecord => {
      const visitorId = visitorIdOf(ctx.query);
      const v = this.present(ctx.groupId, visitorId);
      if (!v) return {};
      const { ds, direct, directserver, tlsport, httpsport } = location(v.server);
      return {
        direct,
        visitorpresent: decimalSeconds(v.connectedAt),
        timestamp: decimalSeconds(Date.now()),
        visitorid: visitorId,
        groupid: String(ctx.groupId),
        ds,
        directserver,
        tlsport,
        httpsport,
      };
    };
    const find = (ctx: RouteContext): VisitorLocation => {
      const v = this.present(ctx.groupId, visitorIdOf(ctx.query));
      return v ? { visitorfound: true, ...location(v.server) } : { visitorfound: false };
    };
    const assign = (ctx: RouteContext): AssignReply => {
      const visitorId = visitorIdOf(ctx.query);
      const s = this.assign(ctx.groupId, visitorId);
      const q = new URLSearchParams({ groupid: String(ctx.groupId), visitorid: visitorId });
      return { index: s.index, direct: directOf(s), url: `ws://${directOf(s)}/visitor?${q}` };
    };
    return [
      {
        method: "GET",
        path: compileTemplate("/lookupvisitor"),
        kind: "service",
        group: "query",
        handle: (ctx) => ({ status: 200, body: lookup(ctx) }),
      },
      {
        method: "GET",
        path: compileTemplate("/findvisitor"),
        kind: "service",
        group: "query",
        handle: (ctx) => ({ status: 200, body: find(ctx) }),
      },
      {
        method: "GET",
        path: compileTemplate("/assign"),
        kind: "visitor",
        group: "query",
        handle: (ctx) => ({ status: 200, body: assign(ctx) }),
      },
    ];
  }

  /** `/signalvisitor` of named server `server`. */
  signalRoutes(server: NamedServer): Route[] {
    const signal = async (ctx: RouteContext): Promise<{ status: "ok" }> => {
      const visitorId = visitorIdOf(ctx.query);
      const size = Buffer.byteLength(ctx.body);
      if (size > MAX_SIGNAL_BYTES)
        throw new ApiError(413, "payload_too_large", `message: ${size} bytes of JSON, at most ${MAX_SIGNAL_BYTES}`);
      const parsed = VisitorMessage.safeParse(parseJson(ctx.body));
      if (!parsed.success) {
        const message = parsed.error.issues
          .map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`)
          .join("; ");
        throw new ApiError(400, "invalid_message", message);
      }
      const v = this.present(ctx.groupId, visitorId);
      if (!v) {
        throw new ApiError(
          404,
          "visitor_not_present",
          `visitor ${JSON.stringify(visitorId)} of group ${ctx.groupId} is not connected`,
        );
      }
      if (v.server !== server) {
        throw new ApiError(
          404,
          "wrong_server",
          `visitor ${JSON.stringify(visitorId)} of group ${ctx.groupId} is connected to ${dsOf(v.server)} (${directOf(v.server)}), not to ${dsOf(server)}; ask /findvisitor`,
        );
      }
      const frame = JSON.stringify({ mtype: parsed.data.mtype, data: parsed.data.data });
      // Answer only once the frame is handed to the socket, so "ok" means delivered as far as we can tell.
      await new Promise<void>((resolve, reject) => v.socket.send(frame, (err) => (err ? reject(err) : resolve())));
      return { status: "ok" };
    };
    return [
      {
        method: "POST",
        path: compileTemplate("/signalvisitor"),
        kind: "service",
        group: "query",
        handle: async (ctx) => ({ status: 200, body: await signal(ctx) }),
      },
    ];
  }

  /**
   * The `upgrade` listener of named server `server`. No bearer token: in the real service visitors
   * authenticate differently; the emulator accepts any well-formed visitor wherever it connects (the
   * load balancer's assignment is advice), and a newer connection replaces an older one.
   */
  upgradeHandler(server: NamedServer): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
    return (req, socket, head) => {
      const url = new URL(req.url ?? "/", "http://emulator");
      let groupId: number;
      let visitorId: string;
      try {
        if (url.pathname !== "/visitor")
          throw new ApiError(404, "not_found", `no WebSocket endpoint at ${url.pathname}; use /visitor`);
        const g = parsePositiveInt(url.searchParams.get("groupid"));
        if (g === undefined) throw new ApiError(400, "validation_failed", "groupid: must be a positive integer");
        groupId = g;
        visitorId = visitorIdOf(url.searchParams);
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError(400, "validation_failed", String(err));
        const body = JSON.stringify(e.body());
        socket.end(
          `HTTP/1.1 ${e.status} ${e.code}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.register(server, groupId, visitorId, ws));
    };
  }

  private register(server: NamedServer, groupId: number, visitorId: string, ws: WebSocket): void {
    const key = `${groupId}/${visitorId}`;
    const old = this.visitors.get(key);
    if (old) old.socket.close(4000, "replaced by a newer connection of the same visitor");
    this.visitors.set(key, { server, socket: ws, connectedAt: Date.now() });
    ws.on("close", () => {
      if (this.visitors.get(key)?.socket === ws) this.visitors.delete(key);
    });
    ws.on("error", () => ws.terminate());
    const welcome: WelcomeFrame = {
      type: "welcome",
      server: directOf(server),
      ds: dsOf(server),
      groupid: String(groupId),
      visitorid: visitorId,
    };
    ws.send(JSON.stringify(welcome));
  }

  /** How many visitors are connected (for the benchmark and tests). */
  size(): number {
    return this.visitors.size;
  }

  /** Drops every visitor connection (emulator shutdown). */
  closeAll(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.visitors.clear();
    this.wss.close();
  }
}
