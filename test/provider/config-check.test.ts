/**
 * The checks of the provider's settings that every preview runs without a request
 * (provider/shared/config-check.ts), rule by rule; the engine's side of it (every Check of a no-op
 * preview, the plugin's CheckConfig) is shown through the engine stand-in in
 * test/e2e/config-preview.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/shared/fields";
import { configFailures, dynamicConfigSource, shownProperty } from "../../provider/shared/config-check";
import { configFailures as pluginFailures } from "../../provider/plugin/config";

const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });
const WORKING = { "grouproles:baseUrl": "https://roles.example.com", "grouproles:accessToken": "t0ken" };
const reasons = (values: Record<string, string>, need: "roles" | "provider" = "roles") =>
  configFailures(config(values), need).map((f) => `${f.property}: ${f.reason}`);

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith("GROUPROLES_")) delete process.env[k];
  Object.assign(process.env, saved);
});

describe("what a preview knows without a request", () => {
  it("working settings: no failure", () => {
    expect(reasons(WORKING)).toEqual([]);
    expect(reasons({ ...WORKING, "grouproles:baseUrl": "http://127.0.0.1:8080" })).toEqual([]);
  });

  it("every address, each named with its key and rule: baseUrl, presenceUrl, authUrl", () => {
    expect(
      reasons({
        "grouproles:baseUrl": "roles.example.com",
        "grouproles:presenceUrl": "ftp://presence.example.com",
        "grouproles:apiKey": "k",
        "grouproles:partnerUserId": "ci",
        "grouproles:authUrl": "http://auth.example.com/authorize",
      }),
    ).toEqual([
      'baseUrl: grouproles:baseUrl: "roles.example.com" is not an absolute URL: it has no scheme (expected e.g. https://api.example.com, or http://localhost:8080 for a loopback emulator)',
      "presenceUrl: grouproles:presenceUrl: scheme must be https (or http for a loopback emulator), got ftp:",
      "authUrl: grouproles:authUrl: plain http is refused for non-loopback host auth.example.com; use https (or, for a trusted network, set grouproles:allowInsecureHttp, or the client option allowInsecureHttp)",
    ]);
  });

  it("a value from the environment is named by its variable; a missing baseUrl fails a resource's check only", () => {
    process.env.GROUPROLES_BASE_URL = "localhost:8080";
    expect(reasons({ "grouproles:accessToken": "t" })).toEqual([
      expect.stringMatching(/^baseUrl: GROUPROLES_BASE_URL: "localhost:8080" is not an absolute URL: it has no scheme/),
    ]);
    delete process.env.GROUPROLES_BASE_URL;
    expect(reasons({ "grouproles:accessToken": "t" })).toEqual([
      expect.stringMatching(/^baseUrl: no service address: set `pulumi config set grouproles:baseUrl https:\/\/...`/),
    ]);
    // A plugin provider may serve presence lookups only: its CheckConfig does not require baseUrl.
    expect(reasons({ "grouproles:accessToken": "t" }, "provider")).toEqual([]);
  });

  it("credentials: empty or blank, with a line break, conflicting; a flag or number not of its kind", () => {
    expect(reasons({ ...WORKING, "grouproles:accessToken": " " })).toEqual([
      expect.stringMatching(/^accessToken: no credentials: grouproles:accessToken is set but empty; set /),
    ]);
    process.env.GROUPROLES_ACCESS_TOKEN = "";
    expect(reasons({ "grouproles:baseUrl": WORKING["grouproles:baseUrl"] })).toEqual([
      expect.stringMatching(/^accessToken: no credentials: GROUPROLES_ACCESS_TOKEN is set but empty; set /),
    ]);
    expect(reasons({ ...WORKING, "grouproles:accessTokens": '{"42": "a b"}', "grouproles:accessToken": "" })).toEqual([
      expect.stringMatching(/^accessTokens: grouproles:accessTokens: the token of group 42 must not contain spaces/),
    ]);
    expect(reasons({ ...WORKING, "grouproles:allowInsecureHttp": "maybe", "grouproles:timeoutMs": "soon" })).toEqual([
      'allowInsecureHttp: grouproles:allowInsecureHttp (or GROUPROLES_ALLOW_INSECURE_HTTP) must be true or false (also yes/no, 1/0), got "maybe"',
    ]);
    expect(reasons({ ...WORKING, "grouproles:apiKey": "k" })).toEqual([
      expect.stringMatching(/^accessToken: conflicting credentials: grouproles:accessToken, grouproles:apiKey are set/),
    ]);
  });

  it("keys no setting has, when the source lists its keys (the dynamic host's), with the nearest setting", () => {
    const host = { rawConfig: { ...WORKING, "grouproles:baseURL": "x", "other:key": "y" }, projectName: "app" };
    const source = dynamicConfigSource({ get: (k) => host.rawConfig[k as keyof typeof host.rawConfig], ...host });
    expect(configFailures(source).map((f) => [f.property, f.reason.split(" (settings:")[0]])).toEqual([
      ["baseURL", 'unknown setting "grouproles:baseURL"; did you mean "grouproles:baseUrl"?'],
    ]);
    // A project named `grouproles` keeps its own config under that namespace: its keys are not checked.
    const own = { ...host, projectName: "grouproles" };
    expect(configFailures(dynamicConfigSource({ get: (k) => own.rawConfig[k as never], ...own }))).toEqual([]);
  });

  it("a credential under a mistyped key fails alone, as that key: no 'no credentials' beside it (dynamic and plugin)", () => {
    const host = { rawConfig: { "grouproles:baseUrl": "https://roles.example.com", "grouproles:acessToken": "t" } };
    const source = dynamicConfigSource({ get: (k) => host.rawConfig[k as keyof typeof host.rawConfig], ...host });
    expect(configFailures(source).map((f) => [f.property, f.reason.split(" (settings:")[0]])).toEqual([
      ["acessToken", 'unknown setting "grouproles:acessToken"; did you mean "grouproles:accessToken"?'],
    ]);
    const plugin = pluginFailures({ baseUrl: "https://roles.example.com", acessToken: "t" });
    expect(plugin.map((f) => f.reason.split(" (settings:")[0])).toEqual([
      'unknown provider setting "acessToken"; did you mean "accessToken"?',
    ]);
    // A typo of another setting leaves the missing credential reported.
    const other = { rawConfig: { "grouproles:baseUrl": "https://roles.example.com", "grouproles:timeoutMS": "5" } };
    const otherSource = dynamicConfigSource({
      get: (k) => other.rawConfig[k as keyof typeof other.rawConfig],
      ...other,
    });
    expect(configFailures(otherSource).map((f) => f.reason.split(":")[0])).toEqual([
      'unknown setting "grouproles',
      "no credentials",
    ]);
  });

  it("a value unknown in the preview (an explicit provider's input from an output) is left to the up", () => {
    expect(reasons({ "grouproles:baseUrl": UNKNOWN, "grouproles:accessToken": UNKNOWN })).toEqual([]);
    expect(reasons({ "grouproles:baseUrl": "roles.example.com", "grouproles:accessToken": UNKNOWN })).toEqual([
      expect.stringMatching(/^baseUrl: grouproles:baseUrl: "roles.example.com" is not an absolute URL/),
    ]);
  });

  it("the plugin's CheckConfig never names a credential as the property (the engine would print its value)", () => {
    expect(shownProperty("baseUrl")).toBe("baseUrl");
    expect(["accessToken", "apiKeys", "password", "acessToken"].map(shownProperty)).toEqual(["", "", "", ""]);
    const failures = pluginFailures({ baseUrl: "https://roles.example.com", accessToken: "a\nb", acessToken: "x" });
    expect(failures.map((f) => f.property)).toEqual(["", ""]);
    expect(JSON.stringify(failures)).not.toContain("a\\nb");
  });
});
