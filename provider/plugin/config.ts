/**
 * A provider's configuration as the plugin receives it, read through the same config layer as the
 * dynamic providers (config/). A default provider gets the stack's `grouproles:*` config (the
 * engine strips the namespace in `args` and keeps it in `variables`); an explicit `Provider` resource
 * gets its input properties (`baseUrl`, `accessToken`, ...). Either way the layer sees `grouproles:<key>`.
 */
import { ConfigurationError } from "../../client/errors";
import { resolveCredentials } from "../../config/credentials";
import type { ConfigSource } from "../../config/source";
import { resolveConfig } from "../../config/stack-config";

const NAMESPACE = "grouproles:";

/** A property value as config text: strings as they are, maps (accessTokens, apiKeys) as JSON. */
const asText = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v);

/** `grouproles:<key>` from the properties (`<key>`), else from namespaced variables. */
export function configSource(
  properties: Record<string, unknown>,
  variables: Record<string, string> = {},
): ConfigSource {
  return {
    get: (key) => {
      const bare = key.startsWith(NAMESPACE) ? key.slice(NAMESPACE.length) : key;
      return asText(properties[bare]) ?? variables[key];
    },
  };
}

/** Problems of a provider configuration, as CheckConfig failures naming the property; none when valid. */
export function configFailures(properties: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const source = configSource(properties);
  const failures: Array<{ property: string; reason: string }> = [];
  for (const check of [() => resolveConfig(source), () => resolveCredentials(source)]) {
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
