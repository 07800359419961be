/** Plain HTTP for tests: global fetch, a bearer token, JSON in and out; nothing reaches into internals. */

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
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
