/** Shared helpers of the emulator suites: real HTTP only (global fetch), no reaching into internals. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

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

/** A started emulator plus shortcuts for the roles API of one group. */
export interface Harness {
  emu: RunningEmulator;
  roles(groupId: number): string;
  admin(path: string): string;
  /** Creates roles and returns the created items (asserting 200). */
  create(groupId: number, items: unknown[], token?: string): Promise<Array<{ roleId: number; name: string; inUse: boolean }>>;
  list(groupId: number): Promise<Array<Record<string, unknown>>>;
}

export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator(options);
  const roles = (g: number): string => `${emu.baseUrl}/api/v0/groups/${g}/roles`;
  return {
    emu,
    roles,
    admin: (p) => `${emu.baseUrl}/_emulator${p}`,
    async create(g, items, token) {
      const r = await http("POST", roles(g), { body: items, token });
      if (r.status !== 200) throw new Error(`create failed: ${r.status} ${r.text}`);
      return r.json as Array<{ roleId: number; name: string; inUse: boolean }>;
    },
    async list(g) {
      const r = await http("GET", roles(g), { token: emu.token });
      if (r.status !== 200) throw new Error(`list failed: ${r.status} ${r.text}`);
      return r.json as Array<Record<string, unknown>>;
    },
  };
}
