/**
 * Where the provider finds the service address and credentials, at call time, never captured:
 * stack config from `configure` (`grouproles:*`, secrets arrive unwrapped), else the environment.
 */
import { GroupRolesClient, type ClientOptions } from "../client";
import { ConfigurationError } from "../client/errors";
import { parsePresenceServerDomains } from "../client/presence-hosts";
import { resolveCredentials } from "./credentials";
import type { BatchOptions } from "./batch-options";
import type { ConfigSource } from "./source";

export type { ConfigSource } from "./source";

export const CONFIG_KEYS = {
  baseUrl: "grouproles:baseUrl",
  presenceUrl: "grouproles:presenceUrl",
  allowInsecureHttp: "grouproles:allowInsecureHttp",
  presenceServerDomains: "grouproles:presenceServerDomains",
  maxBatchSize: "grouproles:maxBatchSize",
  batchWindowMs: "grouproles:batchWindowMs",
  maxRequestsPerSecond: "grouproles:maxRequestsPerSecond",
  maxConcurrentRequests: "grouproles:maxConcurrentRequests",
  timeoutMs: "grouproles:timeoutMs",
  deadlineMs: "grouproles:deadlineMs",
  maxReplyBytes: "grouproles:maxReplyBytes",
  deleteHooks: "grouproles:deleteHooks",
} as const;

export const ENV_KEYS = {
  baseUrl: "GROUPROLES_BASE_URL",
  presenceUrl: "GROUPROLES_PRESENCE_URL",
  allowInsecureHttp: "GROUPROLES_ALLOW_INSECURE_HTTP",
  presenceServerDomains: "GROUPROLES_PRESENCE_SERVER_DOMAINS",
  maxBatchSize: "GROUPROLES_MAX_BATCH_SIZE",
  batchWindowMs: "GROUPROLES_BATCH_WINDOW_MS",
  maxRequestsPerSecond: "GROUPROLES_MAX_REQUESTS_PER_SECOND",
  maxConcurrentRequests: "GROUPROLES_MAX_CONCURRENT_REQUESTS",
  timeoutMs: "GROUPROLES_TIMEOUT_MS",
  deadlineMs: "GROUPROLES_DEADLINE_MS",
  maxReplyBytes: "GROUPROLES_MAX_REPLY_BYTES",
  deleteHooks: "GROUPROLES_DELETE_HOOKS",
} as const;

let stackConfig: ConfigSource | undefined;

/** Records the stack config handed to the provider's `configure`. */
export function setStackConfig(config: ConfigSource | undefined): void {
  stackConfig = config;
}

/** The stack config `configure` recorded, if any. */
export function stackConfigSource(): ConfigSource | undefined {
  return stackConfig;
}

/** The resolved settings. */
export interface ResolvedConfig {
  baseUrl?: string;
  presenceUrl?: string;
  allowInsecureHttp: boolean;
  /**
   * Where named presence servers may be besides the load balancer's host and its siblings: domains
   * (each with the hosts under it) or IP addresses, from a comma-separated setting. Unset: none.
   */
  presenceServerDomains?: string[];
  /** Most roles per array request; 1 sends one request per role. Unset: the batcher's default. */
  maxBatchSize?: number;
  /** How long a write waits for others to join its batch, in milliseconds. */
  batchWindowMs?: number;
  /** Client-side limit of requests per second to the service; unset means no limit. */
  maxRequestsPerSecond?: number;
  /** Client-side limit of requests in flight per origin; unset means no limit. */
  maxConcurrentRequests?: number;
  /**
   * How long to wait for a reply's headers, and at most between two chunks of its body, in
   * milliseconds. Unset: the client's defaults (30 s each). Connecting keeps its own 10 s limit.
   * undici's timers have a resolution of about a second, so a timeout may fire up to ~1 s late.
   */
  timeoutMs?: number;
  /** Deadline of each request as a whole (connect, headers, whole body), in ms. Unset: 120 s. */
  deadlineMs?: number;
  /** Largest reply body read, in bytes. Unset: the client's default (see client/reply-limits). */
  maxReplyBytes?: number;
  /**
   * Whether the program binds its before-delete hook to every `Role` and `GroupRoles`, so that a
   * preview refuses to delete a role users hold (../sdk/delete-guard). Unset: true.
   */
  deleteHooks?: boolean;
}

