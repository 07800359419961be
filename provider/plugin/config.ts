/**
 * A provider's configuration as the plugin receives it, read through the same config layer as the
 * dynamic providers (config/). A default provider gets the stack's `grouproles:*` config with the
 * namespace stripped; an explicit `Provider` resource gets its input properties (`baseUrl`,
 * `accessToken`, ...). Either way Configure's `args` hold them (secrets still marked, `version` among
 * them) and the deprecated `variables` the same as `grouproles:config:<key>` strings
 * (provider_plugin.go Configure). The layer sees `grouproles:<key>`, with the environment fallbacks
 * (`GROUPROLES_*`) it always had.
 */
import type { ConfigSource } from "../../config/source";
import {
  configFailures as settingFailures,
  isMistypedCredential,
  nearestSetting,
  PROVIDER_KEYS,
  shownProperty,
  withoutNoCredentials,
} from "../shared/config-check";
import { reveal } from "./values";

const NAMESPACE = "grouproles:";

/** Every configuration key the provider reads (its schema's `config.variables`). */
export { PROVIDER_KEYS };

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

/**
 * Problems of a provider configuration, as CheckConfig failures naming the property; none when valid.
 * CheckConfig runs for the provider in every deployment, a no-op preview too (registry.go `Check`), so
 * what ../shared/config-check knows without a request fails every preview, as for the dynamic providers.
 */
export function configFailures(properties: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const failures: Array<{ property: string; reason: string }> = [];
  // A credential under a mistyped key: its failure says so, and a "no credentials" failure beside it
  // would send the user to the stack config instead of the key to fix.
  let mistypedCredential = false;
  for (const key of Object.keys(properties)) {
    if (ENGINE_KEYS.has(key) || PROVIDER_KEYS.includes(key)) continue;
    const near = nearestSetting(key);
    mistypedCredential ||= isMistypedCredential(key);
    failures.push({
      property: shownProperty(key),
      reason: `unknown provider setting "${key}"${near ? `; did you mean "${near}"?` : ""} (settings: ${PROVIDER_KEYS.join(", ")})`,
    });
  }
  // The messages name the config key (`grouproles:<key>`): the property is that key, bare (none for a credential).
  const settings = withoutNoCredentials(settingFailures(configSource(properties), "provider"), mistypedCredential);
  failures.push(...settings.map((f) => ({ property: shownProperty(f.property), reason: f.reason })));
  return failures;
}
