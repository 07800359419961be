/**
 * The order of a GroupRoles apply's PUTs (provider/group-roles/ordering.ts), checked by playing every
 * PUT against a model of the service's rule (names unique in the group, checked on each request's
 * result): no PUT may meet a name another role still holds, and every role ends with its final name.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderPuts, type Renamable } from "../../provider/group-roles/ordering";

const TEMP = (id: number) => `~tmp ${id}`;

/** Plays asides then chunks on `names` (roleId to name); throws on a PUT whose result repeats a name. */
function play(
  items: Renamable[],
  max: number,
  others: Map<number, string> = new Map(),
): { puts: number; names: Map<number, string> } {
  const names = new Map<number, string>([...others, ...items.map((i) => [i.roleId, i.currentName] as const)]);
  const order = orderPuts(items, max);
  const put = (batch: Array<{ roleId: number; name: string }>) => {
    expect(batch.length).toBeLessThanOrEqual(max);
    for (const b of batch) names.set(b.roleId, b.name);
    const all = [...names.values()];
    expect(new Set(all).size, `a PUT met a held name: ${JSON.stringify(batch)}`).toBe(all.length);
  };
  for (let i = 0; i < order.asides.length; i += max)
    put(order.asides.slice(i, i + max).map((a) => ({ roleId: a.roleId, name: TEMP(a.roleId) })));
  for (const chunk of order.chunks) put(chunk.map((c) => ({ roleId: c.roleId, name: c.finalName })));
  return { puts: Math.ceil(order.asides.length / max) + order.chunks.length, names };
}

const rename = (roleId: number, from: string, to: string): Renamable => ({ roleId, currentName: from, finalName: to });

/** Rotations (cycles of 2 or more roles taking each other's names) longer than `max`. */
function longRotations(perm: number[], fresh: boolean[], max: number): number {
  const seen = new Set<number>();
  let count = 0;
  for (let start = 0; start < perm.length; start++) {
    if (seen.has(start)) continue;
    const cycle: number[] = [];
    for (let i = start; !seen.has(i); i = perm[i]!) {
      seen.add(i);
      cycle.push(i);
    }
    if (cycle.length > 1 && cycle.length > max && cycle.every((i) => !fresh[i])) count++;
  }
  return count;
}

describe("orderPuts", () => {
  it("everything that fits in one PUT goes together, even a swap (the service checks the result)", () => {
    const order = orderPuts([rename(1, "A", "B"), rename(2, "B", "A"), rename(3, "C", "D")], 3);
    expect(order).toEqual({ asides: [], chunks: [[rename(1, "A", "B"), rename(2, "B", "A"), rename(3, "C", "D")]] });
  });

  it("a chain across PUTs goes holder first: the name is freed before it is taken", () => {
    // 1 takes B from 2, which takes C from 3, which takes a free name
    const items = [rename(1, "A", "B"), rename(2, "B", "C"), rename(3, "C", "Z")];
    const order = orderPuts(items, 1);
    expect(order.asides).toEqual([]);
    expect(order.chunks.map((c) => c[0]!.roleId)).toEqual([3, 2, 1]);
    expect(play(items, 1).names).toEqual(
      new Map([
        [1, "B"],
        [2, "C"],
        [3, "Z"],
      ]),
    );
  });

  it("a swap that fits in one PUT stays whole while others fill the chunks; no temporary name", () => {
    const items = [rename(1, "A", "A2"), rename(2, "X", "Y"), rename(3, "Y", "X"), rename(4, "B", "B2")];
    const order = orderPuts(items, 2);
    expect(order.asides).toEqual([]);
    const chunkOf = (id: number) => order.chunks.findIndex((c) => c.some((i) => i.roleId === id));
    expect(chunkOf(2)).toBe(chunkOf(3));
    play(items, 2);
  });

  it("a rotation longer than a PUT steps one role aside to a temporary name, then goes as a chain", () => {
    const items = [rename(1, "A", "B"), rename(2, "B", "C"), rename(3, "C", "A")];
    const order = orderPuts(items, 2);
    expect(order.asides.map((a) => a.roleId)).toHaveLength(1);
    const { names, puts } = play(items, 2);
    expect(names).toEqual(
      new Map([
        [1, "B"],
        [2, "C"],
        [3, "A"],
      ]),
    );
    expect(puts).toBe(3); // one aside, then two chunks
  });

  it("roles that keep their name (description or settings changes) travel anywhere", () => {
    const items = [rename(1, "A", "A"), rename(2, "B", "B"), rename(3, "C", "C")];
    expect(orderPuts(items, 2).chunks).toEqual([[items[0], items[1]], [items[2]]]);
  });

  it("any permutation of names, any PUT size: no PUT meets a held name, every role ends with its name", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((n) =>
          fc.record({
            perm: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            max: fc.integer({ min: 1, max: n + 1 }),
            fresh: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
          }),
        ),
        ({ perm, max, fresh }) => {
          // role i is named N<i> and takes N<perm[i]>, or a fresh name
          const items = perm.map((p, i) => rename(i + 1, `N${i}`, fresh[i] ? `F${i}` : `N${p}`));
          const want = new Map(items.map((i) => [i.roleId, i.finalName]));
          if (new Set(want.values()).size !== want.size) return; // final names must be unique (check refuses it)
          expect(play(items, max).names).toEqual(want);
          // And no temporary name more than needed: one per rotation longer than a PUT, none otherwise.
          expect(orderPuts(items, max).asides).toHaveLength(longRotations(perm, fresh, max));
        },
      ),
      { numRuns: 300 },
    );
  });
});
