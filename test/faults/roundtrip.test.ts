/**
 * Property: any valid Role args (unicode names up to 70 UTF-16 code units, descriptions, settings maps mixing
 * documented and unknown keys) round-trip exactly through the provider's create and read against the
 * emulator. Each run uses a fresh group, so generated names never collide.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KNOWN_SETTINGS } from "../../provider/shared/settings-keys";
import { provider, providerAgainstEmulator } from "../provider/provider-harness";
import type { EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await providerAgainstEmulator();
});
afterAll(() => h?.close());

/** Cut to `max` UTF-16 code units (the limits' unit) without splitting a surrogate pair. */
const truncateToUnits = (s: string, max: number) => {
  const cut = s.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
};
const text = (minLength: number, maxLength: number) =>
  fc
    .oneof(
      fc.string({ unit: "binary", minLength, maxLength }),
      fc.string({ unit: "grapheme", minLength, maxLength: Math.min(maxLength, 20) }),
      fc.string({ minLength, maxLength }),
    )
    .map((s) => truncateToUnits(s, maxLength))
    .filter((s) => s.length >= minLength);
const unknownKey = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,30}$/);
const settingKey = fc.oneof(fc.constantFrom(...KNOWN_SETTINGS), unknownKey);
const args = fc.record(
  {
    name: text(1, 70),
    description: text(0, 255),
    settings: fc.dictionary(settingKey, fc.boolean(), { maxKeys: 12 }),
  },
  { requiredKeys: ["name"] },
);

let group = 20_000;

describe("valid role args round-trip exactly through create and read", () => {
  it("holds for 50 random inputs", async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        const news = { groupId: group++, ...a };
        const { failures } = await provider.check({}, news);
        fc.pre(failures.length === 0);
        checked++;
        const { id, outs } = await provider.create(news);
        expect(outs).toMatchObject(news);
        const { props } = await provider.read(id, outs);
        expect(props).toEqual(outs);
        const [stored] = await h.listRoles(news.groupId);
        expect(stored.name).toBe(news.name);
        expect(stored.description).toBe(news.description ?? "");
      }),
      { numRuns: 50 },
    );
    expect(checked).toBeGreaterThan(25);
  }, 60_000);
});
