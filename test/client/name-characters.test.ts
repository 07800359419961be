/**
 * The characters a role name must not hold (client/name-characters.ts), on the functions themselves:
 * each forbidden character named as `U+XXXX (NAME)`, the first of several; a name made only of invisible
 * characters named by its first one that is not whitespace; the variation selectors' range at both ends
 * and just outside it. The refusals check gives for the same names: test/provider/role-name-characters.test.ts.
 */
import { describe, expect, it } from "vitest";
import { forbiddenNameChar, onlyInvisible } from "../../client/name-characters";

describe("forbiddenNameChar", () => {
  it("names each character a name must never hold, wherever it is", () => {
    const named: Array<[string, string]> = [
      ["\u2028", "U+2028 (LINE SEPARATOR)"],
      ["\u2029", "U+2029 (PARAGRAPH SEPARATOR)"],
      ["\u202a", "U+202A (LEFT-TO-RIGHT EMBEDDING)"],
      ["\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"],
      ["\u2066", "U+2066 (LEFT-TO-RIGHT ISOLATE)"],
      ["\u2069", "U+2069 (POP DIRECTIONAL ISOLATE)"],
      ["\ufeff", "U+FEFF (BYTE ORDER MARK)"],
    ];
    for (const [ch, label] of named) {
      expect(forbiddenNameChar(ch)).toBe(label);
      expect(forbiddenNameChar(`Support ${ch}team`)).toBe(label);
    }
  });

  it("names the first of several, and nothing in a plain or empty name", () => {
    expect(forbiddenNameChar("a\u2067b\u2028")).toBe("U+2067 (RIGHT-TO-LEFT ISOLATE)");
    expect(forbiddenNameChar("Support\u200bteam")).toBeUndefined();
    expect(forbiddenNameChar("Ünïcödé 👩‍💻")).toBeUndefined();
    expect(forbiddenNameChar("")).toBeUndefined();
  });
});

describe("onlyInvisible", () => {
  it("names the first invisible character of a name that shows nothing, with four hex digits", () => {
    expect(onlyInvisible("\u00ad")).toBe("U+00AD (SOFT HYPHEN)");
    expect(onlyInvisible("\u200b\u200d")).toBe("U+200B (ZERO WIDTH SPACE)");
    expect(onlyInvisible("\u3164")).toBe("U+3164 (HANGUL FILLER)");
    expect(onlyInvisible("\u2800")).toBe("U+2800 (BRAILLE PATTERN BLANK)");
    // Whitespace around it is passed over: the name given is the first that is not whitespace.
    expect(onlyInvisible(" \u2060 ")).toBe("U+2060 (WORD JOINER)");
  });

  it("names the variation selectors by their range, at both ends; just outside it is a visible character", () => {
    expect(onlyInvisible("\ufe00")).toBe("U+FE00 (VARIATION SELECTOR)");
    expect(onlyInvisible("\ufe0f")).toBe("U+FE0F (VARIATION SELECTOR)");
    expect(onlyInvisible("\ufdff")).toBeUndefined();
    expect(onlyInvisible("\ufe10")).toBeUndefined();
  });

  it("a name of whitespace alone is named by its first character as a space", () => {
    expect(onlyInvisible("   ")).toBe("U+0020 (SPACE)");
    expect(onlyInvisible("\u3000 ")).toBe("U+3000 (SPACE)");
  });

  it("nothing for a name with one visible character, or an empty one", () => {
    expect(onlyInvisible("\u200bA\u200b")).toBeUndefined();
    expect(onlyInvisible("A")).toBeUndefined();
    expect(onlyInvisible("")).toBeUndefined();
  });
});
