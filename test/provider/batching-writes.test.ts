/**
 * Concurrent Role operations travel as array requests (docs/performance.md), observed in the
 * emulator's request log; one bad item fails only its own caller.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { provider, providerAgainstEmulator } from "./provider-harness";
import type { EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
let config: Record<string, string>;
beforeAll(async () => {
  h = await providerAgainstEmulator();
  config = { "grouproles:baseUrl": h.emu.baseUrl, "grouproles:accessToken": h.emu.token };
});
afterAll(() => h.close());
beforeEach(async () => {
  resetDeploymentLedger();
  await provider.configure({ config: { get: (k: string) => config[k] } });
  await h.admin("POST", "/reset");
});

const POST = "POST /api/v0/groups/:groupId/roles";
const PUT = "PUT /api/v0/groups/:groupId/roles";
const LIST = "GET /api/v0/groups/:groupId/roles";
const DETAILS = "GET /api/v0/groups/:groupId/roles/:roleId";
const DELETE = "POST /api/v0/groups/:groupId/delete-roles";

const names = (n: number, prefix = "Role") => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);
const settled = <T>(ps: Promise<T>[]) => Promise.allSettled(ps);
const bodies = async (route: string) =>
  (await h.requests()).entries
    .filter((e) => `${e.method} ${e.route}` === route)
    .map((e) => JSON.parse(e.body) as unknown);

async function createAll(groupId: number, list: string[]) {
  return Promise.all(list.map((name) => provider.create({ groupId, name, settings: { viewVideo: true } })));
}

describe("creates", () => {
  it("creates that trickle in a few milliseconds apart, as the engine starts its steps, share one POST", async () => {
    // 8 creates over ~70 ms: more than one batch window after the first, but never a quiet gap.
    const made = await Promise.all(
      names(8).map(async (name, i) => {
        await new Promise((r) => setTimeout(r, i * 10));
        return provider.create({ groupId: 42, name });
      }),
    );
    expect(new Set(made.map((m) => m.id)).size).toBe(8);
    expect((await h.requests()).counts[POST]).toBe(1);
  });

  it("twenty concurrent creates in one group are one POST, and each caller gets its own role", async () => {
    const made = await createAll(42, names(20));
    const log = await h.requests();
    expect(log.counts[POST]).toBe(1);
    // one list confirms the reply's IDs (provider/shared/created-ids); the reply says each role is not
    // in use, so its userCount is 0 and nothing is read back
    expect(log.counts[LIST]).toBe(1);
    expect(log.counts[DETAILS]).toBeUndefined();
    const held = new Map((await h.listRoles(42)).map((r) => [r.roleId, r.name]));
    expect(held.size).toBe(20);
    made.forEach((m, i) => {
      expect(m.outs.name).toBe(`Role ${i}`);
      expect(held.get(m.outs.roleId)).toBe(`Role ${i}`);
      expect(m.id).toBe(`42/${m.outs.roleId}`);
    });
    // every item of the one POST carried its settings, and the service holds them
    expect((await bodies(POST))[0]).toEqual(names(20).map((name) => ({ name, settings: { viewVideo: true } })));
    for (const m of made) expect((await h.details(42, m.outs.roleId)).settings).toEqual({ viewVideo: true });
  });

  it("creates in different groups are separate requests, one per group", async () => {
    await Promise.all([createAll(1, names(3)), createAll(2, names(3))]);
    expect((await h.requests()).counts[POST]).toBe(2);
  });

  it("an over-long name fails only its own caller, and is never sent; its siblings are created", async () => {
    const long = "x".repeat(71); // check() refuses it; calling create directly skips check, the client does not
    const all = [...names(3, "Good"), long, ...names(3, "Fine")];
    const results = await settled(all.map((name) => provider.create({ groupId: 42, name })));
    for (const [i, r] of results.entries()) expect(r.status).toBe(all[i] === long ? "rejected" : "fulfilled");
    const err = (results[3] as PromiseRejectedResult).reason as { code: string; message: string };
    expect(err.code).toBe("ERR_CONFIGURATION");
    expect(err.message).toBe(
      `creating role "${long}" in group 42: roles[0].name must be at most 70 characters, got 71`,
    );
    expect((await h.listRoles(42)).map((r) => r.name).sort()).toEqual(
      [...names(3, "Fine"), ...names(3, "Good")].sort(),
    );
    const posts = (await bodies(POST)) as Array<Array<{ name: string }>>;
    expect(
      posts
        .flat()
        .map((r) => r.name)
        .sort(),
    ).toEqual([...names(3, "Fine"), ...names(3, "Good")].sort());
  });

  it("a name already taken in the group fails only the role that collides", async () => {
    await h.api("POST", "/groups/42/roles", [{ name: "Taken" }]);
    const all = ["A", "B", "Taken", "C"];
    const results = await settled(all.map((name) => provider.create({ groupId: 42, name })));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    // the colliding caller's own error, naming its role; the siblings were created
    expect(((results[2] as PromiseRejectedResult).reason as Error).message).toContain(
      'creating role "Taken" in group 42',
    );
    expect((await h.listRoles(42)).map((r) => r.name).sort()).toEqual(["A", "B", "C", "Taken"]);
  });

  it("a reply of the wrong length is detected: every role is adopted by name, once, with no duplicate", async () => {
    // the service applies the batch, then answers an array missing its last item
    await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "wrong-shape" });
    const made = await createAll(42, names(6));
    const roles = await h.listRoles(42);
    expect(roles).toHaveLength(6);
    const byName = new Map(roles.map((r) => [r.name, r.roleId]));
    for (const [i, m] of made.entries()) expect(m.outs.roleId).toBe(byName.get(`Role ${i}`));
    const log = await h.requests();
    expect(log.counts[POST]).toBe(1);
    // six adoptions share one list, six full read-backs share another (plus this test's own list)
    expect(log.counts[LIST]).toBeLessThanOrEqual(3);
  });

  it("a lost reply for a whole batch is adopted per role", async () => {
    await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-after" });
    const made = await createAll(42, names(4));
    expect(new Set(made.map((m) => m.id)).size).toBe(4);
    expect(await h.listRoles(42)).toHaveLength(4);
    expect((await h.requests()).counts[POST]).toBe(1);
  });
});

describe("updates", () => {
  it("concurrent renames in one group are one PUT, with no settings map and no detail reads", async () => {
    const made = await createAll(42, names(8));
    await h.clearRequests();
    await Promise.all(
      made.map((m, i) =>
        provider.update(m.id, m.outs, { groupId: 42, name: `Renamed ${i}`, settings: { viewVideo: true } }),
      ),
    );
    const log = await h.requests();
    expect(log.counts[PUT]).toBe(1);
    const [put] = (await bodies(PUT)) as Array<Array<Record<string, unknown>>>;
    expect(put).toHaveLength(8);
    expect(put.every((item) => !("settings" in item))).toBe(true);
    expect(log.counts[DETAILS]).toBeUndefined();
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(names(8, "Renamed"));
    for (const m of made) expect((await h.details(42, m.outs.roleId)).settings).toEqual({ viewVideo: true });
  });

  it("concurrent settings changes are one PUT, after one detail read per role (unlisted keys survive)", async () => {
    const made = await createAll(42, names(8));
    await h.clearRequests();
    await Promise.all(
      made.map((m) =>
        provider.update(m.id, m.outs, { groupId: 42, name: m.outs.name, settings: { viewVideo: false } }),
      ),
    );
    const log = await h.requests();
    expect(log.counts[PUT]).toBe(1);
    expect(log.counts[DETAILS]).toBe(8);
    for (const m of made) {
      const details = await h.api("GET", `/groups/42/roles/${m.outs.roleId}`);
      expect((details.json as { settings: object }).settings).toEqual({ viewVideo: false });
    }
  });

  it("an update of a role deleted by hand fails alone; the others are applied", async () => {
    const made = await createAll(42, names(4));
    await h.api("POST", "/groups/42/delete-roles", [made[2].outs.roleId]);
    const results = await settled(made.map((m, i) => provider.update(m.id, m.outs, { groupId: 42, name: `New ${i}` })));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(((results[2] as PromiseRejectedResult).reason as { message: string }).message).toContain(
      "If the role was deleted in the service",
    );
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["New 0", "New 1", "New 3"]);
  });

  it("two roles can swap names in one batch", async () => {
    const [a, b] = await createAll(42, ["Alpha", "Beta"]);
    await Promise.all([
      provider.update(a.id, a.outs, { groupId: 42, name: "Beta" }),
      provider.update(b.id, b.outs, { groupId: 42, name: "Alpha" }),
    ]);
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Beta", "Alpha"]);
  });
});

describe("deletes", () => {
  it("never include an in-use role: in-use roles are refused, the others go in one request", async () => {
    const made = await createAll(42, names(6));
    const inUse = new Set([made[1].outs.roleId, made[4].outs.roleId]);
    for (const id of inUse) await h.setUsers(42, id, 2);
    await h.clearRequests();
    const results = await settled(made.map((m) => provider.delete(m.id, m.outs)));
    for (const [i, r] of results.entries()) {
      expect(r.status).toBe(inUse.has(made[i]!.outs.roleId) ? "rejected" : "fulfilled");
    }
    expect(((results[1] as PromiseRejectedResult).reason as { message: string }).message).toContain(
      `(id ${made[1].id}) is in use by 2 users`,
    );
    const sent = (await bodies(DELETE)) as number[][];
    expect(sent).toHaveLength(1);
    expect(sent[0].sort()).toEqual(
      made
        .filter((m) => !inUse.has(m.outs.roleId))
        .map((m) => m.outs.roleId)
        .sort(),
    );
    expect(sent.flat().some((id) => inUse.has(id))).toBe(false);
    // the in-use checks of all six shared one list
    expect((await h.requests()).counts[LIST]).toBe(1);
    expect((await h.listRoles(42)).map((r) => r.roleId).sort()).toEqual([...inUse].sort());
  });
});

describe("settings", () => {
  it("grouproles:maxBatchSize bounds the array size", async () => {
    await provider.configure({ config: { get: (k: string) => ({ ...config, "grouproles:maxBatchSize": "2" })[k] } });
    await createAll(42, names(5));
    const posts = (await bodies(POST)) as unknown[][];
    expect(posts.map((p) => p.length)).toEqual([2, 2, 1]);
  });

  it("maxBatchSize 1 is the one-request-per-role path, lists not shared", async () => {
    await provider.configure({ config: { get: (k: string) => ({ ...config, "grouproles:maxBatchSize": "1" })[k] } });
    const made = await createAll(42, names(4));
    await Promise.all(made.map((m) => provider.update(m.id, m.outs, { ...m.outs, name: `${m.outs.name} renamed` })));
    const log = await h.requests();
    expect(log.counts[POST]).toBe(4);
    expect(log.counts[PUT]).toBe(4);
    // one list per create (confirming its ID) and one read-back list per update: none is shared
    expect(log.counts[LIST]).toBe(8);
  });

  it("an invalid value fails naming the key", async () => {
    await provider.configure({ config: { get: (k: string) => ({ ...config, "grouproles:maxBatchSize": "lots" })[k] } });
    await expect(provider.create({ groupId: 42, name: "X" })).rejects.toThrow(
      /grouproles:maxBatchSize \(or GROUPROLES_MAX_BATCH_SIZE\) must be a positive integer/,
    );
    expect((await h.requests()).total).toBe(0);
  });
});