type NumberKind = "positive integer" | "positive number" | "non-negative number";

/**
 * A numeric setting, or undefined when unset. A value that is not a number of the right kind fails
 * loudly: silently ignoring a typo in a rate limit would bring back the 429s it was set to avoid.
 */
function numberSetting(
  key: keyof typeof CONFIG_KEYS,
  source: ConfigSource | undefined,
  kind: NumberKind,
): number | undefined {
  const text = pick(key, source)?.trim();
  if (text === undefined) return undefined;
  const value = Number(text);
  const ok =
    text !== "" &&
    Number.isFinite(value) &&
    (kind === "non-negative number" ? value >= 0 : value > 0) &&
    (kind !== "positive integer" || Number.isInteger(value));
  if (!ok)
    throw new ConfigurationError(
      `${CONFIG_KEYS[key]} (or ${ENV_KEYS[key]}) must be a ${kind}, got ${JSON.stringify(text)}`,
    );
  return value;
}

/** `presenceServerDomains`, checked: a bad entry fails loudly, like a bad number. */
function domainsSetting(source: ConfigSource | undefined): string[] | undefined {
  const text = pick("presenceServerDomains", source);
  const field = `${CONFIG_KEYS.presenceServerDomains} (or ${ENV_KEYS.presenceServerDomains})`;
  return text === undefined ? undefined : parsePresenceServerDomains(text, field);
}

function pick(key: keyof typeof CONFIG_KEYS, source?: ConfigSource): string | undefined {
  return setting(key, source).value;
}

/**
 * A setting's value (config first, then environment; empty counts as unset) and the name of the place
 * it came from, `grouproles:<key>` or `GROUPROLES_<KEY>`, for messages about it.
 */
export function setting(
  key: keyof typeof CONFIG_KEYS,
  source?: ConfigSource,
): { value: string | undefined; name: string } {
  const fromConfig = (source ?? stackConfig)?.get(CONFIG_KEYS[key]);
  if (fromConfig !== undefined && fromConfig !== "") return { value: fromConfig, name: CONFIG_KEYS[key] };
  const fromEnv = process.env[ENV_KEYS[key]];
  return fromEnv !== undefined && fromEnv !== ""
    ? { value: fromEnv, name: ENV_KEYS[key] }
    : { value: undefined, name: CONFIG_KEYS[key] };
}

/**
 * `allowInsecureHttp`: true for `true`, `yes`, `1`, false for `false`, `no`, `0` (any case). Anything
 * else fails loudly: a typo (`ture`) silently read as false would only surface as a refused address.
 */
function booleanSetting(key: keyof typeof CONFIG_KEYS, source: ConfigSource | undefined, unset = false): boolean {
  const text = pick(key, source)?.trim();
  if (text === undefined) return unset;
  if (/^(0|false|no)$/i.test(text)) return false;
  if (/^(1|true|yes)$/i.test(text)) return true;
  throw new ConfigurationError(
    `${CONFIG_KEYS[key]} (or ${ENV_KEYS[key]}) must be true or false (also yes/no, 1/0), got ${JSON.stringify(text)}`,
  );
}

/** `deleteHooks` alone (the program reads it when it loads, before any other setting matters). */
export const deleteHooksEnabled = (source?: ConfigSource): boolean => booleanSetting("deleteHooks", source, true);

/** Reads the settings now (config first, then environment). */
export function resolveConfig(source?: ConfigSource): ResolvedConfig {
  return {
    baseUrl: pick("baseUrl", source),
    presenceUrl: pick("presenceUrl", source),
    allowInsecureHttp: booleanSetting("allowInsecureHttp", source),
    presenceServerDomains: domainsSetting(source),
    maxBatchSize: numberSetting("maxBatchSize", source, "positive integer"),
    batchWindowMs: numberSetting("batchWindowMs", source, "non-negative number"),
    maxRequestsPerSecond: numberSetting("maxRequestsPerSecond", source, "positive number"),
    maxConcurrentRequests: numberSetting("maxConcurrentRequests", source, "positive integer"),
    timeoutMs: numberSetting("timeoutMs", source, "positive integer"),
    deadlineMs: numberSetting("deadlineMs", source, "positive integer"),
    maxReplyBytes: numberSetting("maxReplyBytes", source, "positive integer"),
    deleteHooks: deleteHooksEnabled(source),
  };
}

