/**
 * Settings maps on fixed inputs (provider/shared/settings.ts): the comparison both resources' diffs
 * use, what a details reply holds, and the map an update sends (unlisted keys kept, dropped ones
 * reset with null). Setting names that are also Object.prototype members are names like any other.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/role/inputs";
import { heldSettings, sameSettings, settingsForUpdate } from "../../provider/shared/settings";

describe("sameSettings", () => {
  it("same keys and values in any order; absent equals empty; unknown is never the same", () => {
    expect(sameSettings({ a: true, b: false }, { b: false, a: true })).toBe(true);
    expect(sameSettings(undefined, {})).toBe(true);
    expect(sameSettings({ a: true }, { a: false })).toBe(false);
    expect(sameSettings({ a: true }, { a: true, b: false })).toBe(false);
    expect(sameSettings({ a: true, b: false }, { a: true })).toBe(false);
    expect(sameSettings(UNKNOWN, UNKNOWN)).toBe(false);
    expect(sameSettings({}, UNKNOWN)).toBe(false);
  });

  it("a key named like an Object member is compared as a setting", () => {
    expect(sameSettings({ constructor: true }, {})).toBe(false);
    expect(sameSettings({}, { toString: false })).toBe(false);
    expect(sameSettings({ constructor: true }, { constructor: true })).toBe(true);
  });
});

describe("heldSettings", () => {
  it("keeps the keys holding a boolean; null means no value", () => {
    expect(heldSettings({ a: true, b: false, c: null })).toEqual({ a: true, b: false });
  });
});

describe("settingsForUpdate", () => {
  it("what the service holds, the declared values over it, null for each key no longer declared", () => {
    const current = { viewVideo: true, remoteAssist: true, byHand: true };
    expect(settingsForUpdate(current, { viewVideo: false }, { viewVideo: true, remoteAssist: true })).toEqual({
      viewVideo: false,
      remoteAssist: null,
      byHand: true,
    });
    expect(settingsForUpdate({}, undefined, { constructor: true })).toEqual({ constructor: null });
    expect(settingsForUpdate({ a: true }, undefined, undefined)).toEqual({ a: true });
  });
});
