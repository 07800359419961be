/**
 * A GroupRoles operation does work in proportion to its catalogue (issue 33), whatever the change: it
 * reads each entry of the state and of the program a bounded number of times. Counted, not timed: every
 * entry is wrapped in a Proxy that counts property reads, and the count at 4N must stay within 4.5
 * times the count at N (linear is 4; a per-entry pass over every entry, such as sorting every role ID
 * once per entry, is 16). The outcome is read from the service too, so the counts are of work that did
 * the job.
 */
import { describe, expect, it } from "vitest";
import { emulatorPerFile, groupRoles, inputs, stateOf, type GroupRolesHarness } from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

type Roles = Record<string, { name: string }>;
const catalogue = (n: number, name: (i: number) => string): Roles =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { name: name(i) }]));

/** Each change of the catalogue `r0..` named `Role 0..`, and the names the group holds after it. */
const CHANGES: Record<string, (n: number) => Roles> = {
  "no change": (n) => catalogue(n, (i) => `Role ${i}`),
  "rename all": (n) => catalogue(n, (i) => `Renamed ${i}`),
  swap: (n) => catalogue(n, (i) => `Role ${i ^ 1}`),
  "remove half": (n) =>
    Object.fromEntries(Object.entries(catalogue(n, (i) => `Role ${i}`)).filter((_, i) => i % 2 === 0)),
  "add half": (n) => catalogue(n + n / 2, (i) => `Role ${i}`),
};

let reads = 0;
/** The map with each entry wrapped so that reading any of its properties counts. */
function counted<T extends object>(entries: Record<string, T>): Record<string, T> {
  const count: ProxyHandler<T> = {
    get(target, property, receiver) {
      reads++;
      return Reflect.get(target, property, receiver);
    },
  };
  return Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, new Proxy(entry, count)]));
}
async function readsOf(fn: () => Promise<unknown>): Promise<number> {
  reads = 0;
  await fn();
  return reads;
}

/** Reads per operation of one change at size `n`, each operation run as the engine runs it. */
async function lifecycle(change: string, n: number): Promise<Record<string, number>> {
  await h.admin("POST", "/reset");
  const base = catalogue(n, (i) => `Role ${i}`);
  const { outs } = await groupRoles.create(inputs(base));
  const olds = () => ({ ...stateOf(outs), roles: counted(outs.roles) });
  const news = () => inputs(counted(CHANGES[change]!(n)));
  const check = await readsOf(() => groupRoles.check(inputs(counted(base)), news()));
  const diff = await readsOf(async () => {
    expect((await groupRoles.diff("42", olds(), news())).changes).toBe(change !== "no change");
  });
  let after = outs;
  const update = await readsOf(async () => {
    after = (await groupRoles.update("42", olds(), news())).outs;
  });
  // The service holds what the program declares.
  const declared = Object.values(CHANGES[change]!(n)).map((e) => e.name);
  expect(Object.keys(await h.held(42)).sort()).toEqual(declared.sort());
  const stateAfter = () => ({ ...stateOf(after), roles: counted(after.roles) });
  const read = await readsOf(async () => {
    expect(Object.keys((await groupRoles.read("42", stateAfter())).props!.roles)).toHaveLength(declared.length);
  });
  const destroy = await readsOf(() => groupRoles.delete("42", stateAfter()));
  expect(await h.held(42)).toEqual({});
  return { check, diff, update, read, delete: destroy };
}

describe("work per GroupRoles operation grows linearly with the catalogue", () => {
  for (const change of Object.keys(CHANGES)) {
    it(`${change}: check, diff, update, read and delete read each entry a bounded number of times`, async () => {
      const small = await lifecycle(change, 60);
      const large = await lifecycle(change, 240);
      for (const [op, count] of Object.entries(large)) {
        expect(small[op], `${op} reads entries`).toBeGreaterThan(0);
        expect(count / small[op]!, `${op}: ${small[op]} reads at 60 entries, ${count} at 240`).toBeLessThanOrEqual(4.5);
      }
    });
  }
});
