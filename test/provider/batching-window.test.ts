/**
 * When the batching writer (provider/role/batcher.ts) sends a batch: at once when it is full, after a
 * quiet window otherwise, and never more than MAX_BATCH_WAIT_MS after its first write however many
 * keep arriving. On fake timers against an in-memory service that records each array request, so the
 * clock is the test's and nothing depends on the machine's speed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GroupRolesClient } from "../../client";
import type { RoleCreateInput } from "../../client/types";
import { DEFAULT_BATCH_OPTIONS, MAX_BATCH_WAIT_MS } from "../../config/batch-options";
import { batchingWriter } from "../../provider/role/batcher";

/** The names of each create request, in the order they were sent. */
function recordingService() {
  const posts: string[][] = [];
  const held: Array<{ roleId: number; name: string; inUse: boolean }> = [];
  const client = {
    roles: {
      create: async (_groupId: number, roles: RoleCreateInput[]) => {
        posts.push(roles.map((r) => r.name));
        const made = roles.map((r, i) => ({ roleId: held.length + i + 1, name: r.name, inUse: false }));
        held.push(...made);
        return made;
      },
      // What confirms a create's IDs (provider/shared/created-ids).
      list: async () => held.slice(),
    },
  } as unknown as GroupRolesClient;
  return { client, posts };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("when a batch of creates is sent", () => {
  it("a full batch goes at once, without waiting for the window", async () => {
    const { client, posts } = recordingService();
    const writer = batchingWriter(client, { maxBatchSize: 2, windowMs: 10_000 });
    const made = Promise.all([writer.create(5, { name: "a" }), writer.create(5, { name: "b" })]);
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toEqual([["a", "b"]]);
    expect((await made).map((r) => r.name)).toEqual(["a", "b"]);
  });

  it("a lone create waits only the window", async () => {
    const { client, posts } = recordingService();
    const writer = batchingWriter(client, { windowMs: 50 });
    const made = writer.create(5, { name: "a" });
    await vi.advanceTimersByTimeAsync(49);
    expect(posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts).toEqual([["a"]]);
    await made;
  });

  it("a steady trickle is sent MAX_BATCH_WAIT_MS after its first create, not held while it lasts", async () => {
    const { client, posts } = recordingService();
    const writer = batchingWriter(client, { windowMs: 50 });
    const made: Promise<unknown>[] = [];
    // one create every 40 ms: never a quiet 50 ms
    for (let t = 0; t < 2 * MAX_BATCH_WAIT_MS; t += 40) {
      made.push(writer.create(5, { name: `r${t}` }));
      await vi.advanceTimersByTimeAsync(40);
    }
    await vi.runAllTimersAsync();
    await Promise.all(made);
    const sentAt = (names: string[]) => names.map((n) => Number(n.slice(1)));
    // the first batch holds the creates of its first MAX_BATCH_WAIT_MS (0, 40, ... 240 ms)
    expect(sentAt(posts[0]!)).toEqual([0, 40, 80, 120, 160, 200, 240]);
    expect(posts.flat()).toHaveLength(made.length);
    expect(posts.length).toBeGreaterThan(1);
  });

  it("after a full batch went, the next one gets its own window (the full one's timer is gone)", async () => {
    const { client, posts } = recordingService();
    const writer = batchingWriter(client, { maxBatchSize: 2, windowMs: 50 });
    const made = [writer.create(5, { name: "a" }), writer.create(5, { name: "b" })];
    await vi.advanceTimersByTimeAsync(10);
    made.push(writer.create(5, { name: "c" }));
    // 55 ms: past the window "a" started, within the one "c" started (60 ms)
    await vi.advanceTimersByTimeAsync(45);
    made.push(writer.create(5, { name: "d" }));
    await vi.runAllTimersAsync();
    await Promise.all(made);
    expect(posts).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });

  it("a window of 0 sends on the next turn, 30 after 30 ms; a negative, infinite or missing one is the default", async () => {
    const sentAfter = async (windowMs: number | undefined) => {
      const { client, posts } = recordingService();
      const writer = batchingWriter(client, windowMs === undefined ? {} : { windowMs });
      const made = writer.create(5, { name: "a" });
      let waited = 0;
      // Bounded: a window that never ends fails here, naming the window, instead of hanging.
      while (!posts.length && waited < 1000) {
        await vi.advanceTimersByTimeAsync(1);
        waited++;
      }
      await made;
      return waited;
    };
    expect(await sentAfter(0)).toBe(1);
    expect(await sentAfter(30)).toBe(30);
    const byDefault = DEFAULT_BATCH_OPTIONS.windowMs;
    for (const windowMs of [undefined, -1, Number.POSITIVE_INFINITY, Number.NaN])
      expect(await sentAfter(windowMs), `windowMs ${windowMs}`).toBe(byDefault);
  });
});
