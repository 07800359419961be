/**
 * Every credential the client handles is registered for redaction, on every failure path of the
 * authorization request: an authorization service that echoes what it was sent (the password, the
 * login key) and the API key into its error replies must not put them into the error, its causes,
 * or what a log prints of it (JSON, util.inspect). A real HTTP server on loopback plays that service.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroupRolesClient } from "../../client";
import { withSeams } from "../../client/seams";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";

const PASSWORD = "pw-Kx9-redact-me";
const API_KEY = "api-key-Zq7-redact-me";

let auth: ScriptedServer;
let service: ScriptedServer;
beforeAll(async () => {
  // Refuses or fails every authorization, quoting the request body and the API key back.
  auth = await startScriptedServer((req, res, i) => {
    const said = `cannot authorize ${req.body} (key ${API_KEY})`;
    reply(res, [400, 401, 500][i % 3]!, { code: "refused", message: said });
  });
  service = await startScriptedServer((_req, res) => reply(res, 200, []));
});
afterAll(async () => {
  await auth.close();
  await service.close();
});

/** Everything of an error a log or a report could show: messages, causes, JSON and inspect output. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    parts.push(e.message, String(e.stack), JSON.stringify(e));
  }
  parts.push(inspect(error, { depth: 10, showHidden: true }));
  return parts.join("\n");
}

const client = (credential: Record<string, unknown>) =>
  new GroupRolesClient(
    withSeams(
      {
        baseUrl: service.url,
        authorization: { authUrl: `${auth.url}/authorize`, credential: credential as never },
        retry: { maxAttempts: 1 },
      },
      { sleep: async () => {} },
    ),
  );

describe("credentials are redacted on the authorization request's failure paths", () => {
  for (const attempt of [0, 1, 2]) {
    it(`a user's password (reply ${[400, 401, 500][attempt]})`, async () => {
      const before = auth.requests.length;
      const c = client({ kind: "user", username: "ana", password: PASSWORD, origin: "grouproles:password" });
      for (let i = 0; i < attempt; i++) await c.roles.list(42).catch(() => undefined);
      const error = await c.roles.list(42).catch((e: unknown) => e);
      expect(auth.requests.length).toBeGreaterThan(before);
      expect(auth.requests.at(-1)!.body).toContain(PASSWORD); // it was sent, and echoed back
      const shown = everything(error);
      expect(shown).toContain("cannot authorize");
      expect(shown).not.toContain(PASSWORD);
    });
  }

  it("an API key and the login key signed with it", async () => {
    const c = client({
      kind: "apiKey",
      apiKeyFor: () => API_KEY,
      partnerUserId: "ci-bot",
      origin: "grouproles:apiKeys",
    });
    const error = await c.roles.list(42).catch((e: unknown) => e);
    const sent = JSON.parse(auth.requests.at(-1)!.body) as { loginKey: string };
    expect(sent.loginKey).toMatch(/^\$1\$\d+\$/);
    const shown = everything(error);
    expect(shown).toContain("cannot authorize");
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain(sent.loginKey);
    expect(shown).not.toContain(sent.loginKey.split("$")[3]!); // nor the signature alone
  });
});
