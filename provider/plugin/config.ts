/**
 * A provider's configuration as the plugin receives it, read through the same config layer as the
 * dynamic providers (config/). A default provider gets the stack's `grouproles:*` config with the
 * namespace stripped; an explicit `Provider` resource gets its input properties (`baseUrl`,
 * `accessToken`, ...). Either way Configure's `args` hold them (secrets still marked, `version` among
 * them) and the deprecated `variables` the same as `grouproles:config:<key>` strings
 * (provider_plugin.go Configure). The layer sees `grouproles:<key>`, with the environment fallbacks
 * (`GROUPROLES_*`) it always had.
 */
import { ConfigurationError } from "../../client/errors";
import { AUTHORIZATION_KEYS, CREDENTIAL_KEYS, resolveCredentials } from "../../config/credentials";
import type { ConfigSource } from "../../config/source";
import { CONFIG_KEYS, resolveConfig } from "../../config/stack-config";
import { editDistance } from "../shared/settings-keys";
import { reveal } from "./values";

const NAMESPACE = "grouproles:";

/** Every configuration key the provider reads (its schema's `config.variables`). */
export const PROVIDER_KEYS: readonly string[] = [
  ...Object.keys(CONFIG_KEYS),
  ...Object.keys(CREDENTIAL_KEYS),
  ...Object.keys(AUTHORIZATION_KEYS),
];

/** Inputs the engine adds to every provider resource (providers.SetProviderVersion and the like). */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/** A property value as config text: strings as they are, maps (accessTokens, apiKeys) as JSON. */
const asText = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v);

/** `grouproles:<key>` from the properties (`<key>`), else from the variables. */
export function configSource(
  properties: Record<string, unknown>,
  variables: Record<string, string> = {},
): ConfigSource {
  const props = reveal(properties) as Record<string, unknown>;
  return {
    get: (key) => {
      const bare = key.startsWith(NAMESPACE) ? key.slice(NAMESPACE.length) : key;
      return asText(props[bare]) ?? variables[`${NAMESPACE}config:${bare}`] ?? variables[`${NAMESPACE}${bare}`];
    },
  };
}

/** Problems of a provider configuration, as CheckConfig failures naming the property; none when valid. */
export function configFailures(properties: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const failures: Array<{ property: string; reason: string }> = [];
  // A credential under a mistyped key: its failure says so, and a "no credentials" failure after it would
  // send the user to the stack config instead of the key to fix.
  let mistypedCredential = false;
  for (const key of Object.keys(properties)) {
    if (ENGINE_KEYS.has(key) || PROVIDER_KEYS.includes(key)) continue;
    const near = PROVIDER_KEYS.find((k) => editDistance(k.toLowerCase(), key.toLowerCase(), 3) <= 2);
    if (near && (near in CREDENTIAL_KEYS || near === "authUrl" || near === "partnerUserId")) mistypedCredential = true;
    failures.push({
      property: key,
      reason: `unknown provider setting "${key}"${near ? `; did you mean "${near}"?` : ""} (settings: ${PROVIDER_KEYS.join(", ")})`,
    });
  }
  const source = configSource(properties);
  const checks = [() => resolveConfig(source), ...(mistypedCredential ? [] : [() => resolveCredentials(source)])];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      // The messages name the config key (`grouproles:<key>`): the property is that key, bare.
      const key = /grouproles:([A-Za-z]+)/.exec(error.message)?.[1] ?? "";
      failures.push({ property: key, reason: error.message });
    }
  }
  return failures;
}
