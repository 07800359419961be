/**
 * The visitor side, for tests and demos: asks the load balancer where to connect, opens the WebSocket
 * and hands every `{mtype, data}` frame to `onSignal`.
 */
import { WebSocket } from "ws";
import { VisitorMessage } from "./service-rules";
import type { AssignReply, WelcomeFrame } from "./presence";

/** Options of {@link connectVisitor}. */
export interface ConnectVisitorOptions {
  /** The emulator's `presenceUrl` (load balancer). */
  presenceUrl: string;
  groupId: number | string;
  /** 1 to 62 letters, digits, `-`, `_`, `~`. */
  visitorId: string;
  /** Called with every message signalled to this visitor. */
  onSignal?: (message: VisitorMessage) => void;
  /** Called once when the connection ends, whichever side ends it. */
  onClose?: (code: number, reason: string) => void;
  /**
   * Give up when the socket is not open and registered by then.
   * @default 10000
   */
  timeoutMs?: number;
}

/** A connected visitor. */
export interface VisitorConnection {
  /** The named server it is connected to, in `direct` form (`host:port`). */
  server: string;
  /** The server's `ds` form (`host/index`). */
  ds: string;
  /** Closes the socket; resolves once it is closed. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Connects a visitor to the named server the load balancer assigns. Resolves once the server has
 * registered the visitor, so a `/findvisitor` issued afterwards finds it.
 */
export async function connectVisitor(options: ConnectVisitorOptions): Promise<VisitorConnection> {
  const q = new URLSearchParams({ groupid: String(options.groupId), visitorid: options.visitorId });
  const res = await fetch(`${options.presenceUrl.replace(/\/+$/, "")}/assign?${q}`);
  const text = await res.text();
  if (!res.ok)
    throw new Error(`connectVisitor: the load balancer refused visitor ${options.visitorId}: ${res.status} ${text}`);
  const assigned = JSON.parse(text) as AssignReply;

  const ws = new WebSocket(assigned.url);
  const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
  const welcome = await new Promise<WelcomeFrame>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`connectVisitor: no welcome from ${assigned.direct} within ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      reject(
        new Error(`connectVisitor: cannot connect visitor ${options.visitorId} to ${assigned.direct}: ${err.message}`),
      );
    };
    ws.once("error", fail);
    ws.once("close", (code) => fail(new Error(`closed (${code}) before registration`)));
    ws.once("unexpected-response", (_req, r) => {
      ws.terminate();
      fail(new Error(`HTTP ${r.statusCode ?? "?"}`));
    });
    ws.on("message", (data) => {
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (typeof frame === "object" && frame !== null && (frame as { type?: unknown }).type === "welcome") {
        clearTimeout(timer);
        ws.off("error", fail);
        ws.on("error", () => undefined); // errors after open surface as "close"
        resolve(frame as WelcomeFrame);
        return;
      }
      const msg = VisitorMessage.safeParse(frame);
      if (msg.success) options.onSignal?.(msg.data);
    });
  });
  ws.once("close", (code, reason) => options.onClose?.(code, reason.toString()));

  return {
    server: welcome.server,
    ds: welcome.ds,
    close: async () => {
      if (ws.readyState !== WebSocket.CLOSED) ws.close(1000, "visitor left");
      await closed;
    },
  };
}
