/**
 * Everything about the provider's settings that can be known without a request, checked in every
 * preview, a no-op one included: the form of the addresses (`baseUrl`, `presenceUrl`, `authUrl`), a
 * missing, empty, conflicting or malformed credential, numbers and flags that are not of their kind,
 * and `grouproles:` keys that no setting has (a typo such as `grouproles:baseURL`).
 *
 * Where: Pulumi's engine runs Check for every resource of the program in every preview and update,
 * changed or not (pkg/resource/deploy/step_generator.go `continueStepsFromImport`: `prov.Check` for
 * every registration, before the Diff that may find no change), while a no-op Diff sends nothing. So
 * the Role and GroupRoles checks call {@link configFailures} first and fail with it, without a
 * request. The plugin also answers CheckConfig with it (providers/registry.go `Check` calls CheckConfig
 * for the provider resource in every deployment too). The dynamic providers learn the stack config in
 * `configure`, which the dynamic-provider host calls before the first Check (`getProvider`,
 * @pulumi/pulumi cmd/dynamic-provider/index.js); the plugin in Configure.
 */
import { ConfigurationError } from "../../client/errors";
import { parseServiceUrl } from "../../client/urls";
import { AUTHORIZATION_KEYS, CREDENTIAL_KEYS, NoCredentialsError, resolveCredentials } from "../../config/credentials";
import type { ConfigSource } from "../../config/source";
import { CONFIG_KEYS, requireSettings, resolveConfig, setting, stackConfigSource } from "../../config/stack-config";
import { isUnknown } from "./fields";
import { editDistance } from "./settings-keys";

const NAMESPACE = "grouproles:";

/** Every setting the provider reads, bare (`baseUrl`): the `grouproles:` keys it knows. */
export const PROVIDER_KEYS: readonly string[] = [
  ...Object.keys(CONFIG_KEYS),
  ...Object.keys(CREDENTIAL_KEYS),
  ...Object.keys(AUTHORIZATION_KEYS),
];

/** The settings that are credentials (secret in state: sdk/package/provider.ts `SECRET_KEYS`). */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(["accessToken", "accessTokens", "apiKey", "apiKeys", "password"]);

/**
 * The property a CheckConfig failure may name for `key`: none ("") for a credential, or a near miss of
 * one, since the engine prints the named property's value beside the reason (step_generator.go
 * `issueCheckFailures`), and a credential never reaches a message (invariant 2).
 */
export function shownProperty(key: string): string {
  return SECRET_SETTINGS.has(key) || SECRET_SETTINGS.has(nearestSetting(key) ?? "") ? "" : key;
}

/** The settings a credential needs (bare): under a near miss of one, a missing credential is that key's fault. */
export const CREDENTIAL_SETTINGS: ReadonlySet<string> = new Set([
  ...Object.keys(CREDENTIAL_KEYS),
  "authUrl",
  "partnerUserId",
]);

/** A setting that cannot work: the key (bare, `baseUrl`; "" when several) and the rule it breaks. */
export interface ConfigFailure {
  property: string;
  reason: string;
  /** No credential is set at all (left out beside a credential under a mistyped key: {@link withoutNoCredentials}). */
  noCredentials?: boolean;
}

/** True when the unknown setting `key` (bare) is probably a mistyped credential setting. */
export function isMistypedCredential(key: string): boolean {
  const near = nearestSetting(key);
  return near !== undefined && CREDENTIAL_SETTINGS.has(near);
}

/**
 * The failures without "no credentials" when a credential was set under a mistyped key: that key's
 * failure names the one to fix, and "no credentials" beside it would send the user elsewhere.
 */
export function withoutNoCredentials(failures: ConfigFailure[], mistypedCredential: boolean): ConfigFailure[] {
  return mistypedCredential ? failures.filter((f) => !f.noCredentials) : failures;
}

/** The known setting `key` (bare) is probably a typo of, if any: same letters in another case, or 2 edits. */
export function nearestSetting(key: string): string | undefined {
  return PROVIDER_KEYS.find((k) => editDistance(k.toLowerCase(), key.toLowerCase(), 3) <= 2);
}

/** The reason for an unknown setting `key` (bare), naming the nearest known one. */
export function unknownSettingReason(key: string, shown = `${NAMESPACE}${key}`): string {
  const near = nearestSetting(key);
  return (
    `unknown setting "${shown}"${near ? `; did you mean "${shown.slice(0, -key.length)}${near}"?` : ""} ` +
    `(settings: ${PROVIDER_KEYS.join(", ")})`
  );
}

