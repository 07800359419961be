/**
 * A real HTTP server on a loopback port, whose answers each test scripts (as undici's own tests do).
 * It records every request it receives so tests can assert what was sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Script = (req: RecordedRequest, res: http.ServerResponse, index: number) => void;

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (a TLS attempt or a garbled request counts, with no request). */
  readonly connections: number;
  close(): Promise<void>;
}

/** Replies `status` with `body` as JSON (or as raw text when `body` is a string). */
export function reply(
  res: http.ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** Starts a server on `host` (default 127.0.0.1); `script` answers request number `index` (0-based). */
export async function startScriptedServer(script: Script, host = "127.0.0.1"): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      script(recorded, res, requests.length - 1);
    });
  });
  const sockets = new Set<import("node:net").Socket>();
  let connections = 0;
  server.on("connection", (s) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers each request with the next entry of `answers` (the last one repeats). */
export function sequence(...answers: Array<(res: http.ServerResponse, req: RecordedRequest) => void>): Script {
  return (req, res, i) => answers[Math.min(i, answers.length - 1)](res, req);
}
