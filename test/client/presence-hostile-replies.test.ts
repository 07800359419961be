/**
 * The token goes only to allowed named presence servers, end to end: the real emulator plays a hostile
 * load balancer (fault action `override` on /findvisitor) and real "attacker" servers on loopback
 * addresses other than the load balancer's wait for the token. Each hostile reply must fail with a
 * clear UnexpectedReplyError before anything is sent: the attackers see no connection, the emulator's
 * log shows no signal, and the canary token appears in no error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GroupRolesClient, UnexpectedReplyError, type ClientOptions } from "../../client";
import { resolveConfig } from "../../config/stack-config";
import { connectVisitor } from "../../emulator";
import { signalVisitor } from "../../sdk";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import { allText } from "../support/error-text";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

const CANARY = "canary-presence-hosts-8c41d7e2";
const GROUP = 61;
const SIGNAL = { mtype: "signal", data: { text: "hello" } } as const;

let h: EmulatorHarness;
/** Attackers on loopback addresses other than the emulator's 127.0.0.1, so only a host check keeps them out. */
let attacker: ScriptedServer;
let attacker6: ScriptedServer;

beforeAll(async () => {
  h = await startHarness({ tokens: [CANARY] });
  attacker = await startScriptedServer((_req, res) => reply(res, 200, { status: "ok" }), "127.0.0.2");
  attacker6 = await startScriptedServer((_req, res) => reply(res, 200, { status: "ok" }), "::1");
});
afterAll(async () => {
  await Promise.all([attacker?.close(), attacker6?.close(), h?.close()]);
});
afterEach(async () => {
  await h.admin("DELETE", "/faults");
  await h.clearRequests();
});

const client = (options: Partial<ClientOptions> = {}) =>
  new GroupRolesClient(
    withSeams({ presenceUrl: h.emu.presenceUrl, accessToken: CANARY, ...options }, { sleep: async () => {} }),
  );

/** Makes every /findvisitor reply say the visitor is on the server `fields` name. */
const hostileFind = (fields: Record<string, unknown>) =>
  h.fault({
    server: "presence",
    path: "/findvisitor",
    action: "override",
    fields: { visitorfound: true, ...fields },
    times: 0,
  });

/** What the emulator saw: requests per route, and whether any reached a named server. */
async function emulatorSaw(): Promise<{ routes: string[]; direct: number }> {
  const log = await h.requests();
  return { routes: Object.keys(log.counts), direct: log.entries.filter((e) => e.server === "direct").length };
}

describe("a hostile /findvisitor reply is refused before anything is sent", () => {
  const a = () => attacker.port;
  const sent = "the message and the access token were not sent";
  const notPlain = "must be a plain host name or IP address, with no port, path, user info or other URL syntax";
  const onlyLb = 'is not an allowed presence server (allowed: "127.0.0.1" (the load balancer) only)';
  const portRule = "must be a port number: 0 to 65535, as a number or as digits";
  const httpsportRule = "httpsport must be an integer from 1 to 65535, got";
  const directRule = "direct must be <host>:<port> ([<IPv6>]:<port> for IPv6) with a port from 1 to 65535, got";
  const lb = (fields: Record<string, unknown>) => ({ directserver: "127.0.0.1", ...fields });
  /** A reply naming `directserver`, with the attacker's port as `httpsport` unless `port` is false. */
  const named =
    (directserver: string, port = true) =>
    () => ({ directserver, ...(port ? { httpsport: a() } : {}) });
  /** [case, the reply's named-server fields, a part of the error message] */
  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ["another domain", named("pr1.evil.example", false), `directserver "pr1.evil.example" ${onlyLb}; ${sent}`],
    ["a look-alike suffix", named("example.com.evil.net", false), `directserver "example.com.evil.net" ${onlyLb}`],
    ["the load balancer's address as a prefix", named("127.0.0.1.evil.net"), `"127.0.0.1.evil.net" ${onlyLb}`],
    ["another IP address", named("127.0.0.2"), `directserver "127.0.0.2" ${onlyLb}; ${sent}`],
    ["another IP address in direct", () => ({ direct: `127.0.0.2:${a()}` }), `host of direct "127.0.0.2" ${onlyLb}`],
    ["an IPv6 address in direct", () => ({ direct: `[::1]:${attacker6.port}` }), `the host of direct "::1" ${onlyLb}`],
    ["user info", named("a@127.0.0.2"), `directserver ${notPlain}, got "a@127.0.0.2"; ${sent}`],
    ["user info in direct", () => ({ direct: `127.0.0.1@127.0.0.2:${a()}` }), `the host of direct ${notPlain}`],
    ["a path", named("127.0.0.2/x"), `directserver ${notPlain}, got "127.0.0.2/x"`],
    ["a query", named("127.0.0.2?x"), `directserver ${notPlain}, got "127.0.0.2?x"`],
    ["a fragment", named("127.0.0.2#x"), `directserver ${notPlain}, got "127.0.0.2#x"`],
    ["a port in directserver", () => named(`127.0.0.2:${a()}`, false)(), `directserver ${notPlain}, got "127.0.0.2:`],
    ["percent-encoding", named("127.0.0.%32"), `directserver ${notPlain}, got "127.0.0.%32"`],
    ["a trailing dot", named("127.0.0.1.", false), `directserver ${notPlain}, got "127.0.0.1."`],
    ["httpsport 0", () => lb({ httpsport: 0 }), `${httpsportRule} 0; ${sent}`],
    ["httpsport 65536 as text", () => lb({ httpsport: "65536" }), `${httpsportRule} 65536`],
    ["httpsport 65536", () => lb({ httpsport: 65536 }), `httpsport: ${portRule}`],
    ["httpsport 443abc", () => lb({ httpsport: "443abc" }), `httpsport: ${portRule}`],
    ["httpsport of 20 digits", () => lb({ httpsport: "9".repeat(20) }), `httpsport: ${portRule}`],
    ["httpsport fractional", () => lb({ httpsport: 443.5 }), `httpsport: ${portRule}`],
    ["direct port 0", () => ({ direct: "127.0.0.1:0" }), `${directRule} "127.0.0.1:0"; ${sent}`],
    ["direct port 443abc", () => ({ direct: "127.0.0.1:443abc" }), `${directRule} "127.0.0.1:443abc"`],
  ];

  it.each(cases)("%s: UnexpectedReplyError naming field and rule; only /findvisitor", async (_, fields, message) => {
    await hostileFind(fields());
    const connectionsBefore = [attacker.connections, attacker6.connections];
    const err = await client()
      .presence.signalVisitor(GROUP, "v-hostile", SIGNAL)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedReplyError);
    expect(err).toMatchObject({ code: "ERR_UNEXPECTED_REPLY" });
    expect((err as Error).message).toContain(message);
    expect(allText(err)).not.toContain(CANARY);
    expect([attacker.connections, attacker6.connections]).toEqual(connectionsBefore);
    expect([...attacker.requests, ...attacker6.requests]).toEqual([]);
    expect(await emulatorSaw()).toEqual({ routes: ["GET /findvisitor"], direct: 0 });
  });
});

