/**
 * The emulator's authorization endpoint: login keys verified against per-group API keys, users with
 * passwords, tokens for one group and one service that expire, every authorization in the request log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginKeySignature } from "../../emulator/authorization";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness({ apiKeys: ["42:key-of-42", "43:key-of-43"], users: ["ana:s3cret:42"], tokenLifetimeSeconds: 1 });
});
afterAll(() => h.emu.close());

const nowS = () => Math.floor(Date.now() / 1000);
function loginKey(apiKey: string, group: number, user: string, expiry = nowS() + 300): string {
  return `$1$${expiry}$${loginKeySignature(apiKey, group, user, expiry)}`;
}
const authorize = (body: unknown, query = "service=webservices&duration=5") =>
  http("POST", `${h.emu.authUrl}?${query}`, { body, token: null });

describe("authorization endpoint", () => {
  it("issues a token for the group of a valid login key, for one service, that expires", async () => {
    const r = await authorize({
      partnerId: 42,
      partnerUserId: "ci-bot",
      loginKey: loginKey("key-of-42", 42, "ci-bot"),
    });
    expect(r.status).toBe(200);
    const reply = r.json as { authToken: string; authTokeExp: string; groupId: number };
    expect(reply.groupId).toBe(42);
    expect(Date.parse(reply.authTokeExp) - Date.now()).toBeLessThanOrEqual(1000);
    const token = reply.authToken;
    expect((await http("GET", h.rolesUrl(42), { token })).status).toBe(200);
    expect((await http("GET", h.rolesUrl(43), { token })).status).toBe(403);
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=42&visitorid=v`, { token })).status).toBe(403);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await http("GET", h.rolesUrl(42), { token });
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ code: "unauthorized" });
  });

  it("issues presence tokens that the presence interface accepts", async () => {
    const r = await authorize(
      { partnerId: "43", partnerUserId: "ci", loginKey: loginKey("key-of-43", 43, "ci") },
      "service=presence&duration=1",
    );
    const token = (r.json as { authToken: string }).authToken;
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?groupid=43&visitorid=v`, { token })).status).toBe(200);
    expect((await http("GET", h.rolesUrl(43), { token })).status).toBe(403);
  });

  it("accepts a user with its password, for the user's group", async () => {
    const r = await authorize({ username: "ana", password: "s3cret" });
    expect(r.status).toBe(200);
    expect((r.json as { groupId: number }).groupId).toBe(42);
  });

  it.each([
    [
      "a wrong API key",
      { partnerId: 42, partnerUserId: "ci", loginKey: loginKey("not-the-key", 42, "ci") },
      /signature does not match/,
    ],
    [
      "another user's signature",
      { partnerId: 42, partnerUserId: "other", loginKey: loginKey("key-of-42", 42, "ci") },
      /signature does not match/,
    ],
    [
      "an expired login key",
      { partnerId: 42, partnerUserId: "ci", loginKey: loginKey("key-of-42", 42, "ci", nowS() - 1) },
      /expired/,
    ],
    [
      "a login key two days ahead",
      { partnerId: 42, partnerUserId: "ci", loginKey: loginKey("key-of-42", 42, "ci", nowS() + 172800) },
      /one day/,
    ],
    ["a malformed login key", { partnerId: 42, partnerUserId: "ci", loginKey: "$1$abc" }, /malformed/],
    [
      "a group without an API key",
      { partnerId: 44, partnerUserId: "ci", loginKey: loginKey("x", 44, "ci") },
      /no API key/,
    ],
    ["an unknown user", { username: "bob", password: "s3cret" }, /unknown user name or wrong password/],
    ["a wrong password", { username: "ana", password: "guess" }, /unknown user name or wrong password/],
  ])("refuses %s with 401 and issues nothing", async (_label, body, message) => {
    const r = await authorize(body);
    expect(r.status).toBe(401);
    expect((r.json as { message: string }).message).toMatch(message);
    expect(r.text).not.toContain("key-of-42");
  });

  it.each([
    ["service=admin&duration=5", /service/],
    ["service=webservices&duration=0", /duration/],
    ["service=webservices&duration=121", /duration/],
    ["service=webservices", /duration/],
  ])("refuses query %s with 400", async (query, message) => {
    const r = await authorize({ username: "ana", password: "s3cret" }, query);
    expect(r.status).toBe(400);
    expect((r.json as { message: string }).message).toMatch(message);
  });

  it("counts authorizations in the request log, on the auth server", async () => {
    await http("DELETE", h.adminUrl("/requests"));
    await authorize({ username: "ana", password: "s3cret" });
    const log = (await http("GET", h.adminUrl("/requests"))).json as {
      counts: Record<string, number>;
      entries: Array<{ server: string }>;
    };
    expect(log.counts["POST /authorize"]).toBe(1);
    expect(log.entries.at(-1)?.server).toBe("auth");
  });
});
