/**
 * Role names are display text: a name of only invisible characters, or one with a line or paragraph
 * separator, a bidi control or a byte order mark, fails `check` naming the character, before any
 * request; names that merely use such characters inside visible text (an emoji's zero width joiner, a
 * variation selector, a right-to-left mark in Hebrew) pass. The client's rule (client/name-characters)
 * is what check uses; test/emulator/limits-agree.test.ts holds the emulator to the same verdicts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { setStackConfig } from "../../config/stack-config";
import { startHarness, type EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await startHarness();
  const config: Record<string, string> = { "grouproles:baseUrl": h.emu.baseUrl, "grouproles:accessToken": h.emu.token };
  await provider.configure({ config: { get: (k: string) => config[k] } });
});
afterAll(async () => {
  setStackConfig(undefined);
  await h?.close();
});

describe("characters a role name must not hold", () => {
  it.each([
    ["only zero width spaces", "\u200B\u200B", "only invisible ones, e.g. U+200B (ZERO WIDTH SPACE)"],
    ["only a Hangul filler", "\u3164", "only invisible ones, e.g. U+3164 (HANGUL FILLER)"],
    ["a line separator", "Support\u2028Team", "must not contain U+2028 (LINE SEPARATOR)"],
    ["a paragraph separator", "Support\u2029", "must not contain U+2029 (PARAGRAPH SEPARATOR)"],
    ["a right-to-left override", "admin\u202Etxt.exe", "must not contain U+202E (RIGHT-TO-LEFT OVERRIDE)"],
    ["a first strong isolate", "a\u2068b", "must not contain U+2068 (FIRST STRONG ISOLATE)"],
    ["a byte order mark", "\uFEFFSupport", "must not contain U+FEFF (BYTE ORDER MARK)"],
    ["only a byte order mark", "\uFEFF", "must not contain U+FEFF (BYTE ORDER MARK)"],
  ])("%s: refused in check, naming the character, with no request", async (_label, name, reason) => {
    await h.clearRequests();
    const { failures } = await provider.check({}, { groupId: 42, name });
    expect(failures).toEqual([{ property: "name", reason: expect.stringContaining(reason) }]);
    expect((await h.requests()).total).toBe(0);
  });

  it.each([
    ["an emoji joined by a zero width joiner", "\u{1F469}\u200D\u{1F4BB} Devs"],
    ["a variation selector", "\u2764\uFE0F Team"],
    ["Hebrew with a right-to-left mark", "\u05E9\u05DC\u05D5\u05DD\u200F"],
  ])("%s: accepted", async (_label, name) => {
    const { failures } = await provider.check({}, { groupId: 42, name });
    expect(failures ?? []).toEqual([]);
  });
});
