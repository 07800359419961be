/**
 * Which credential the stack configures: one kind at a time, stack config before the environment
 * (never mixed), every missing, conflicting or malformed setting refused before any request, naming
 * the key, never showing a secret.
 */
import { describe, expect, it } from "vitest";
import { resolveCredentials } from "../../config/credentials";

const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });
const AUTH = { "grouproles:authUrl": "https://auth.example.com/authorize", "grouproles:partnerUserId": "ci-bot" };

describe("credential settings", () => {
  it("one token; a token per group; both (the single one serves the other groups)", async () => {
    const one = resolveCredentials(config({ "grouproles:accessToken": "t" }), {}).client.tokens!;
    expect([await one.token(1, "webservices"), one.describe(1)]).toEqual([
      "t",
      "the access token (grouproles:accessToken)",
    ]);
    const map = resolveCredentials(config({ "grouproles:accessTokens": '{"42":"a","43":"b"}' }), {}).client.tokens!;
    expect([await map.token(42, "webservices"), await map.token(43, "presence")]).toEqual(["a", "b"]);
    await expect(map.token(44, "webservices")).rejects.toThrow(
      "no access token for group 44: grouproles:accessTokens has tokens for groups 42, 43",
    );
    const both = resolveCredentials(
      config({ "grouproles:accessToken": "t", "grouproles:accessTokens": '{"42":"a"}' }),
      {},
    ).client.tokens!;
    expect([await both.token(42, "webservices"), await both.token(44, "webservices")]).toEqual(["a", "t"]);
    expect(both.describe(44)).toBe("the access token (grouproles:accessToken)");
  });

  it("an API key per group, with partnerUserId, authUrl, tokenMinutes and site", () => {
    const r = resolveCredentials(
      config({
        ...AUTH,
        "grouproles:apiKeys": '{"42":"k42","43":"k43"}',
        "grouproles:tokenMinutes": "30",
        "grouproles:site": "production",
      }),
      {},
    );
    expect(r.kind).toBe("apiKey");
    const auth = r.client.authorization!;
    expect(auth).toMatchObject({ authUrl: AUTH["grouproles:authUrl"], tokenMinutes: 30, site: "production" });
    if (auth.credential.kind !== "apiKey") throw new Error("expected an API key");
    expect([auth.credential.apiKeyFor(42), auth.credential.apiKeyFor(43), auth.credential.apiKeyFor(44)]).toEqual([
      "k42",
      "k43",
      undefined,
    ]);
    expect(auth.credential.origin).toBe("grouproles:apiKeys");
  });

  it("a user and password; tokenMinutes defaults to 120", () => {
    const r = resolveCredentials(config({ ...AUTH, "grouproles:username": "ana", "grouproles:password": "p" }), {});
    expect(r.client.authorization).toMatchObject({
      tokenMinutes: 120,
      credential: { kind: "user", username: "ana", password: "p" },
    });
  });

  it("the environment when the stack config sets no credential, never mixed with it", () => {
    const env = resolveCredentials(config({}), { GROUPROLES_ACCESS_TOKEN: "env" }).client.tokens!;
    expect(env.describe(1)).toBe("the access token (GROUPROLES_ACCESS_TOKEN)");
    const r = resolveCredentials(config({ ...AUTH, "grouproles:apiKey": "k" }), { GROUPROLES_ACCESS_TOKEN: "env" });
    expect(r.kind).toBe("apiKey");
  });

  it("a rotated credential changes the fingerprint; the same one keeps it", () => {
    const a = resolveCredentials(config({ "grouproles:accessToken": "one" }), {});
    expect(resolveCredentials(config({ "grouproles:accessToken": "one" }), {}).fingerprint).toBe(a.fingerprint);
    expect(resolveCredentials(config({ "grouproles:accessToken": "two" }), {}).fingerprint).not.toBe(a.fingerprint);
  });

  it.each([
    ["nothing set", {}, /^no credentials: set `pulumi config set --secret grouproles:accessToken/],
    [
      "token and API key",
      { "grouproles:accessToken": "t", "grouproles:apiKey": "k" },
      /^conflicting credentials: grouproles:accessToken, grouproles:apiKey are set/,
    ],
    [
      "API key and user",
      { ...AUTH, "grouproles:apiKeys": '{"1":"k"}', "grouproles:username": "u", "grouproles:password": "p" },
      /^conflicting credentials: grouproles:apiKeys, grouproles:username, grouproles:password are set/,
    ],
    [
      "apiKey and apiKeys",
      { ...AUTH, "grouproles:apiKey": "k", "grouproles:apiKeys": '{"1":"k"}' },
      /set grouproles:apiKey \(every group\) or grouproles:apiKeys \(per group\), not both/,
    ],
    [
      "an API key without authUrl",
      { "grouproles:apiKey": "k", "grouproles:partnerUserId": "p" },
      /grouproles:apiKey need grouproles:authUrl/,
    ],
    [
      "an API key without partnerUserId",
      { "grouproles:apiKey": "k", "grouproles:authUrl": "https://a/x" },
      /grouproles:partnerUserId .* must be set/,
    ],
    [
      "a user without a password",
      { ...AUTH, "grouproles:username": "u" },
      /grouproles:username and grouproles:password must both be set/,
    ],
    [
      "tokenMinutes 0",
      { ...AUTH, "grouproles:apiKey": "k", "grouproles:tokenMinutes": "0" },
      /grouproles:tokenMinutes must be a whole number of minutes from 1 to 120, got "0"/,
    ],
    [
      "tokenMinutes 121",
      { ...AUTH, "grouproles:apiKey": "k", "grouproles:tokenMinutes": "121" },
      /from 1 to 120, got "121"/,
    ],
    [
      "accessTokens not JSON",
      { "grouproles:accessTokens": "s3cr3t-value" },
      /^grouproles:accessTokens must be a JSON object of group ID to value.*it is not JSON$/,
    ],
    [
      "accessTokens an array",
      { "grouproles:accessTokens": '["s3cr3t-value"]' },
      /^grouproles:accessTokens must be a JSON object/,
    ],
    [
      "apiKeys keyed by name",
      { ...AUTH, "grouproles:apiKeys": '{"support":"s3cr3t-value"}' },
      /grouproles:apiKeys: key 1 of 1 is not a group ID \(a positive integer, e\.g\. "42"\)/,
    ],
    [
      // The token is where the group ID belongs: the message names the position, not the key.
      "accessTokens written backwards",
      { "grouproles:accessTokens": '{"43":"t-43","s3cr3t-value":"42"}' },
      /^grouproles:accessTokens: key 2 of 2 is not a group ID .* is it written backwards\?/,
    ],
    [
      "accessTokens null",
      { "grouproles:accessTokens": "null" },
      /^grouproles:accessTokens must be a JSON object of group ID to value, e\.g\. \{"42": "\.\.\."\}$/,
    ],
    ...["0", "042", "4x2", " 42", "9007199254740993"].map((key): [string, Record<string, string>, RegExp] => [
      `accessTokens keyed by ${JSON.stringify(key)}`,
      { "grouproles:accessTokens": JSON.stringify({ [key]: "s3cr3t-value" }) },
      /grouproles:accessTokens: key 1 of 1 is not a group ID/,
    ]),
    [
      "accessTokens with a number for a token",
      { "grouproles:accessTokens": '{"42":5}' },
      /grouproles:accessTokens: the value for group 42 must be a non-empty string/,
    ],
    ["an empty access token (as unset)", { "grouproles:accessToken": "" }, /^no credentials: /],
    [
      "apiKeys with an empty key",
      { ...AUTH, "grouproles:apiKeys": '{"42":""}' },
      /grouproles:apiKeys: the value for group 42 must be a non-empty string/,
    ],
  ])("refuses %s, naming the keys and never a value", (_label, values, message) => {
    let error: Error | undefined;
    try {
      resolveCredentials(config(values as Record<string, string>), {});
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain("s3cr3t-value");
  });

  it("environment conflicts are named with the variables", () => {
    expect(() => resolveCredentials(config({}), { GROUPROLES_ACCESS_TOKEN: "t", GROUPROLES_USERNAME: "u" })).toThrow(
      /conflicting credentials: GROUPROLES_ACCESS_TOKEN, GROUPROLES_USERNAME are set/,
    );
  });
});