/** The bare key a ConfigurationError's message names first (`grouproles:<key>` or `GROUPROLES_<KEY>`), or "". */
function keyNamed(message: string): string {
  const config = /grouproles:([A-Za-z]+)/.exec(message)?.[1];
  if (config) return config;
  const env = /GROUPROLES_([A-Z_]+)/.exec(message)?.[1];
  return env ? env.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : "";
}

/** Runs `check`; a ConfigurationError becomes a failure naming the key its message names. */
function collect(failures: ConfigFailure[], check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const failure: ConfigFailure = { property: keyNamed(error.message), reason: error.message };
    failures.push(error instanceof NoCredentialsError ? { ...failure, noCredentials: true } : failure);
  }
}

/**
 * The settings' problems, none when they can work. `need: "roles"` (a Role or GroupRoles check) also
 * requires `baseUrl`; `"provider"` (the plugin's CheckConfig: a provider may serve presence lookups
 * only) checks what is set. Values unknown in a preview (an explicit provider's inputs from outputs)
 * are skipped: only the `up` can know them. The environment fallbacks (`GROUPROLES_*`) count as set.
 */
export function configFailures(
  source: ConfigSource | undefined = stackConfigSource(),
  need: "roles" | "provider" = "roles",
): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  const raw = source?.get.bind(source);
  const unknown = (key: string) => raw !== undefined && isUnknown(raw(key));
  const known: ConfigSource = { get: (key) => (unknown(key) ? undefined : raw?.(key)) };

  let mistypedCredential = false;
  for (const key of source?.keys?.() ?? []) {
    if (!key.startsWith(NAMESPACE)) continue;
    const bare = key.slice(NAMESPACE.length);
    if (PROVIDER_KEYS.includes(bare)) continue;
    failures.push({ property: bare, reason: unknownSettingReason(bare, key) });
    mistypedCredential ||= isMistypedCredential(bare);
  }

  let allowInsecureHttp = false;
  collect(failures, () => {
    allowInsecureHttp = resolveConfig(known).allowInsecureHttp;
  });
  for (const key of ["baseUrl", "presenceUrl"] as const) {
    if (unknown(CONFIG_KEYS[key])) continue;
    const { value, name } = setting(key, known);
    if (value !== undefined) collect(failures, () => parseServiceUrl(value, name, allowInsecureHttp));
    else if (key === "baseUrl" && need === "roles")
      collect(failures, () => requireSettings({ allowInsecureHttp }, "roles"));
  }

  const credentialKeys = [...Object.values(CREDENTIAL_KEYS), ...Object.values(AUTHORIZATION_KEYS)].map(([k]) => k);
  if (!credentialKeys.some(unknown)) {
    collect(failures, () => {
      const credentials = resolveCredentials(known);
      const authUrl = credentials.client.authorization?.authUrl;
      if (authUrl !== undefined) parseServiceUrl(authUrl, authUrlName(known), allowInsecureHttp);
    });
  }
  return withoutNoCredentials(failures, mistypedCredential);
}

/** Where `authUrl` came from, for messages: the stack config key or the environment variable. */
function authUrlName(source: ConfigSource): string {
  const [key, env] = AUTHORIZATION_KEYS.authUrl;
  const fromConfig = source.get(key);
  return fromConfig !== undefined && fromConfig !== "" ? key : env;
}

/** The failures as one line each, for a Check failure of a resource (property "": the whole config). */
export function configFailureReason(failures: readonly ConfigFailure[]): string {
  const lines = failures.map((f) => f.reason);
  return lines.length === 1
    ? `the provider configuration cannot work: ${lines[0]}`
    : `the provider configuration cannot work:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}

/**
 * The stack config as the dynamic-provider host hands it to `configure`, with its keys: the host's
 * `Config` keeps the whole stack config (every namespace, as target.go `GetPackageConfig` gives dynamic
 * providers) in `rawConfig` (@pulumi/pulumi cmd/dynamic-provider/config.js) and offers only `get`.
 * Without that field (another SDK version) unknown keys are not checked; every other rule still is.
 * A project itself named `grouproles` keeps its own config under the same namespace: not checked then.
 */
export function dynamicConfigSource(config: ConfigSource): ConfigSource {
  const host = config as ConfigSource & { rawConfig?: unknown; projectName?: unknown };
  const raw = host.rawConfig;
  if (config.keys || !raw || typeof raw !== "object" || host.projectName === "grouproles") return config;
  return { get: (key) => config.get(key), keys: () => Object.keys(raw) };
}

/** Check failures for a resource whose provider configuration cannot work (property "": the whole config). */
export function configCheckFailures(): ConfigFailure[] {
  const failures = configFailures();
  return failures.length ? [{ property: "", reason: configFailureReason(failures) }] : [];
}
