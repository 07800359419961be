/**
 * The emulator keeps groups apart: only the admin token (given with no group) reaches /_emulator, the
 * request log holds fingerprints of credentials, never their values, a public interface needs real
 * tokens, a visitor's frames are bounded, a malformed path is a 400, and a request without a valid
 * token is refused before its body is read. Through the emulator's HTTP and WebSocket interfaces.
 */
import { execFileSync } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { credentialFingerprint, startEmulator } from "../../emulator";
import { MAX_VISITOR_FRAME_BYTES } from "../../emulator/service-rules";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

const ADMIN = "admin-token-9f2c";
const GROUP3 = "group3-token-77ab";
const PASSWORD = "pw-of-ana-5d1e";
let h: Harness;
beforeAll(async () => {
  h = await harness({ tokens: [ADMIN, `${GROUP3}:3`], users: [`ana:${PASSWORD}:5`] });
});
afterAll(() => h.emu.close());

/** A token the authorization endpoint issues to ana, a user of group 5. */
async function userToken(): Promise<string> {
  const r = await http("POST", `${h.emu.authUrl}?service=webservices&duration=5`, {
    body: { username: "ana", password: PASSWORD },
    token: null,
  });
  expect(r.status).toBe(200);
  return (r.json as { authToken: string }).authToken;
}

describe("admin routes need the admin token", () => {
  it("a token limited to group 3 can neither read group 7 through /_emulator/state nor reset every group", async () => {
    await h.create(7, [{ name: "Of group 7" }], ADMIN);
    const state = await http("GET", h.adminUrl("/state"), { token: GROUP3 });
    expect(state.status).toBe(403);
    expect(state.text).not.toContain("Of group 7");
    expect((await http("POST", h.adminUrl("/reset"), { token: GROUP3 })).status).toBe(403);
    // Group 7 still holds its role, as the service lists it.
    const listed = await http("GET", h.rolesUrl(7), { token: ADMIN });
    expect((listed.json as Array<{ name: string }>).map((r) => r.name)).toEqual(["Of group 7"]);
  });

  it("a user's token for group 5 cannot read the request log; the admin token can", async () => {
    const token = await userToken();
    expect((await http("GET", h.rolesUrl(5), { token })).status).toBe(200);
    const denied = await http("GET", h.adminUrl("/requests"), { token });
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ code: "forbidden" });
    expect((await http("GET", h.adminUrl("/requests"), { token: ADMIN })).status).toBe(200);
    expect((await http("GET", h.adminUrl("/requests"), { token: null })).status).toBe(401);
  });
});

describe("the request log", () => {
  it("keeps fingerprints of bearer tokens and of the password of an /authorize body, never the values", async () => {
    await h.clearRequests();
    const issued = await userToken();
    await http("GET", h.rolesUrl(5), { token: issued });
    await http("GET", h.rolesUrl(3), { token: GROUP3 });
    const text = JSON.stringify(await h.requests());
    for (const secret of [PASSWORD, issued, GROUP3]) expect(text).not.toContain(secret);
    const entries = (await h.requests()).entries;
    expect(entries.map((e) => e.headers.authorization)).toEqual([
      undefined,
      `Bearer ${credentialFingerprint(issued)}`,
      `Bearer ${credentialFingerprint(GROUP3)}`,
    ]);
    expect(JSON.parse(entries[0]!.body)).toEqual({ username: "ana", password: credentialFingerprint(PASSWORD) });
  });
});

describe("requests the emulator refuses", () => {
  it("a malformed percent-encoding in the path is a 400 naming the parameter, not a 500", async () => {
    const r = await http("GET", `${h.emu.baseUrl}/api/v0/groups/%E0%A4%A/roles`, { token: ADMIN });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: "validation_failed", message: expect.stringContaining("groupId") });
    expect(r.text).not.toMatch(/URIError|at decodeURIComponent/);
  });

  it("a request with an unknown token gets its 401 before the emulator reads its body", async () => {
    // The body is announced as 1 MB and never finished: an emulator that read it first would never answer.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.rolesUrl(3)}`, {
        method: "POST",
        headers: {
          authorization: "Bearer not-a-token",
          "content-type": "application/json",
          "content-length": 1_000_000,
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      req.write("[{");
    });
    expect(status).toBe(401);
  });

  it("a visitor's WebSocket frame over the limit closes the socket with 1009 (message too big)", async () => {
    const url = `${h.emu.directServers[0]!.replace(/^http/, "ws")}/visitor?groupid=3&visitorid=big-frames`;
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    ws.send("x".repeat(MAX_VISITOR_FRAME_BYTES + 1));
    expect(await closed).toBe(1009);
  });
});

describe("serving beyond loopback", () => {
  it("startEmulator refuses a non-loopback host without tokens, naming --token", async () => {
    await expect(startEmulator({ host: "0.0.0.0" })).rejects.toThrow(/not a loopback address: give tokens \(--token/);
  });

  it("the CLI refuses --host 0.0.0.0 without --token and exits 2", () => {
    const cli = path.resolve(__dirname, "../../dist/emulator/cli.js");
    let out = "";
    let code = 0;
    try {
      execFileSync(process.execPath, [cli, "--host", "0.0.0.0"], { stdio: "pipe", timeout: 30_000 });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      code = e.status;
      out = e.stderr.toString();
    }
    expect(code).toBe(2);
    expect(out).toContain("host 0.0.0.0 is not a loopback address");
  });
});
