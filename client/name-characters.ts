/**
 * Characters a role name must not hold, for the name is display text that people read to decide what
 * they grant: a name made only of invisible characters looks empty or like another; a line or paragraph
 * separator (U+2028, U+2029) breaks it across lines; bidi embeddings, overrides and isolates reorder
 * what is shown ("Trojan Source"); a byte order mark is an invisible leftover of a file. Each refusal
 * names the character, as `U+XXXX (NAME)`.
 */

/** Never allowed in a name. */
const FORBIDDEN = new Map<number, string>([
  [0x2028, "LINE SEPARATOR"],
  [0x2029, "PARAGRAPH SEPARATOR"],
  [0x202a, "LEFT-TO-RIGHT EMBEDDING"],
  [0x202b, "RIGHT-TO-LEFT EMBEDDING"],
  [0x202c, "POP DIRECTIONAL FORMATTING"],
  [0x202d, "LEFT-TO-RIGHT OVERRIDE"],
  [0x202e, "RIGHT-TO-LEFT OVERRIDE"],
  [0x2066, "LEFT-TO-RIGHT ISOLATE"],
  [0x2067, "RIGHT-TO-LEFT ISOLATE"],
  [0x2068, "FIRST STRONG ISOLATE"],
  [0x2069, "POP DIRECTIONAL ISOLATE"],
  [0xfeff, "BYTE ORDER MARK"],
]);

/**
 * Invisible on their own: allowed beside visible text (a zero width joiner inside an emoji, a variation
 * selector), refused when they are all a name holds. Whitespace is refused by the blank rule first.
 */
const INVISIBLE = new Map<number, string>([
  [0x00ad, "SOFT HYPHEN"],
  [0x034f, "COMBINING GRAPHEME JOINER"],
  [0x115f, "HANGUL CHOSEONG FILLER"],
  [0x1160, "HANGUL JUNGSEONG FILLER"],
  [0x17b4, "KHMER VOWEL INHERENT AQ"],
  [0x17b5, "KHMER VOWEL INHERENT AA"],
  [0x180e, "MONGOLIAN VOWEL SEPARATOR"],
  [0x200b, "ZERO WIDTH SPACE"],
  [0x200c, "ZERO WIDTH NON-JOINER"],
  [0x200d, "ZERO WIDTH JOINER"],
  [0x200e, "LEFT-TO-RIGHT MARK"],
  [0x200f, "RIGHT-TO-LEFT MARK"],
  [0x2060, "WORD JOINER"],
  [0x2061, "FUNCTION APPLICATION"],
  [0x2062, "INVISIBLE TIMES"],
  [0x2063, "INVISIBLE SEPARATOR"],
  [0x2064, "INVISIBLE PLUS"],
  [0x2800, "BRAILLE PATTERN BLANK"],
  [0x3164, "HANGUL FILLER"],
  [0xffa0, "HALFWIDTH HANGUL FILLER"],
]);
const isInvisible = (cp: number) =>
  INVISIBLE.has(cp) || (cp >= 0xfe00 && cp <= 0xfe0f) || /\s/.test(String.fromCodePoint(cp));

const label = (cp: number, name: string) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")} (${name})`;

/** The first character of `s` a name must never hold, as `U+XXXX (NAME)`, or undefined. */
export function forbiddenNameChar(s: string): string | undefined {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const name = FORBIDDEN.get(cp);
    if (name !== undefined) return label(cp, name);
  }
  return undefined;
}

/** When every character of `s` is invisible, the first one, as `U+XXXX (NAME)`; else undefined. */
export function onlyInvisible(s: string): string | undefined {
  const cps = [...s].map((ch) => ch.codePointAt(0)!);
  if (!cps.length || !cps.every(isInvisible)) return undefined;
  const first = cps.find((cp) => !/\s/.test(String.fromCodePoint(cp))) ?? cps[0]!;
  return label(first, INVISIBLE.get(first) ?? (first >= 0xfe00 && first <= 0xfe0f ? "VARIATION SELECTOR" : "SPACE"));
}
