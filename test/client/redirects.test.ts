/**
 * A redirect is an error, never followed: the request carries the access token, which must not travel
 * to whatever `Location` a reply names. Real servers on loopback: the one asked answers 3xx pointing at
 * an "attacker" server, which must see no connection at all.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GroupRolesClient, RedirectError } from "../../client";
import { allText } from "../support/error-text";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

const CANARY = "canary-redirect-4b1e8f2a-token";
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

/** An attacker server, and a server that redirects every request to it with `status`. */
async function redirectingPair(status: number): Promise<{ attacker: ScriptedServer; redirecting: ScriptedServer }> {
  const attacker = await start((_req, res) => reply(res, 200, []));
  const redirecting = await start((req, res) =>
    reply(res, status, "", { location: `${attacker.url}/collect${req.url}` }),
  );
  return { attacker, redirecting };
}

function expectRefusedRedirect(err: unknown, status: number, attacker: ScriptedServer): void {
  expect(err).toBeInstanceOf(RedirectError);
  expect(err).toMatchObject({ code: "ERR_REDIRECT", status });
  expect((err as Error).message).toContain(
    `service answered ${status}; the redirect to ${attacker.url} was not followed: ` +
      "the access token goes only to the configured addresses",
  );
  expect(allText(err)).not.toContain(CANARY);
  expect(attacker.connections).toBe(0);
  expect(attacker.requests).toHaveLength(0);
}

describe("redirects are errors, never followed", () => {
  it.each([301, 302, 303, 307, 308])("a read answered %i: RedirectError, one request, none to Location", async (st) => {
    const { attacker, redirecting } = await redirectingPair(st);
    const client = new GroupRolesClient(
      withSeams({ baseUrl: redirecting.url, accessToken: CANARY }, { sleep: async () => {} }),
    );
    const err = await client.roles.list(7).catch((e: unknown) => e);
    expectRefusedRedirect(err, st, attacker);
    expect(redirecting.requests).toHaveLength(1); // not retried either
    expect(redirecting.requests[0].headers.authorization).toBe(`Bearer ${CANARY}`);
  });

  it("a create answered 307 (which would resend the body and token): refused, nothing to the Location", async () => {
    const { attacker, redirecting } = await redirectingPair(307);
    const client = new GroupRolesClient(
      withSeams({ baseUrl: redirecting.url, accessToken: CANARY }, { sleep: async () => {} }),
    );
    const err = await client.roles.create(7, [{ name: "Support" }]).catch((e: unknown) => e);
    expectRefusedRedirect(err, 307, attacker);
  });

  it("a signal whose named server answers 307 fails instead of counting as delivered", async () => {
    const { attacker, redirecting } = await redirectingPair(307);
    const lb = await start((_req, res) =>
      reply(res, 200, { visitorfound: true, directserver: "127.0.0.1", httpsport: redirecting.port }),
    );
    const client = new GroupRolesClient(
      withSeams({ presenceUrl: lb.url, accessToken: CANARY }, { sleep: async () => {} }),
    );
    const message = { mtype: "signal", data: { n: 1 } } as const;
    const err = await client.presence.signalVisitor(42, "v1", message).catch((e: unknown) => e);
    expectRefusedRedirect(err, 307, attacker);
    const asked = redirecting.requests.map((r) => `${r.method} ${r.url}`);
    expect(asked).toEqual(["POST /signalvisitor?groupid=42&visitorid=v1"]);
  });
});
