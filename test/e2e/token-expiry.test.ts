/**
 * Tokens that expire during a long `up`: tokens last 2 s, the client paces itself to 15 requests per
 * second, and an `up` of 120 roles in two groups, one request per role (`grouproles:maxBatchSize 1`),
 * takes at least 8 s: many lifetimes. Through the engine stand-in against the emulator. Every operation must succeed, and
 * the client must re-authorize only as tokens expire: at most one authorization per group per token
 * lifetime (plus the first), plus one per 401 the service answered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSpec, specProgram, stackFor, type RoleSpec, type Stack } from "./harness";

const LIFETIME_S = 2;
const GROUPS = [51, 52];
let s: Stack;
beforeAll(async () => {
  s = await stackFor(
    specProgram,
    "roles-spec",
    {
      "grouproles:partnerUserId": "long-run",
      "grouproles:maxBatchSize": "1",
      "grouproles:maxRequestsPerSecond": "15",
    },
    {
      tokens: ["test-admin-every-group"],
      apiKeys: GROUPS.map((g) => `${g}:key-${g}-5e1f`),
      tokenLifetimeSeconds: LIFETIME_S,
      rateLimitPerSecond: 25,
    },
    () => ({ "grouproles:apiKeys": JSON.stringify(Object.fromEntries(GROUPS.map((g) => [g, `key-${g}-5e1f`]))) }),
  );
});
afterAll(() => s?.close());

describe("tokens that expire during a long up", () => {
  it("every operation succeeds; authorizations follow the token lifetime", async () => {
    const roles: RoleSpec[] = GROUPS.flatMap((g) =>
      Array.from({ length: 60 }, (_, i) => ({ name: `r-${g}-${i}`, args: { groupId: g, name: `Role ${i}` } })),
    );
    await s.h.clearRequests();
    const started = Date.now();
    const up = await runSpec(s, "up", roles, { "grouproles:authUrl": s.h.emu.authUrl });
    const seconds = (Date.now() - started) / 1000;
    expect(up.ok, up.errors.join("\n")).toBe(true);
    for (const g of GROUPS) expect(await s.h.listRoles(g)).toHaveLength(60);

    const log = await s.h.requests();
    const entries = log.entries;
    const operations = entries.filter((e) => e.server === "api").length;
    const refused = entries.filter((e) => e.status === 401).length;
    const failed = entries.filter((e) => e.server === "api" && e.status >= 400 && e.status !== 401).length;
    const perGroup = GROUPS.map(
      (g) => entries.filter((e) => e.route === "/authorize" && JSON.parse(e.body).partnerId === g).length,
    );
    const bound = Math.floor(seconds / LIFETIME_S) + 2;
    console.log(
      `token expiry run: ${seconds.toFixed(1)} s, ${operations} requests to the roles API, ` +
        `${perGroup.join(" + ")} authorizations (groups ${GROUPS.join(", ")}), ${refused} answered 401, ${failed} failed`,
    );
    expect(seconds).toBeGreaterThan(3 * LIFETIME_S); // the run really outlived several tokens
    expect(failed).toBe(0);
    for (const n of perGroup) {
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(bound + refused);
    }
  });
});
