import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, GroupRolesClient, VisitorNotConnectedError } from "../../client";
import { directServerOrigin } from "../../client/presence";
import { parseServiceUrl } from "../../client/urls";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(...args: Parameters<typeof startScriptedServer>) {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}
const client = (presenceUrl: string) =>
  new GroupRolesClient(withSeams({ presenceUrl, accessToken: "tok-presence-1" }, { sleep: async () => {} }));

describe("presence endpoints", () => {
  it("looks up a present visitor with numbers as numbers", async () => {
    const lb = await start((_req, res) =>
      reply(res, 200, {
        direct: "pr0016.example.com:443",
        visitorpresent: "1763900000.25",
        timestamp: "1763900001.5",
        visitorid: "v-1",
        groupid: "42",
        ds: "pr0016.example.com/0",
        directserver: "pr0016.example.com",
        tlsport: 5501,
        httpsport: 443,
      }),
    );
    const record = await client(lb.url).presence.lookupVisitor(42, "v-1");
    expect(record).toEqual({
      present: true,
      visitorId: "v-1",
      groupId: 42,
      direct: "pr0016.example.com:443",
      ds: "pr0016.example.com/0",
      directServer: "pr0016.example.com",
      tlsPort: 5501,
      httpsPort: 443,
      visitorPresent: 1763900000.25,
      timestamp: 1763900001.5,
    });
    expect(lb.requests[0].url).toBe("/lookupvisitor?groupid=42&visitorid=v-1");
    expect(lb.requests[0].headers.authorization).toBe("Bearer tok-presence-1");
  });

  it("reports an absent visitor ({}) as present: false", async () => {
    const lb = await start((_req, res) => reply(res, 200, {}));
    expect(await client(lb.url).presence.lookupVisitor(42, "gone")).toEqual({ present: false });
  });

  it("finds a visitor", async () => {
    const lb = await start((_req, res) =>
      reply(res, 200, {
        visitorfound: true,
        ds: "h/1",
        direct: "h:8443",
        directserver: "h",
        tlsport: "5501",
        httpsport: 8443,
      }),
    );
    expect(await client(lb.url).presence.findVisitor(42, "v_1~x")).toEqual({
      visitorFound: true,
      ds: "h/1",
      direct: "h:8443",
      directServer: "h",
      tlsPort: 5501,
      httpsPort: 8443,
    });
    expect(lb.requests[0].url).toBe("/findvisitor?groupid=42&visitorid=v_1~x");
  });

  it("reports visitorfound false", async () => {
    const lb = await start((_req, res) => reply(res, 200, { visitorfound: false }));
    expect(await client(lb.url).presence.findVisitor(42, "v")).toEqual({ visitorFound: false });
  });

  it("signals on the named server, never the load balancer", async () => {
    const named = await start((_req, res) => reply(res, 200, ""));
    const lb = await start((_req, res) =>
      reply(res, 200, {
        visitorfound: true,
        ds: "127.0.0.1/0",
        direct: `127.0.0.1:${named.port}`,
        directserver: "127.0.0.1",
        tlsport: 1,
        httpsport: named.port,
      }),
    );
    await client(lb.url).presence.signalVisitor(42, "v1", { mtype: "signal", data: { command: "hi", chatid: "7" } });
    expect(lb.requests.map((r) => r.url)).toEqual(["/findvisitor?groupid=42&visitorid=v1"]);
    expect(named.requests).toHaveLength(1);
    expect(named.requests[0].method).toBe("POST");
    expect(named.requests[0].url).toBe("/signalvisitor?groupid=42&visitorid=v1");
    expect(JSON.parse(named.requests[0].body)).toEqual({ mtype: "signal", data: { command: "hi", chatid: "7" } });
  });

  it("raises VisitorNotConnected for an absent visitor, and when it leaves before the signal", async () => {
    const lb = await start((_req, res) => reply(res, 200, { visitorfound: false }));
    const err = await client(lb.url)
      .presence.signalVisitor(42, "v1", { mtype: "signal", data: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(VisitorNotConnectedError);
    expect(err.code).toBe("ERR_VISITOR_NOT_CONNECTED");

    const named = await start((_req, res) =>
      reply(res, 404, { code: "visitor_not_present", message: "no such visitor" }),
    );
    const lb2 = await start((_req, res) =>
      reply(res, 200, {
        visitorfound: true,
        directserver: "127.0.0.1",
        httpsport: named.port,
        direct: `127.0.0.1:${named.port}`,
        ds: "127.0.0.1/0",
      }),
    );
    const err2 = await client(lb2.url)
      .presence.signalVisitor(42, "v1", { mtype: "signal", data: {} })
      .catch((e) => e);
    expect(err2).toBeInstanceOf(VisitorNotConnectedError);
  });

  it("validates visitor ids and messages before sending anything", async () => {
    const lb = await start((_req, res) => reply(res, 200, {}));
    const c = client(lb.url);
    const bad = [
      () => c.presence.lookupVisitor(42, "has space"),
      () => c.presence.lookupVisitor(42, "x".repeat(63)),
      () => c.presence.findVisitor(42, ""),
      () => c.presence.findVisitor(0, "v"),
      () => c.presence.signalVisitor(42, "v", { mtype: "invoke", data: { func: "startSession" } }),
      () => c.presence.signalVisitor(42, "v", { mtype: "shout", data: {} } as never),
    ];
    for (const call of bad) await expect(call()).rejects.toBeInstanceOf(ConfigurationError);
    expect(lb.requests).toHaveLength(0);
  });

  it("a 10 MB message fails before any request, naming message and the limit", async () => {
    const lb = await start((_req, res) => reply(res, 200, { visitorfound: false }));
    const err = await client(lb.url)
      .presence.signalVisitor(42, "v", { mtype: "signal", data: { blob: "x".repeat(10 * 1024 * 1024) } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/^message must be at most 65536 bytes as JSON \(64 KiB\), got 10485797$/);
    expect(lb.requests).toHaveLength(0);
  });
});

describe("directServerOrigin", () => {
  const https = parseServiceUrl("https://presence.example.com", "presenceUrl");
  const loopHttp = parseServiceUrl("http://127.0.0.1:9000", "presenceUrl");
  it("uses https and omits port 443", () => {
    expect(directServerOrigin({ visitorFound: true, directServer: "pr0016.example.com", httpsPort: 443 }, https)).toBe(
      "https://pr0016.example.com",
    );
    expect(directServerOrigin({ visitorFound: true, directServer: "pr0016.example.com", httpsPort: 8443 }, https)).toBe(
      "https://pr0016.example.com:8443",
    );
  });
  it("never downgrades a real host, even behind a loopback http load balancer", () => {
    const widened = ["example.com"];
    const location = { visitorFound: true, directServer: "pr1.example.com", httpsPort: 443 };
    expect(directServerOrigin(location, loopHttp, widened)).toBe("https://pr1.example.com");
  });
  it("uses plain http for a loopback emulator", () => {
    expect(directServerOrigin({ visitorFound: true, directServer: "127.0.0.1", httpsPort: 9100 }, loopHttp)).toBe(
      "http://127.0.0.1:9100",
    );
  });
});
