/**
 * The batching writer on its own, against the emulator: how a failed array request is split so each
 * caller gets its own outcome, and how lists are shared (single flight) without hiding writes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { ConflictError, GroupRolesClient, NotFoundError, RoleInUseError } from "../../client";
import { batchingWriter } from "../../provider/role/batcher";
import type { RoleWriter } from "../../provider/role/writes";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import { reply, startScriptedServer } from "../support/scripted-server";
import { waitFor, within } from "../support/wait";

let h: EmulatorHarness;
let writer: RoleWriter;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  resetDeploymentLedger();
  await h.admin("POST", "/reset");
  // A fresh writer per test: nothing shared between tests.
  writer = batchingWriter(new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token }), { windowMs: 10 });
});

const bodies = async (method: string, route: string) =>
  (await h.requests()).entries
    .filter((e) => e.method === method && e.route === route)
    .map((e) => JSON.parse(e.body) as unknown[]);

async function seed(names: string[]): Promise<number[]> {
  const r = await h.api(
    "POST",
    "/groups/5/roles",
    names.map((name) => ({ name })),
  );
  return (r.json as Array<{ roleId: number }>).map((x) => x.roleId);
}

describe("splitting a failed batch", () => {
  it("finds the one create the service refuses among eight by halving, without the service's index hint", async () => {
    // A name the group already holds: valid by every rule the client checks, refused (409) by the service.
    await seed(["Taken"]);
    await h.clearRequests();
    const items = Array.from({ length: 8 }, (_, i) => ({ name: i === 5 ? "Taken" : `R${i}` }));
    const results = await within(
      Promise.allSettled(items.map((r) => writer.create(5, r))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect((results[5] as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    results.forEach((r, i) => {
      if (r.status === "fulfilled") expect(r.value.name).toBe(`R${i}`);
    });
    // 8 -> 4+4 -> 2+2 (bad half) -> 1+1: 1 + 2 + 2 + 2 requests
    const posts = await bodies("POST", "/api/v0/groups/:groupId/roles");
    expect(posts.map((p) => p.length)).toEqual([8, 4, 4, 2, 2, 1, 1]);
    expect((await h.listRoles(5)).map((r) => r.name).sort()).toEqual([
      "R0",
      "R1",
      "R2",
      "R3",
      "R4",
      "R6",
      "R7",
      "Taken",
    ]);
  });

  it("a delete batch with an in-use role (sent without the provider's check) deletes the others", async () => {
    const ids = await seed(["a", "b", "c", "d"]);
    await h.setUsers(5, ids[2], 1);
    const results = await within(
      Promise.allSettled(ids.map((id) => writer.delete(5, id))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(RoleInUseError);
    expect((await h.listRoles(5)).map((r) => r.roleId)).toEqual([ids[2]]);
  });

  it("an id already gone is a 404 for its caller alone; the others are still deleted", async () => {
    const ids = await seed(["a", "b", "c"]);
    await h.api("POST", "/groups/5/delete-roles", [ids[1]]);
    const results = await within(
      Promise.allSettled(ids.map((id) => writer.delete(5, id))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(NotFoundError);
    expect(await h.listRoles(5)).toEqual([]);
  });

  it("a 404 on create (unknown group) is not split: it concerns every item", async () => {
    await h.fault({ method: "POST", path: "/api/v0/groups/5/roles", action: "status", status: 404 });
    const results = await within(
      Promise.allSettled(["a", "b", "c", "d"].map((name) => writer.create(5, { name }))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.every((r) => r.status === "rejected" && r.reason instanceof NotFoundError)).toBe(true);
    expect(await bodies("POST", "/api/v0/groups/:groupId/roles")).toHaveLength(1);
  });

  it("a server error on create goes to every caller unsplit (the outcome is ambiguous)", async () => {
    await h.fault({ method: "POST", path: "/api/v0/groups/5/roles", action: "status", status: 500 });
    const results = await within(
      Promise.allSettled(["a", "b"].map((name) => writer.create(5, { name }))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => (r as PromiseRejectedResult).reason?.code)).toEqual(["ERR_SERVER", "ERR_SERVER"]);
    expect(await bodies("POST", "/api/v0/groups/:groupId/roles")).toHaveLength(1);
  });

  it("a delete with an id the client refuses before sending is split: the other is deleted", async () => {
    const [id] = await seed(["a"]);
    const results = await within(
      Promise.allSettled([writer.delete(5, id), writer.delete(5, 0)]),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect((results[1] as PromiseRejectedResult).reason.code).toBe("ERR_CONFIGURATION");
    expect(await h.listRoles(5)).toEqual([]);
  });

  it("a server error on delete goes to every caller unsplit", async () => {
    const ids = await seed(["a", "b"]);
    await h.fault({ method: "POST", path: "/api/v0/groups/5/delete-roles", action: "status", status: 500 });
    const results = await within(
      Promise.allSettled(ids.map((id) => writer.delete(5, id))),
      5_000,
      "an answer for every caller of the split batch",
    );
    expect(results.map((r) => (r as PromiseRejectedResult).reason?.code)).toEqual(["ERR_SERVER", "ERR_SERVER"]);
    expect(await bodies("POST", "/api/v0/groups/:groupId/delete-roles")).toHaveLength(1);
  });

  it("a 413 (array too large) is split into halves that pass", async () => {
    await h.fault({ method: "POST", path: "/api/v0/groups/5/roles", action: "status", status: 413 });
    await Promise.all(["a", "b"].map((name) => writer.create(5, { name })));
    expect((await bodies("POST", "/api/v0/groups/:groupId/roles")).map((p) => p.length)).toEqual([2, 1, 1]);
  });

  it("invalid options fall back to the defaults instead of sending empty batches", async () => {
    const client = new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token });
    const lenient = batchingWriter(client, { maxBatchSize: 0, windowMs: -1 });
    await Promise.all(["a", "b", "c"].map((name) => lenient.create(5, { name })));
    const odd = batchingWriter(client, { maxBatchSize: Number.NaN, windowMs: Number.NaN });
    await Promise.all(["d", "e"].map((name) => odd.create(5, { name })));
    expect((await bodies("POST", "/api/v0/groups/:groupId/roles")).map((p) => p.length)).toEqual([3, 2]);
  });
});

describe("shared lists (single flight)", () => {
  it("concurrent lists of one group are one request", async () => {
    await seed(["a"]);
    await h.clearRequests();
    const lists = await Promise.all(Array.from({ length: 10 }, () => writer.list(5)));
    for (const l of lists) expect(l.map((r) => r.name)).toEqual(["a"]);
    expect((await h.requests()).counts["GET /api/v0/groups/:groupId/roles"]).toBe(1);
    // callers get their own arrays
    expect(lists[0]).not.toBe(lists[1]);
  });

  it("a list asked for after a write completed never joins a list sent before it", async () => {
    // the first list is slow, so it is still in flight when the create completes
    await h.fault({ method: "GET", path: "/api/v0/groups/5/roles", action: "latency", latencyMs: 300 });
    const early = writer.list(5);
    const listing = async () => (await h.requests()).inFlight.some((r) => r.method === "GET");
    await waitFor(listing, "the first list to reach the emulator");
    await writer.create(5, { name: "new" });
    const late = await writer.list(5);
    expect(late.map((r) => r.name)).toEqual(["new"]);
    await early;
    // the early list, the one that confirms the create's IDs (provider/shared/created-ids), the late one
    expect((await h.requests()).counts["GET /api/v0/groups/:groupId/roles"]).toBe(3);
  });
});

describe("a failed write ends list sharing too", () => {
  it("a list asked for after a create whose reply was lost never joins the list read before it", async () => {
    // The lost-reply adoption lists the group right after the failure: a list read before the create
    // was applied would make it conclude that nothing was created. A scripted server: the first list
    // is answered only after the create failed; the create is applied, then its connection dropped.
    const held: Array<() => void> = [];
    let lists = 0;
    const server = await startScriptedServer((req, res) => {
      if (req.method === "POST") return void res.socket?.destroy();
      if (lists++ === 0) held.push(() => reply(res, 200, []));
      else reply(res, 200, [{ roleId: 1, name: "new", inUse: false }]);
    });
    try {
      const client = new GroupRolesClient({ baseUrl: server.url, accessToken: "tok-split", retry: { maxAttempts: 1 } });
      const w = batchingWriter(client, { windowMs: 1 });
      const early = w.list(5);
      await waitFor(() => held.length === 1, "the first list at the server");
      await expect(w.create(5, { name: "new" })).rejects.toMatchObject({ code: "ERR_CONNECTION" });
      expect((await w.list(5)).map((r) => r.name)).toEqual(["new"]);
      held.shift()!();
      expect(await early).toEqual([]);
      expect(lists).toBe(2);
    } finally {
      await server.close();
    }
  });
});
