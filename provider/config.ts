/**
 * Where the provider finds the service address and credentials, at call time, never captured:
 * stack config from `configure` (`grouproles:*`, secrets arrive unwrapped), else the environment.
 */
import { GroupRolesClient, type ClientOptions } from "./client";
import { ConfigurationError } from "./client/errors";

/** Anything with `get(key)`, like the `config` of Pulumi's `ConfigureRequest`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

export const CONFIG_KEYS = {
  baseUrl: "grouproles:baseUrl",
  presenceUrl: "grouproles:presenceUrl",
  accessToken: "grouproles:accessToken",
  allowInsecureHttp: "grouproles:allowInsecureHttp",
} as const;

export const ENV_KEYS = {
  baseUrl: "GROUPROLES_BASE_URL",
  presenceUrl: "GROUPROLES_PRESENCE_URL",
  accessToken: "GROUPROLES_ACCESS_TOKEN",
  allowInsecureHttp: "GROUPROLES_ALLOW_INSECURE_HTTP",
} as const;

let stackConfig: ConfigSource | undefined;

/** Records the stack config handed to the provider's `configure`. */
export function setStackConfig(config: ConfigSource | undefined): void {
  stackConfig = config;
}

/** The resolved settings. */
export interface ResolvedConfig {
  baseUrl?: string;
  presenceUrl?: string;
  accessToken?: string;
  allowInsecureHttp: boolean;
}

function pick(key: keyof typeof CONFIG_KEYS, source?: ConfigSource): string | undefined {
  const fromConfig = (source ?? stackConfig)?.get(CONFIG_KEYS[key]);
  const value = fromConfig !== undefined && fromConfig !== "" ? fromConfig : process.env[ENV_KEYS[key]];
  return value === "" ? undefined : value;
}

/** Reads the settings now (config first, then environment). */
export function resolveConfig(source?: ConfigSource): ResolvedConfig {
  return {
    baseUrl: pick("baseUrl", source),
    presenceUrl: pick("presenceUrl", source),
    accessToken: pick("accessToken", source),
    allowInsecureHttp: /^(1|true|yes)$/i.test(pick("allowInsecureHttp", source) ?? ""),
  };
}

/**
 * Checks that the settings needed for `need` are present.
 * @throws ConfigurationError saying which config key or environment variable to set.
 */
export function requireSettings(cfg: ResolvedConfig, need: "roles" | "presence"): void {
  if (!cfg.accessToken) {
    throw new ConfigurationError(
      `no access token: set it with \`pulumi config set ${CONFIG_KEYS.accessToken} --secret <token>\` or the ${ENV_KEYS.accessToken} environment variable`,
    );
  }
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

const clients = new Map<string, GroupRolesClient>();

/**
 * The provider's client for the current settings. Clients are cached per address; the token is read
 * for every request, so a rotated token in the environment or config is picked up without a restart.
 */
export function clientFromConfig(extra: Partial<ClientOptions> = {}): GroupRolesClient {
  const cfg = resolveConfig();
  requireSettings(cfg, "roles");
  const key = `${cfg.baseUrl}|${cfg.presenceUrl ?? ""}|${cfg.allowInsecureHttp}|${JSON.stringify(extra)}`;
  let client = clients.get(key);
  if (!client) {
    client = new GroupRolesClient({
      ...extra,
      baseUrl: cfg.baseUrl,
      presenceUrl: cfg.presenceUrl,
      allowInsecureHttp: cfg.allowInsecureHttp,
      accessToken: () => resolveConfig().accessToken,
    });
    clients.set(key, client);
  }
  return client;
}
