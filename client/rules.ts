/**
 * The service's input rules, stated once, with their messages: role names, descriptions, IDs and
 * visitor references. The client checks its requests with them, and the provider's `check` and the
 * lookups use the same rules, so a rule reads the same wherever it fails. The emulator states the
 * service's rules on its own, from the spec (emulator/service-rules.ts); a test compares the two.
 */
import { z } from "zod";
import { ConfigurationError } from "./errors";
import { forbiddenNameChar, onlyInvisible } from "./name-characters";

/** Longest role name the service accepts, in UTF-16 code units (see {@link lengthOf}). */
export const ROLE_NAME_MAX = 70;
/** Longest role description the service accepts, in UTF-16 code units. */
export const ROLE_DESCRIPTION_MAX = 255;
/** Visitor IDs: 1 to 62 characters of letters, digits, `-`, `_` and `~`. */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_~-]{1,62}$/;
/**
 * Largest visitor message, in bytes of its JSON. The service documents none; a signal carries a
 * command and a few IDs (the spec's sample is under 100 bytes) and reaches the browser as one
 * WebSocket frame, so 64 KiB is ample; the emulator refuses more with 413 (emulator/service-rules.ts,
 * test/emulator/limits-agree.test.ts).
 */
export const VISITOR_MESSAGE_MAX_BYTES = 64 * 1024;
/** `SERVICE.<Module>.Visitor.<function>`, the only shape of an invoke message's `func`. */
export const VISITOR_FUNC_PATTERN = /^SERVICE\.[A-Za-z_$][\w$]*\.Visitor\.[A-Za-z_$][\w$]*$/;

/** True when `s` holds a surrogate without its pair: not valid Unicode, and mangled by UTF-8 encoders. */
export const hasLoneSurrogate = (s: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
/** Control characters (C0, DEL, C1): a role name is one line of display text. */
export const hasControlChar = (s: string): boolean => /[\u0000-\u001F\u007F-\u009F]/.test(s);

/**
 * A short, safe rendering of a bad value for a message: strings quoted (and shortened), numbers and
 * booleans as they are, objects by their kind (`an object`, `an array`, `a Date`).
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (typeof value === "object") {
    const type = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof type === "string" && type !== "Object" && type !== "" ? `a ${type}` : "an object";
  }
  return typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value;
}

/** {@link describeValue} with the type of a primitive, for type mismatches: `string "42"`, `number 7`. */
export function describeTyped(value: unknown): string {
  const t = typeof value;
  return t === "string" || t === "number" || t === "boolean" ? `${t} ${describeValue(value)}` : describeValue(value);
}

/**
 * Lengths count UTF-16 code units, a JavaScript string's `length`, as the vendor's .NET stack and SQL
 * `nvarchar` columns most likely do: an emoji counts 2. (zod's own `.max()` counts code points.) When
 * the count differs from what a reader sees, the message says why.
 */
function lengthOf(s: string): string {
  return [...s].length === s.length ? String(s.length) : `${s.length} (UTF-16 code units: an emoji counts 2)`;
}

const UNICODE = "must be valid Unicode (it holds a lone surrogate, half of a character)";

/** A positive integer ID (`groupId`, `roleId`). */
const POSITIVE_INTEGER = (i: { input: unknown }) =>
  i.input === undefined
    ? "is required (a positive integer)"
    : `must be a positive integer, got ${typeof i.input === "number" ? describeValue(i.input) : describeTyped(i.input)}`;
export const idRule = z
  .number({ error: POSITIVE_INTEGER })
  .int({ error: POSITIVE_INTEGER })
  .positive({ error: POSITIVE_INTEGER })
  .max(Number.MAX_SAFE_INTEGER, { error: (i) => `must be at most ${Number.MAX_SAFE_INTEGER}, got ${String(i.input)}` });

/**
 * A role name: 1 to 70 code units, not blank, valid Unicode, one line, shown as written: no line or
 * paragraph separator, bidi control or byte order mark, and not only invisible characters
 * (./name-characters). The refusal names the character.
 */
export const roleNameRule = z
  .string({ error: (i) => (i.input === undefined ? "is required" : `must be a string, got ${describeTyped(i.input)}`) })
  .min(1, { error: "must not be empty" })
  .refine((s) => s.length <= ROLE_NAME_MAX, {
    error: (i) => `must be at most ${ROLE_NAME_MAX} characters, got ${lengthOf(i.input as string)}`,
    abort: true,
  })
  // A blank name that holds a separator or a BOM (whitespace to trim()) is refused below, naming it.
  .refine((s) => s.trim().length > 0 || forbiddenNameChar(s) !== undefined, {
    error: "must not be blank (whitespace only)",
  })
  .refine((s) => !hasLoneSurrogate(s), { error: UNICODE })
  .refine((s) => !hasControlChar(s), { error: "must not contain control characters (line breaks, tabs, NUL)" })
  .superRefine((s, ctx) => {
    const forbidden = forbiddenNameChar(s);
    const invisible = forbidden ? undefined : onlyInvisible(s);
    if (forbidden)
      ctx.addIssue({
        code: "custom",
        message: `must not contain ${forbidden}: line separators, bidi controls and byte order marks change what is shown`,
      });
    else if (invisible)
      ctx.addIssue({
        code: "custom",
        message: `must have a visible character; it holds only invisible ones, e.g. ${invisible}`,
      });
  });

/** An optional text field of a role (client/role-fields.ts): at most `max` code units, valid Unicode. */
export const roleTextRule = (max: number) =>
  z
    .string({ error: (i) => `must be a string, got ${describeTyped(i.input)}` })
    .refine((s) => s.length <= max, {
      error: (i) => `must be at most ${max} characters, got ${lengthOf(i.input as string)}`,
      abort: true,
    })
    .refine((s) => !hasLoneSurrogate(s), { error: UNICODE });

/** A role description. */
export const roleDescriptionRule = roleTextRule(ROLE_DESCRIPTION_MAX);

/** A visitor ID. */
const VISITOR_ID_RULE = (i: { input: unknown }) =>
  `must be 1 to 62 characters of letters, digits, '-', '_' and '~', got ` +
  (typeof i.input === "string"
    ? describeValue(i.input) + (i.input.length > 62 ? ` (${i.input.length} characters)` : "")
    : describeTyped(i.input));
export const visitorIdRule = z
  .string({ error: VISITOR_ID_RULE })
  .refine((s) => VISITOR_ID_PATTERN.test(s), { error: VISITOR_ID_RULE });

/** `field` and the first problem of `value` under `rule`, e.g. `name must not be empty`; or undefined. */
export function problemOf(rule: z.ZodType, value: unknown, field: string): string | undefined {
  const r = rule.safeParse(value);
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  const path = issue?.path.length ? `${field}.${issue.path.map(String).join(".")}` : field;
  return `${path} ${issue?.message ?? "is invalid"}`;
}

/** @throws ConfigurationError naming the field and the rule, before anything is sent. */
export function requireValid(rule: z.ZodType, value: unknown, field: string): void {
  const problem = problemOf(rule, value, field);
  if (problem) throw new ConfigurationError(problem);
}
