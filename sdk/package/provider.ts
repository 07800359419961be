/**
 * An explicit provider of the `grouproles` plugin: one service address and credential. Resources and
 * functions given `{ provider }` use it instead of the default provider (the `grouproles:*` stack
 * config), so one program can manage roles on several sites or accounts.
 */
import * as pulumi from "@pulumi/pulumi";
import { withVersion } from "./version";
import { registerProviderGuard } from "../delete-guard/hook";

/** The settings of a {@link Provider}: the `grouproles:*` config keys, same meaning. */
export interface ProviderArgs {
  /** Root of the roles interface (`{baseUrl}/api/v0/...`). Default: `GROUPROLES_BASE_URL`. */
  baseUrl?: pulumi.Input<string>;
  /** The presence load balancer. Default: `GROUPROLES_PRESENCE_URL`. */
  presenceUrl?: pulumi.Input<string>;
  /** One bearer token, sent for every group (secret). */
  accessToken?: pulumi.Input<string>;
  /** A bearer token per group, group ID to token (secret). */
  accessTokens?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** The authorization endpoint, where tokens are fetched with an API key or a user. */
  authUrl?: pulumi.Input<string>;
  /** One group's API key, used for every group (secret; with `partnerUserId` and `authUrl`). */
  apiKey?: pulumi.Input<string>;
  /** An API key per group, group ID to key (secret). */
  apiKeys?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Your own user identifier in login keys. */
  partnerUserId?: pulumi.Input<string>;
  /** A user of one group (with `password` and `authUrl`). */
  username?: pulumi.Input<string>;
  /** The password of `username` (secret). */
  password?: pulumi.Input<string>;
  /** Lifetime asked for each fetched token, 1 to 120 minutes. @default 120 */
  tokenMinutes?: pulumi.Input<number>;
  /** The `site` of token requests, e.g. `production`. */
  site?: pulumi.Input<string>;
  /** Allow plain `http://` to a host other than loopback. @default false */
  allowInsecureHttp?: pulumi.Input<boolean>;
  /** Comma-separated domains or IP addresses where named presence servers may also be. */
  presenceServerDomains?: pulumi.Input<string>;
  /** Most roles in one array request. @default 100 */
  maxBatchSize?: pulumi.Input<number>;
  /** Quiet gap in ms before a batch is sent. @default 50 */
  batchWindowMs?: pulumi.Input<number>;
  /** Client-side request budget per second. */
  maxRequestsPerSecond?: pulumi.Input<number>;
  /** Most requests in flight at once. */
  maxConcurrentRequests?: pulumi.Input<number>;
  /** Reply headers and body timeout in ms. @default 30000 */
  timeoutMs?: pulumi.Input<number>;
  /** Deadline of each request as a whole (connect, headers, whole body) in ms. @default 120000 */
  deadlineMs?: pulumi.Input<number>;
  /** Largest reply body read, in bytes. @default 51200000 */
  maxReplyBytes?: pulumi.Input<number>;
  /**
   * Bind the before-delete hook to this provider's resources, so that a preview refuses to remove a role
   * users hold (docs/delete-hooks.md); `false` binds none. @default true
   */
  deleteHooks?: pulumi.Input<boolean>;
}

/** The settings that are credentials: always secret in state (schema.json marks the same). */
export const SECRET_KEYS = ["accessToken", "accessTokens", "apiKey", "apiKeys", "password"] as const;

export class Provider extends pulumi.ProviderResource {
  /** The type token, `pulumi:providers:grouproles`. */
  public static readonly __pulumiType = "grouproles";

  /** Returns true if `obj` is a grouproles Provider (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is Provider {
    return (
      pulumi.CustomResource.isInstance(obj) &&
      Reflect.get(obj, "__pulumiType") === `pulumi:providers:${Provider.__pulumiType}`
    );
  }

  /**
   * @param name The unique name of the provider in the program.
   * @param args The service address and credential; unset settings fall back to `GROUPROLES_*`.
   */
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const inputs: pulumi.Inputs = { ...args };
    for (const key of SECRET_KEYS) if (inputs[key] !== undefined) inputs[key] = pulumi.secret(inputs[key]);
    super(Provider.__pulumiType, name, inputs, withVersion(opts));
    // The before-delete hook of the resources this provider manages reads the service with its inputs.
    registerProviderGuard(this, name, args);
  }
}
