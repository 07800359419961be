/** Plain HTTP for tests: fetch, a bearer token, JSON in and out; nothing reaches into internals. */
import { Agent, fetch } from "undici";

/**
 * One connection per request, none kept alive. A pooled socket the server closed after its 5 s idle
 * timeout, picked before the client's own idle timer dropped it (a timer late on a loaded machine), fails
 * the next request with ECONNRESET: CI saw it on an admin call between two end-to-end cases. A test checks
 * the service, not keep-alive; the product's client (client/transport.ts) has its own pool and retries.
 */
const noKeepAlive = new Agent({ pipelining: 0 });

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body (`undefined` when the body is not JSON). */
  json: unknown;
}

export interface HttpOptions {
  /** Bearer token; `null` sends no Authorization header. Default `dev-token`. */
  token?: string | null;
  /** A value to send as JSON, or a raw string with `raw: true`. */
  body?: unknown;
  raw?: boolean;
}

export async function http(method: string, url: string, opts: HttpOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? "dev-token" : opts.token;
  if (token !== null) headers["authorization"] = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = opts.raw ? String(opts.body) : JSON.stringify(opts.body);
  }
  const res = await fetch(url, { method, headers, body, dispatcher: noKeepAlive });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
