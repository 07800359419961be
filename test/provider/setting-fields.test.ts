/**
 * The checks of a role's settings that both resources share (provider/shared/fields.ts and
 * settings-keys.ts), at their limits: how many keys, how long a key, how a long key is shown, empty
 * keys, and which documented key a typo is taken for. Called directly: no request is involved.
 */
import { describe, expect, it } from "vitest";
import { type CheckFailure, checkRoleFields } from "../../provider/shared/fields";

const failuresOf = (settings: Record<string, unknown>, at = ""): CheckFailure[] => {
  const failures: CheckFailure[] = [];
  checkRoleFields({ name: "Support", settings }, at, failures);
  return failures;
};
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`custom${i}`, true]));

describe("settings at their limits", () => {
  it("200 keys pass, 201 are refused", () => {
    expect(failuresOf(keys(200))).toEqual([]);
    expect(failuresOf(keys(201))).toEqual([
      { property: "settings", reason: "settings must hold at most 200 keys, got 201" },
    ]);
  });

  it("a 100-character key passes, a 101-character one is refused with its length", () => {
    expect(failuresOf({ [`k${"x".repeat(99)}`]: true })).toEqual([]);
    const [failure] = failuresOf({ [`k${"x".repeat(100)}`]: true });
    expect(failure?.reason).toMatch(/: setting names must be at most 100 characters, got 101$/);
  });

  it("a key is shown whole up to 40 characters, and cut at 40 with an ellipsis beyond", () => {
    const forty = `a-${"b".repeat(38)}`;
    expect(failuresOf({ [forty]: true }).map((f) => f.property)).toEqual([`settings.${forty}`]);
    const long = `${forty}cdef`;
    const [failure] = failuresOf({ [long]: true }, "roles.x.");
    expect(failure?.property).toBe(`roles.x.settings.${forty}…`);
    expect(failure?.reason).toContain(`got ${JSON.stringify(`${forty}…`)}`);
  });

  it("an empty or blank key is refused as such", () => {
    expect(failuresOf({ "": true, "  ": false })).toEqual([
      { property: "settings.", reason: "settings keys must not be empty" },
      { property: "settings.  ", reason: "settings keys must not be empty" },
    ]);
  });

  it("a key that is not an identifier is refused, showing the key", () => {
    const [failure] = failuresOf({ "my-flag": true });
    expect(failure).toEqual({
      property: "settings.my-flag",
      reason:
        'settings.my-flag: setting names are letters, digits and "_", starting with a letter (like "viewVideo"), ' +
        'got "my-flag"',
    });
  });
});

describe("a typo of a documented key is refused, naming the nearest one", () => {
  it.each([
    ["itAddress", "editAddress"], // two letters short: exactly the largest distance allowed
    ["escalateToSiow", "escalateToShow"], // one edit from escalateToShow, two from escalateToView (listed after it)
    ["escalateToViow", "escalateToView"], // one edit from escalateToView, two from escalateToShow (listed before it)
    ["escalateTovzow", "escalateToShow"], // two edits from both: the first in the documented list
  ])("%s: did you mean %s", (typo, meant) => {
    expect(failuresOf({ [typo]: true })).toEqual([
      { property: `settings.${typo}`, reason: `unknown setting "${typo}": did you mean "${meant}"?` },
    ]);
  });

  it("a new key far from every documented one passes", () => {
    expect(failuresOf({ brandNewFeature2027: true })).toEqual([]);
  });
});
