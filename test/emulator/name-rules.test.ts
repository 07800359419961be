/**
 * The emulator's rule for a role's name, on the schema itself: a name of characters that show nothing
 * (each range's first and last, the single code points) is refused naming the first of them, one with a
 * character that reorders or hides text is refused naming it, and the characters just outside each range
 * are names like any other. The HTTP replies for the same rule: test/emulator/validation.test.ts.
 */
import { describe, expect, it } from "vitest";
import { RoleCreate } from "../../emulator/service-rules";

/** The messages the schema gives for a role of this name, none when it is accepted. */
const refusals = (name: string): string[] => {
  const r = RoleCreate.safeParse({ name });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

describe("a role's name", () => {
  it("of characters that show nothing is refused, naming the first (ranges' ends and single code points)", () => {
    const invisible = [0x200b, 0x200f, 0x2060, 0x2064, 0xfe00, 0xfe0f, 0xad, 0x34f, 0x115f, 0x3164, 0xffa0];
    for (const cp of invisible) {
      const ch = String.fromCodePoint(cp);
      expect(refusals(ch), hex(cp)).toEqual([`name: must have a visible character (${hex(cp)} is not)`]);
      // With spaces around it, still nothing shows; the message names the first character after them.
      expect(refusals(` ${ch}\u00ad `), hex(cp)).toEqual([`name: must have a visible character (${hex(cp)} is not)`]);
    }
  });

  it("with one visible character, or a character just outside each range, is a name", () => {
    for (const cp of [0x2010, 0x2065, 0xfdff, 0xfe10, 0x2027]) {
      expect(refusals(String.fromCodePoint(cp)), hex(cp)).toEqual([]);
    }
    expect(refusals("\u200bA\u200b")).toEqual([]);
    expect(refusals("Support")).toEqual([]);
  });

  it("with a character that reorders or hides text is refused naming it", () => {
    expect(refusals("Sup\u202eport")).toEqual(["name: must not contain U+202E"]);
    expect(refusals("Support\ufeff")).toEqual(["name: must not contain U+FEFF"]);
    expect(refusals("\u2066")).toEqual(["name: must not contain U+2066"]);
  });
});