describe("allowed named servers still receive the signal", () => {
  it("the emulator's own named servers (127.0.0.1, the load balancer's address, on other ports)", async () => {
    const received: unknown[] = [];
    const visitor = await connectVisitor({
      presenceUrl: h.emu.presenceUrl,
      groupId: GROUP,
      visitorId: "v-real",
      onSignal: (m) => received.push(m),
    });
    try {
      await h.clearRequests(); // the visitor's own /assign
      await client().presence.signalVisitor(GROUP, "v-real", SIGNAL);
      expect(await emulatorSaw()).toEqual({ routes: ["GET /findvisitor", "POST /signalvisitor"], direct: 1 });
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(received).toEqual([SIGNAL]);
    } finally {
      await visitor.close();
    }
  });

  describe("presenceServerDomains widens the rule", () => {
    afterEach(() => {
      attacker.requests.length = 0;
      delete process.env.GROUPROLES_PRESENCE_SERVER_DOMAINS;
    });
    const toWidened = () => hostileFind({ directserver: "127.0.0.2", httpsport: attacker.port });
    const expectDelivered = () => {
      expect(attacker.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
        `POST /signalvisitor?groupid=${GROUP}&visitorid=v-widened Bearer ${CANARY}`,
      ]);
    };

    it("through the client option", async () => {
      await toWidened();
      const widened = client({ presenceServerDomains: ["example.net", "127.0.0.2"] });
      await widened.presence.signalVisitor(GROUP, "v-widened", SIGNAL);
      expectDelivered();
    });

    it("through the data functions' ConnectionOptions, and the environment fallback", async () => {
      await toWidened();
      const options = { presenceUrl: h.emu.presenceUrl, accessToken: CANARY };
      const args = { groupId: GROUP, visitorId: "v-widened", message: SIGNAL };
      await expect(signalVisitor(args, options)).rejects.toThrow('directserver "127.0.0.2" is not an allowed');
      expect(attacker.requests).toEqual([]);
      await signalVisitor(args, { ...options, presenceServerDomains: ["127.0.0.2"] });
      expectDelivered();
      attacker.requests.length = 0;
      process.env.GROUPROLES_PRESENCE_SERVER_DOMAINS = "example.net, 127.0.0.2";
      await signalVisitor(args, options);
      expectDelivered();
    });

    it("reads grouproles:presenceServerDomains and refuses a bad entry naming the key", () => {
      const config = (value: string) => ({
        get: (key: string) => (key === "grouproles:presenceServerDomains" ? value : undefined),
      });
      const read = resolveConfig(config(" example.net,.Example.ORG ")).presenceServerDomains;
      expect(read).toEqual(["example.net", "example.org"]);
      expect(() => resolveConfig(config("example.net,com"))).toThrow(
        'grouproles:presenceServerDomains (or GROUPROLES_PRESENCE_SERVER_DOMAINS): "com" is not a domain of at least ' +
          "two labels",
      );
    });
  });
});