/**
 * Checks that the address needed for `need` is present (credentials: see ./credentials).
 * @throws ConfigurationError saying which config key or environment variable to set.
 */
export function requireSettings(cfg: ResolvedConfig, need: "roles" | "presence"): void {
  if (need === "presence" && !cfg.presenceUrl) {
    throw new ConfigurationError(
      `no presence address: set \`pulumi config set ${CONFIG_KEYS.presenceUrl} https://...\` or the ${ENV_KEYS.presenceUrl} environment variable`,
    );
  }
  if (need === "roles" && !cfg.baseUrl) {
    throw new ConfigurationError(
      `no service address: set \`pulumi config set ${CONFIG_KEYS.baseUrl} https://...\` or the ${ENV_KEYS.baseUrl} environment variable`,
    );
  }
}

/** The batching `grouproles:maxBatchSize` and `grouproles:batchWindowMs` set; unset keys keep the defaults. */
export function batchOptions(cfg: ResolvedConfig): BatchOptions {
  return {
    ...(cfg.maxBatchSize !== undefined ? { maxBatchSize: cfg.maxBatchSize } : {}),
    ...(cfg.batchWindowMs !== undefined ? { windowMs: cfg.batchWindowMs } : {}),
  };
}

/**
 * The client timeouts `grouproles:timeoutMs` (reply headers and body) and `grouproles:deadlineMs` (the
 * whole request) set, and the reply cap of `grouproles:maxReplyBytes`; nothing for unset keys.
 */
export function timeoutOptions(cfg: ResolvedConfig): Pick<ClientOptions, "timeouts" | "maxReplyBytes"> {
  const timeouts = {
    ...(cfg.timeoutMs !== undefined ? { headersMs: cfg.timeoutMs, bodyMs: cfg.timeoutMs } : {}),
    ...(cfg.deadlineMs !== undefined ? { deadlineMs: cfg.deadlineMs } : {}),
  };
  return {
    ...(Object.keys(timeouts).length ? { timeouts } : {}),
    ...(cfg.maxReplyBytes !== undefined ? { maxReplyBytes: cfg.maxReplyBytes } : {}),
  };
}

const clients = new Map<string, GroupRolesClient>();

/**
 * The provider's client for the current settings. Clients are cached per address, limits and
 * credential: one client (and its token cache) serves the whole deployment, and a rotated credential
 * in the config or environment gets a new one without a restart.
 */
export function clientFromConfig(
  extra: Partial<ClientOptions> = {},
  need: "roles" | "presence" = "roles",
): GroupRolesClient {
  const cfg = resolveConfig();
  requireSettings(cfg, need);
  const credentials = resolveCredentials(stackConfig);
  const budget = {
    ...(cfg.maxRequestsPerSecond !== undefined ? { maxRequestsPerSecond: cfg.maxRequestsPerSecond } : {}),
    ...(cfg.maxConcurrentRequests !== undefined ? { maxConcurrentRequests: cfg.maxConcurrentRequests } : {}),
    ...timeoutOptions(cfg),
  };
  // The budget and timeouts are part of the key: a changed limit gets a client (and a writer) that enforces it.
  const key = [
    cfg.baseUrl,
    cfg.presenceUrl ?? "",
    cfg.allowInsecureHttp,
    cfg.presenceServerDomains ?? [],
    budget,
    extra,
    credentials.fingerprint,
  ]
    .map((part) => JSON.stringify(part))
    .join("|");
  let client = clients.get(key);
  if (!client) {
    client = new GroupRolesClient({
      ...budget,
      ...extra,
      baseUrl: cfg.baseUrl,
      presenceUrl: cfg.presenceUrl,
      allowInsecureHttp: cfg.allowInsecureHttp,
      presenceServerDomains: cfg.presenceServerDomains,
      ...credentials.client,
    });
    clients.set(key, client);
  }
  return client;
}
