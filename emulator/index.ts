/**
 * `pulumi-grouproles/emulator`: a local stand-in for the whole Group Roles service (roles API, presence
 * load balancer, named presence servers with visitor WebSockets) plus a test surface under
 * `/_emulator`. See README.md in this folder for routes, error codes and conventions.
 */
// First: on an older Node, fail naming the version needed (../client/node-version), not deep inside undici.
import "../client/node-version";
import { createServer, type Server } from "node:http";
import { adminRoutes } from "./admin";
import { Auth, DEV_TOKEN, type TokenGrant } from "./auth";
import { authorizationRoutes, parseApiKeySpec, parseUserSpec, type ApiKeyGrant, type UserGrant } from "./authorization";
import { FaultRules } from "./faults";
import { closeServer, listen, urlHost } from "./http-util";
import { loadState, StateWriter } from "./persistence";
import { createPipeline, type PipelineDeps } from "./pipeline";
import { type NamedServer, PresenceRegistry } from "./presence";
import { RateLimiter } from "./rate-limit";
import { RequestLog } from "./request-log";
import { rolesRoutes } from "./roles-api";
import { RoleStore, type SettingsUpdateMode } from "./store";

export { connectVisitor, type ConnectVisitorOptions, type VisitorConnection } from "./visitor";
export { DEV_TOKEN, type TokenGrant } from "./auth";
export type { ApiKeyGrant, UserGrant } from "./authorization";
export type { FaultRuleInput, FaultRule } from "./faults";
export type { SettingsUpdateMode } from "./store";
export type { RequestLogEntry, RequestLogView, ServerKind } from "./request-log";
export { credentialFingerprint } from "./log-redaction";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /**
   * Interface every server listens on.
   * @default "127.0.0.1"
   */
  host?: string;
  /**
   * Port of the roles API (`baseUrl`); 0 picks a free one.
   * @default 0
   */
  port?: number;
  /**
   * Port of the presence load balancer. Named server `i` listens on `presencePort + 1 + i`.
   * @default `port + 1` when `port` is set, else 0 (and 0 for every named server)
   */
  presencePort?: number;
  /**
   * How many named presence servers to run.
   * @default 2
   */
  presenceServers?: number;
  /**
   * Accepted bearer tokens: `"TOKEN"`, `"TOKEN:GROUP[,GROUP]"` or {@link TokenGrant}s.
   * @default one token, {@link DEV_TOKEN}, granted every group
   */
  tokens?: readonly (string | TokenGrant)[];
  /**
   * When given, only these groups exist; others answer 404. By default every positive integer group
   * exists and appears when first used.
   */
  groups?: readonly number[];
  /** Keep roles, assignments and the role id counter in this JSON file (atomic writes). */
  stateFile?: string;
  /**
   * Added to every service call (not admin or visitor routes).
   * @default 0
   */
  latencyMs?: number;
  /** Sustained service calls per second across all servers; above it, 429 with `Retry-After`. */
  rateLimitPerSecond?: number;
  /**
   * API keys of groups, for the authorization endpoint's login keys: `"GROUP:KEY"` or {@link ApiKeyGrant}s.
   * @default none
   */
  apiKeys?: readonly (string | ApiKeyGrant)[];
  /**
   * Users the authorization endpoint accepts: `"NAME:PASSWORD:GROUP"` or {@link UserGrant}s.
   * @default none
   */
  users?: readonly (string | UserGrant)[];
  /**
   * Caps the lifetime of tokens the authorization endpoint issues, in seconds (tests shorten it).
   * @default the `duration` the client asks for
   */
  tokenLifetimeSeconds?: number;
  /**
   * What an update does with settings keys its `settings` map leaves out (the service does not
   * document it): `replace` drops them, `merge` keeps them.
   * @default "replace"
   */
  settingsUpdate?: SettingsUpdateMode;
  /**
   * Keep credentials in the request log as sent (bearer tokens, passwords and login keys of
   * `/authorize` bodies), for a test that must search other places for the exact values a client was
   * given. In-process only: the CLI has no flag for it.
   * @default false (the log holds `credentialFingerprint(value)` instead)
   */
  logCredentials?: boolean;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Roles API root, e.g. `http://127.0.0.1:40001` (the API lives under `/api/v0`). */
  baseUrl: string;
  /** Presence load balancer, e.g. `http://127.0.0.1:40002`. */
  presenceUrl: string;
  /** Base URLs of the named presence servers, by index. */
  directServers: string[];
  /** The authorization endpoint, e.g. `http://127.0.0.1:40005/authorize`. */
  authUrl: string;
  /** The first configured token ({@link DEV_TOKEN} by default). */
  token: string;
  /**
   * The first admin token (given with no group; {@link DEV_TOKEN} by default): the one the
   * `/_emulator` routes accept. Undefined when every token is limited to groups.
   */
  adminToken?: string;
  /** Every configured token. */
  tokens: string[];
  /** Visitors connected right now. */
  visitorCount(): number;
  /** Stops every server, drops visitor sockets, waits for pending state-file writes. */
  close(): Promise<void>;
}

