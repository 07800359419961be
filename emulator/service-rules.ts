/**
 * The service's request rules and reply shapes, as the emulator plays them, written from the spec
 * (the service API description and the vendor facts of its appendix A), not imported from the
 * client. The emulator is the other side of the wire: a wrong limit in the client must meet a
 * service that refuses it. test/emulator/limits-agree.test.ts checks that the two agree.
 */
import { z } from "zod";

/** "name (string, required, at most 70 characters)"; the vendor counts UTF-16 code units. */
export const NAME_MAX = 70;
/** "description at most 255 characters" (appendix A). */
export const DESCRIPTION_MAX = 255;
/** "Visitor IDs: at most 62 characters of letters, digits, '-', '_' and '~'" (appendix A). */
export const VISITOR_ID = /^[A-Za-z0-9_~-]{1,62}$/;
/** `data.func` of an invoke message: `SERVICE.<Module>.Visitor.<function>`. */
export const INVOKE_FUNC = /^SERVICE\.[A-Za-z_$][\w$]*\.Visitor\.[A-Za-z_$][\w$]*$/;
/**
 * Most items one array request may carry; above it, 413 `payload_too_large`. The real service
 * documents no limit (an emulator convention).
 */
export const MAX_BATCH_ITEMS = 1000;
/**
 * Largest `/signalvisitor` body, in bytes of its JSON; above it, 413 `payload_too_large`. The real
 * service documents none; a signal carries a command and a few IDs (the spec's sample is under 100
 * bytes), and it travels to a browser as one WebSocket frame (an emulator convention).
 */
export const MAX_SIGNAL_BYTES = 64 * 1024;
/** Largest WebSocket frame a visitor may send (ws `maxPayload`); a larger one closes the socket with 1009. */
export const MAX_VISITOR_FRAME_BYTES = 64 * 1024;

/** Stable `code` values of the emulator's `{code, message}` error bodies (an emulator convention). */
export const EMULATOR_ERROR_CODES = [
  "unauthorized",
  "forbidden",
  "not_found",
  "group_not_found",
  "method_not_allowed",
  "role_in_use",
  "validation_failed",
  "name_conflict",
  "malformed_json",
  "payload_too_large",
  "rate_limited",
  "fault_injected",
  "visitor_not_present",
  "wrong_server",
  "invalid_message",
  "internal",
] as const;
export type EmulatorErrorCode = (typeof EMULATOR_ERROR_CODES)[number];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** Line and paragraph separators, bidi embeddings, overrides and isolates, the byte order mark. */
const HIDDEN_EFFECT = /[\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/;
/** Characters that show nothing on their own (and variation selectors): a name of only these looks empty. */
const INVISIBLE = new Set([0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x2800, 0x3164, 0xffa0]);
const isInvisible = (ch: string): boolean => {
  const cp = ch.codePointAt(0)!;
  return (
    /\s/.test(ch) ||
    INVISIBLE.has(cp) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  );
};
const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
const positiveId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const name = z
  .string()
  .min(1, "must not be empty")
  .refine((s) => s.length <= NAME_MAX, `must be at most ${NAME_MAX} characters (UTF-16 code units)`)
  .refine((s) => s.trim() !== "" || HIDDEN_EFFECT.test(s), "must not be blank (whitespace only)")
  .refine((s) => !LONE_SURROGATE.test(s), "must be valid Unicode (it holds a lone surrogate)")
  .refine((s) => !CONTROL.test(s), "must not contain control characters (line breaks, tabs, NUL)")
  .superRefine((s, ctx) => {
    const hidden = HIDDEN_EFFECT.exec(s)?.[0];
    if (hidden) ctx.addIssue({ code: "custom", message: `must not contain ${codePoint(hidden)}` });
    else if (s.trim() !== "" && [...s].every(isInvisible))
      ctx.addIssue({ code: "custom", message: `must have a visible character (${codePoint(s.trim()[0]!)} is not)` });
  });
const description = z
  .string()
  .refine((s) => s.length <= DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters (UTF-16 code units)`)
  .refine((s) => !LONE_SURROGATE.test(s), "must be valid Unicode (it holds a lone surrogate)");

/** Settings values are nullable booleans (the newer API version); `null` means "unset". */
export const Settings = z.record(z.string(), z.boolean().nullable());
export type Settings = z.infer<typeof Settings>;

/** One element of the create body. */
export const RoleCreate = z.object({ name, description: description.optional(), settings: Settings.optional() });
export type RoleCreate = z.infer<typeof RoleCreate>;

/** One element of the update body: roleId and name required. */
export const RoleUpdate = z.object({
  roleId: positiveId,
  name,
  description: description.optional(),
  settings: Settings.optional(),
});
export type RoleUpdate = z.infer<typeof RoleUpdate>;

/** One element of the delete-roles body. */
export const RoleId = positiveId;

/** The body of `/signalvisitor`. */
export const VisitorMessage = z.discriminatedUnion("mtype", [
  z.object({
    mtype: z.literal("invoke"),
    data: z.object({ func: z.string().regex(INVOKE_FUNC, "must have the form SERVICE.<Module>.Visitor.<function>") }),
  }),
  z.object({ mtype: z.literal("signal"), data: z.record(z.string(), z.unknown()) }),
]);
export type VisitorMessage = z.infer<typeof VisitorMessage>;

// ---- replies, as the emulator sends them ----------------------------------------------------------

/** An entry of the list reply. */
export interface RoleListItem {
  roleId: number;
  name: string;
  inUse: boolean;
  description: string;
  userCount: number;
}

/** An entry of the create reply. */
export interface CreatedRole {
  roleId: number;
  name: string;
  inUse: boolean;
}

/** The details reply (the vendor's API reference shape, without inUse and userCount). */
export interface RoleDetails {
  roleId: number;
  name: string;
  description: string;
  settings: Record<string, boolean>;
}

/** The named-server fields of both presence replies. */
export interface NamedServerFields {
  ds: string;
  direct: string;
  directserver: string;
  tlsport: number;
  httpsport: number;
}

/** `/lookupvisitor`: the record, or `{}` for an absent visitor. */
export type PresenceRecord =
  | (NamedServerFields & { visitorpresent: string; timestamp: string; visitorid: string; groupid: string })
  | Record<string, never>;

/** `/findvisitor`: where the visitor is, or only `visitorfound: false`. */
export type VisitorLocation = (NamedServerFields & { visitorfound: true }) | { visitorfound: false };
