import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GroupRolesClient, TimeoutError } from "../../client";
import { clientFromConfig, setStackConfig } from "../../config/stack-config";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server";

let server: ScriptedServer | undefined;
let tcp: net.Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await new Promise<void>((r) => (tcp ? tcp.close(() => r()) : r()));
  tcp = undefined;
});

const opts = { accessToken: "tok-timeout-1", retry: { maxAttempts: 1 }, sleep: async () => {} };

describe("timeouts", () => {
  it("headers timeout when the server never answers", async () => {
    server = await startScriptedServer(() => {});
    const c = new GroupRolesClient({ ...opts, baseUrl: server.url, timeouts: { headersMs: 200 } });
    const err = await c.roles.list(1).catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.phase).toBe("headers");
    expect(err.code).toBe("ERR_HEADERS_TIMEOUT");
    expect(err.message).toContain("200 ms");
  });

  it("body timeout when the reply stalls mid-body", async () => {
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write("[");
    });
    const c = new GroupRolesClient({ ...opts, baseUrl: server.url, timeouts: { bodyMs: 200 } });
    const err = await c.roles.list(1).catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.phase).toBe("body");
    expect(err.code).toBe("ERR_BODY_TIMEOUT");
  });

  it("connect timeout when the TLS handshake never completes", async () => {
    // A TCP listener that accepts and stays silent: the TLS handshake, part of connecting, never ends.
    const sockets: net.Socket[] = [];
    tcp = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => tcp!.listen(0, "127.0.0.1", r));
    const port = (tcp.address() as net.AddressInfo).port;
    const c = new GroupRolesClient({ ...opts, baseUrl: `https://127.0.0.1:${port}`, timeouts: { connectMs: 200 } });
    const err = await c.roles.list(1).catch((e) => e);
    for (const s of sockets) s.destroy();
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.phase).toBe("connect");
    expect(err.code).toBe("ERR_CONNECT_TIMEOUT");
  });

  it("grouproles:timeoutMs (or GROUPROLES_TIMEOUT_MS) sets the provider's reply timeout", async () => {
    server = await startScriptedServer(() => {});
    const config: Record<string, string> = {
      "grouproles:baseUrl": server.url,
      "grouproles:accessToken": "tok-timeout-2",
      "grouproles:timeoutMs": "150",
    };
    setStackConfig({ get: (k) => config[k] });
    try {
      const err = await clientFromConfig()
        .roles.list(1, { retry: { maxAttempts: 1 } })
        .catch((e) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err.message).toContain("150 ms");
      config["grouproles:timeoutMs"] = "1.5";
      expect(() => clientFromConfig()).toThrow(
        /grouproles:timeoutMs \(or GROUPROLES_TIMEOUT_MS\) must be a positive integer, got "1.5"/,
      );
    } finally {
      setStackConfig(undefined);
    }
  });
});
