/**
 * Small node:http helpers: routing by template, body reading with a size cap, JSON replies, listening.
 * Kept framework-free on purpose: the emulator must behave exactly as written, byte for byte, so tests
 * of the client can rely on it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError } from "./errors";

/** Largest request body the emulator reads (413 above). Far above what MAX_BATCH_ITEMS roles need. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What a handler answers; the pipeline serializes it (or mangles it, when a fault rule says so). */
export interface Reply {
  status: number;
  /** A JSON value; `undefined` sends no body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A compiled route: `template` like `/api/v0/groups/:groupId/roles` is what the request log counts. */
export interface CompiledTemplate {
  template: string;
  regex: RegExp;
  names: string[];
}

/** Compiles `/a/:param/b` into a matcher; `:name` matches one path segment. */
export function compileTemplate(template: string): CompiledTemplate {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((seg) => {
      if (seg.startsWith(":")) {
        names.push(seg.slice(1));
        return "([^/]+)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { template, regex: new RegExp(`^${source}$`), names };
}

/**
 * Path parameters of `pathname` if it matches, else `undefined`.
 * @throws ApiError 400 for a parameter whose percent-encoding is malformed (`%E0%A4%A`): the caller's
 * mistake, not the emulator's, so never a 500.
 */
export function matchTemplate(t: CompiledTemplate, pathname: string): Record<string, string> | undefined {
  const m = t.regex.exec(pathname);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  t.names.forEach((name, i) => {
    const raw = m[i + 1] ?? "";
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new ApiError(
        400,
        "validation_failed",
        `${name}: malformed percent-encoding in the path: ${JSON.stringify(raw.slice(0, 40))}`,
      );
    }
  });
  return params;
}

/** Reads the whole body as UTF-8; 413 when it exceeds {@link MAX_BODY_BYTES}. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) {
        reject(new ApiError(413, "payload_too_large", `request body exceeds ${MAX_BODY_BYTES} bytes`));
      } else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

/** Parses a JSON request body; 400 `malformed_json` otherwise (an empty body is malformed too). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ApiError(400, "malformed_json", `request body is not valid JSON: ${why}`);
  }
}

/** Writes a JSON reply (or raw text, for the malformed-json fault). */
export function send(
  res: ServerResponse,
  status: number,
  body: string | undefined,
  headers: Record<string, string> = {},
): void {
  const h: Record<string, string | number> = { ...headers };
  if (body !== undefined) {
    h["content-type"] = "application/json; charset=utf-8";
    h["content-length"] = Buffer.byteLength(body);
  } else {
    h["content-length"] = 0;
  }
  res.writeHead(status, h);
  res.end(body);
}

/** Listens on `host:port` and resolves with the bound port (port 0 picks a free one). */
export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes a server and every connection on it, idle or not, so `close()` never hangs on keep-alive. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** `host` as it appears in a URL (IPv6 literals need brackets). */
export function urlHost(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Seconds since the epoch with milliseconds, as text: the spec's `"1763900000.123"` form. */
export function decimalSeconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A positive integer path/query id, or `undefined` (leading zeros, signs and fractions are refused). */
export function parsePositiveInt(text: string | null | undefined): number | undefined {
  if (text == null || !/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