/** True for addresses only this machine reaches: 127.0.0.0/8, ::1, localhost. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${value}`);
}

/** Starts the emulator in-process. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  const presencePort = options.presencePort ?? (port ? port + 1 : 0);
  const serverCount = options.presenceServers ?? 2;
  checkCount("presenceServers", serverCount, 1);
  checkCount("latencyMs", options.latencyMs ?? 0, 0);
  if (options.rateLimitPerSecond !== undefined && !(options.rateLimitPerSecond > 0)) {
    throw new Error(`rateLimitPerSecond must be > 0, got ${options.rateLimitPerSecond}`);
  }

  // The development token is public: on an interface other people reach it would hand them every
  // group and the admin routes. Loopback only, unless tokens are given.
  if (!isLoopback(host) && !options.tokens?.length)
    throw new Error(
      `host ${host} is not a loopback address: give tokens (--token TOKEN) to serve on it; the development ` +
        `token "${DEV_TOKEN}" is public and would grant every group and the admin routes`,
    );
  const auth = new Auth(options.tokens ?? []);
  if (options.tokenLifetimeSeconds !== undefined) checkCount("tokenLifetimeSeconds", options.tokenLifetimeSeconds, 1);
  const apiKeys = (options.apiKeys ?? []).map((k) => (typeof k === "string" ? parseApiKeySpec(k) : k));
  const users = (options.users ?? []).map((u) => (typeof u === "string" ? parseUserSpec(u) : u));
  if (
    options.settingsUpdate !== undefined &&
    options.settingsUpdate !== "replace" &&
    options.settingsUpdate !== "merge"
  ) {
    throw new Error(`settingsUpdate must be "replace" or "merge", got ${JSON.stringify(options.settingsUpdate)}`);
  }
  const store = new RoleStore(options.groups ? new Set(options.groups) : undefined, options.settingsUpdate);
  let persist = (): Promise<void> => Promise.resolve();
  let writer: StateWriter | undefined;
  if (options.stateFile) {
    const saved = await loadState(options.stateFile);
    if (saved) store.restore(saved);
    const w = new StateWriter(options.stateFile, () => store.snapshot());
    writer = w;
    persist = () => w.save();
    // Write once now: an unwritable path fails the start, not the first change hours later.
    await w.save();
  }
  const log = new RequestLog(options.logCredentials ?? false);
  const faults = new FaultRules();
  const deps: PipelineDeps = {
    auth,
    log,
    faults,
    rateLimiter: options.rateLimitPerSecond ? new RateLimiter(options.rateLimitPerSecond) : undefined,
    latencyMs: options.latencyMs ?? 0,
    assertGroup: (g) => store.assertGroup(g),
  };

  const servers: Server[] = [];
  const start = async (server: Server, p: number): Promise<number> => {
    servers.push(server);
    return listen(server, host, p);
  };
  const closeAll = async (): Promise<void> => {
    await Promise.all(servers.map(closeServer));
  };

  try {
    const apiPort = await start(
      createServer(
        createPipeline(
          "api",
          [...rolesRoutes({ store, persist }), ...adminRoutes({ store, faults, log, persist })],
          deps,
        ),
      ),
      port,
    );
    // Named servers first: the load balancer needs their ports for its answers.
    const named: NamedServer[] = [];
    const namedServers: Server[] = [];
    for (let i = 0; i < serverCount; i++) {
      const s = createServer();
      const p = await start(s, presencePort ? presencePort + 1 + i : 0);
      named.push({ index: i, host, port: p });
      namedServers.push(s);
    }
    const presence = new PresenceRegistry(named);
    named.forEach((n, i) => {
      const s = namedServers[i] as Server;
      s.on("request", createPipeline("direct", presence.signalRoutes(n), deps));
      s.on("upgrade", presence.upgradeHandler(n));
    });
    const lbPort = await start(
      createServer(createPipeline("presence", presence.loadBalancerRoutes(), deps)),
      presencePort,
    );
    const authRoutes = authorizationRoutes({
      auth,
      apiKeys,
      users,
      tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    });
    const authPort = await start(
      createServer(createPipeline("auth", authRoutes, deps)),
      presencePort ? presencePort + 1 + serverCount : 0,
    );

    let closing: Promise<void> | undefined;
    return {
      baseUrl: `http://${urlHost(host, apiPort)}`,
      presenceUrl: `http://${urlHost(host, lbPort)}`,
      directServers: named.map((n) => `http://${urlHost(host, n.port)}`),
      authUrl: `http://${urlHost(host, authPort)}/authorize`,
      token: auth.tokens()[0] as string,
      ...(auth.adminTokens()[0] !== undefined ? { adminToken: auth.adminTokens()[0] } : {}),
      tokens: auth.tokens(),
      visitorCount: () => presence.size(),
      close: () =>
        (closing ??= (async () => {
          presence.closeAll();
          await closeAll();
          await writer?.idle();
        })()),
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
