/** A real emulator on loopback plus its admin surface: the one harness of every suite. */
import { startEmulator, type EmulatorOptions, type RequestLogView, type RunningEmulator } from "../../emulator";
import { http } from "./http";
import { waitFor } from "./wait";

/** The `GET /_emulator/requests` reply, as the emulator types it. */
export type RequestCounts = RequestLogView;

export interface RoleDetails {
  roleId: number;
  name: string;
  description: string;
  settings: Record<string, boolean>;
}

export interface EmulatorHarness {
  emu: RunningEmulator;
  /** Calls an admin route and returns the parsed reply. */
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  requests(): Promise<RequestCounts>;
  /** How many requests other than GETs the service has answered: a plan that wrote nothing leaves it as it was. */
  writes(): Promise<number>;
  clearRequests(): Promise<void>;
  /** Resolves once no request whose path starts with `prefix` is in flight (slowed requests included). */
  idle(prefix: string): Promise<void>;
  setUsers(groupId: number, roleId: number, userCount: number): Promise<void>;
  fault(rule: Record<string, unknown>): Promise<void>;
  /** Calls the public roles API directly (as someone editing roles by hand would). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  listRoles(
    groupId: number,
  ): Promise<Array<{ roleId: number; name: string; inUse: boolean; description: string; userCount: number }>>;
  /** One role's details as the service holds them: what a test checks after a write, not what it sent. */
  details(groupId: number, roleId: number): Promise<RoleDetails>;
  /** URL of a group's roles collection, `{baseUrl}/api/v0/groups/{g}/roles`. */
  rolesUrl(groupId: number): string;
  /** URL of an admin route, `{baseUrl}/_emulator{path}`. */
  adminUrl(path: string): string;
  /** Creates roles through the API (asserting 200) and returns the created items. */
  create(
    groupId: number,
    items: unknown[],
    token?: string,
  ): Promise<Array<{ roleId: number; name: string; inUse: boolean }>>;
  /** The group's list as the API returns it. */
  list(groupId: number): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<EmulatorHarness> {
  const emu = await startEmulator(options);
  const call = async (method: string, url: string, body?: unknown, token = emu.token) => {
    const r = await http(method, url, { token, body });
    return { status: r.status, json: r.json };
  };
  const rolesUrl = (g: number) => `${emu.baseUrl}/api/v0/groups/${g}/roles`;
  const admin = async (method: string, path: string, body?: unknown) => {
    // The admin routes take the admin token only (one with no group).
    const r = await call(method, `${emu.baseUrl}/_emulator${path}`, body, emu.adminToken ?? emu.token);
    if (r.status >= 300) throw new Error(`admin ${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const api = (method: string, path: string, body?: unknown) => call(method, `${emu.baseUrl}/api/v0${path}`, body);
  return {
    emu,
    admin,
    api,
    requests: async () => (await admin("GET", "/requests")) as RequestCounts,
    writes: async () =>
      Object.entries(((await admin("GET", "/requests")) as RequestCounts).counts)
        .filter(([route]) => !route.startsWith("GET "))
        .reduce((n, [, count]) => n + count, 0),
    clearRequests: async () => void (await admin("DELETE", "/requests")),
    idle: (prefix) => {
      const log = async () => (await admin("GET", "/requests")) as RequestCounts;
      const busy = async () => (await log()).inFlight.some((r) => r.path.startsWith(prefix));
      return waitFor(async () => !(await busy()), `no request in flight under ${prefix}`, 120_000);
    },
    setUsers: async (g, r, n) => void (await admin("PUT", `/groups/${g}/roles/${r}/users`, { userCount: n })),
    fault: async (rule) => void (await admin("POST", "/faults", rule)),
    listRoles: async (g) => {
      const r = await api("GET", `/groups/${g}/roles`);
      if (r.status !== 200) throw new Error(`list: ${r.status}`);
      return r.json as Array<{ roleId: number; name: string; inUse: boolean; description: string; userCount: number }>;
    },
    details: async (g, r) => {
      const d = await api("GET", `/groups/${g}/roles/${r}`);
      if (d.status !== 200) throw new Error(`details: ${d.status}`);
      return d.json as RoleDetails;
    },
    rolesUrl,
    adminUrl: (p) => `${emu.baseUrl}/_emulator${p}`,
    async create(g, items, token = emu.token) {
      const r = await http("POST", rolesUrl(g), { body: items, token });
      if (r.status !== 200) throw new Error(`create failed: ${r.status} ${r.text}`);
      return r.json as Array<{ roleId: number; name: string; inUse: boolean }>;
    },
    async list(g) {
      const r = await http("GET", rolesUrl(g), { token: emu.token });
      if (r.status !== 200) throw new Error(`list failed: ${r.status} ${r.text}`);
      return r.json as Array<Record<string, unknown>>;
    },
    close: () => emu.close(),
  };
}
