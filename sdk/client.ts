/**
 * The client used by the data functions, which run in the program process (a dynamic provider cannot
 * serve invokes). Settings come from explicit options, else the stack config (`grouproles:*`), else
 * the environment, read at call time.
 */
import * as pulumi from "@pulumi/pulumi";
import { GroupRolesClient } from "../client";
import { requireSettings, resolveConfig, timeoutOptions, type ResolvedConfig } from "../provider/config";

/** Overrides for where and how the data functions reach the service. */
export interface ConnectionOptions {
  /** Root of the roles interface. Default: `grouproles:baseUrl`, then `GROUPROLES_BASE_URL`. */
  baseUrl?: string;
  /** The presence load balancer. Default: `grouproles:presenceUrl`, then `GROUPROLES_PRESENCE_URL`. */
  presenceUrl?: string;
  /** Bearer token. Default: `grouproles:accessToken` (a secret), then `GROUPROLES_ACCESS_TOKEN`. */
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
const programConfig = { get: (key: string) => pulumi.runtime.getConfig(key) };

export function clientFor(options: ConnectionOptions | undefined, need: "roles" | "presence"): GroupRolesClient {
  const fromConfig = resolveConfig(programConfig);
  const cfg: ResolvedConfig = {
    baseUrl: options?.baseUrl ?? fromConfig.baseUrl,
    presenceUrl: options?.presenceUrl ?? fromConfig.presenceUrl,
    accessToken: options?.accessToken ?? fromConfig.accessToken,
    allowInsecureHttp: options?.allowInsecureHttp ?? fromConfig.allowInsecureHttp,
  };
  const presenceServerDomains = options?.presenceServerDomains ?? fromConfig.presenceServerDomains;
  requireSettings(cfg, need);
  return new GroupRolesClient({
    baseUrl: cfg.baseUrl,
    presenceUrl: cfg.presenceUrl,
    accessToken: cfg.accessToken!,
    allowInsecureHttp: cfg.allowInsecureHttp,
    presenceServerDomains,
    ...timeoutOptions(fromConfig),
  });
}
