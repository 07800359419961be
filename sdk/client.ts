/**
 * The client used by the data functions, which run in the program process (a dynamic provider cannot
 * serve invokes). Settings come from explicit options, else the stack config (`grouproles:*`), else
 * the environment, read at call time.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { GroupRolesClient } from "../client";
import { requireSettings, resolveConfig, timeoutOptions, type ResolvedConfig } from "../config/stack-config";
import { resolveCredentials } from "../config/credentials";
import type { ConfigSource } from "../config/source";

/** Overrides for where and how the data functions reach the service. */
export interface ConnectionOptions {
  /** Root of the roles interface. Default: `grouproles:baseUrl`, then `GROUPROLES_BASE_URL`. */
  baseUrl?: string;
  /** The presence load balancer. Default: `grouproles:presenceUrl`, then `GROUPROLES_PRESENCE_URL`. */
  presenceUrl?: string;
  /**
   * One bearer token for every group. Default: the credentials of the stack config (`grouproles:accessToken`,
   * `accessTokens`, `apiKey`/`apiKeys`, `username`/`password`), else the `GROUPROLES_*` environment.
   */
  accessToken?: string;
  /**
   * Accept plain http for non-loopback hosts.
   * @default false
   */
  allowInsecureHttp?: boolean;
  /**
   * Where named presence servers may be besides the load balancer's host and its siblings under the
   * same parent domain: domains (each allowing the hosts under it) or IP addresses. The access token
   * goes only to named servers that pass. Default: `grouproles:presenceServerDomains` (comma-separated),
   * then `GROUPROLES_PRESENCE_SERVER_DOMAINS`, else none.
   */
  presenceServerDomains?: readonly string[];
}

/** Reads the stack config the way Pulumi hands it to the program, without secret-access warnings. */
export const programConfig: ConfigSource = { get: (key: string) => pulumi.runtime.getConfig(key) };

/** Clients by settings, so fetched tokens are reused by every data function call of the program. */
const clients = new Map<string, GroupRolesClient>();

/**
 * The client for `options`, else `source`'s settings: the stack config by default, or an explicit
 * provider's inputs (./delete-guard reads the service as the resource's own provider does).
 */
export function clientFor(
  options: ConnectionOptions | undefined,
  need: "roles" | "presence",
  source: ConfigSource = programConfig,
): GroupRolesClient {
  const fromConfig = resolveConfig(source);
  const cfg: ResolvedConfig = {
    baseUrl: options?.baseUrl ?? fromConfig.baseUrl,
    presenceUrl: options?.presenceUrl ?? fromConfig.presenceUrl,
    allowInsecureHttp: options?.allowInsecureHttp ?? fromConfig.allowInsecureHttp,
  };
  requireSettings(cfg, need);
  const credentials =
    options?.accessToken !== undefined
      ? {
          client: { accessToken: options.accessToken },
          fingerprint: createHash("sha256").update(options.accessToken).digest("hex"),
        }
      : resolveCredentials(source);
  const settings = {
    baseUrl: cfg.baseUrl,
    presenceUrl: cfg.presenceUrl,
    allowInsecureHttp: cfg.allowInsecureHttp,
    presenceServerDomains: options?.presenceServerDomains ?? fromConfig.presenceServerDomains,
    ...timeoutOptions(fromConfig),
  };
  const key = `${JSON.stringify(settings)}|${credentials.fingerprint}`;
  let client = clients.get(key);
  if (!client) {
    client = new GroupRolesClient({ ...settings, ...credentials.client });
    clients.set(key, client);
  }
  return client;
}
