/**
 * Wire formats of the service, in one place. The client parses every reply with these schemas and the
 * emulator builds its replies and validates its requests with them, so the two cannot drift.
 *
 * Reply schemas are tolerant (unknown fields are ignored, fields the spec marks as "also" are optional);
 * request limits are the documented ones (see `../shared/spec/service-api.md`, appendix A).
 */
import { z } from "zod";

/** Longest role name the service accepts. */
export const ROLE_NAME_MAX = 70;
/** Longest role description the service accepts. */
export const ROLE_DESCRIPTION_MAX = 255;
/** Visitor IDs: at most 62 characters of letters, digits, `-`, `_` and `~`. */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_~-]{1,62}$/;
/** `SERVICE.<Module>.Visitor.<function>`, the only shape of an invoke message's `func`. */
export const VISITOR_FUNC_PATTERN = /^SERVICE\.[A-Za-z_$][\w$]*\.Visitor\.[A-Za-z_$][\w$]*$/;

const int = z.number().int();

/**
 * Text limits ("at most 70 characters") count UTF-16 code units, a JavaScript string's `length`, as
 * the vendor's .NET stack and SQL `nvarchar` columns do: an emoji counts 2, so a name of 35 emoji is
 * the longest. (zod's own `.max()` counts code points, hence the explicit checks below.)
 */
/** True when `s` holds a surrogate without its pair: not valid Unicode, and mangled by UTF-8 encoders. */
export const hasLoneSurrogate = (s: string): boolean => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
/** Control characters (C0, DEL, C1): a role name is one line of display text. */
export const hasControlChar = (s: string): boolean => /[\u0000-\u001F\u007F-\u009F]/.test(s);

/** Permission settings: setting name to boolean (`null` is accepted by the newer API version). */
export const WireSettings = z.record(z.string(), z.boolean().nullable());
export type WireSettings = z.infer<typeof WireSettings>;

// ---- roles: replies -------------------------------------------------------------------------------

/** One entry of `GET /groups/{groupId}/roles`. */
export const WireRoleListItem = z.object({
  roleId: int,
  name: z.string(),
  inUse: z.boolean(),
  description: z.string().nullable().optional(),
  userCount: int.nonnegative().optional(),
});
export type WireRoleListItem = z.infer<typeof WireRoleListItem>;
export const WireRoleList = z.array(WireRoleListItem);

/** One entry of the `POST /groups/{groupId}/roles` reply. */
export const WireCreatedRole = z.object({
  roleId: int,
  name: z.string(),
  inUse: z.boolean().optional(),
});
export type WireCreatedRole = z.infer<typeof WireCreatedRole>;
export const WireCreatedRoles = z.array(WireCreatedRole);

/** `GET /groups/{groupId}/roles/{roleId}`. */
export const WireRoleDetails = z.object({
  roleId: int,
  name: z.string(),
  settings: WireSettings.nullable().optional(),
  description: z.string().nullable().optional(),
});
export type WireRoleDetails = z.infer<typeof WireRoleDetails>;

/** `{status: "ok"}` of update and delete-roles. */
export const WireStatus = z.object({ status: z.string() });
export type WireStatus = z.infer<typeof WireStatus>;

// ---- roles: requests ------------------------------------------------------------------------------

const roleName = z
  .string()
  .min(1, "must not be empty")
  .refine((s) => s.length <= ROLE_NAME_MAX, `must be at most ${ROLE_NAME_MAX} characters (UTF-16 code units)`)
  .refine((s) => s.trim().length > 0, "must not be blank (whitespace only)")
  .refine((s) => !hasLoneSurrogate(s), "must be valid Unicode (it holds a lone surrogate)")
  .refine((s) => !hasControlChar(s), "must not contain control characters (line breaks, tabs, NUL)");
const roleDescription = z
  .string()
  .refine((s) => s.length <= ROLE_DESCRIPTION_MAX, `must be at most ${ROLE_DESCRIPTION_MAX} characters (UTF-16 code units)`)
  .refine((s) => !hasLoneSurrogate(s), "must be valid Unicode (it holds a lone surrogate)");

/** One element of the create request body. */
export const WireRoleCreate = z.object({
  name: roleName,
  description: roleDescription.optional(),
  settings: WireSettings.optional(),
});
export type WireRoleCreate = z.infer<typeof WireRoleCreate>;

/** One element of the update request body. */
export const WireRoleUpdate = z.object({
  roleId: int.positive(),
  name: roleName,
  description: roleDescription.optional(),
  settings: WireSettings.optional(),
});
export type WireRoleUpdate = z.infer<typeof WireRoleUpdate>;

/** The delete-roles request body: role IDs. */
export const WireRoleIds = z.array(int.positive());

// ---- presence -------------------------------------------------------------------------------------

/** A decimal number of seconds carried as text, e.g. `"1700000000.123"`. */
const decimalSeconds = z.union([z.string().regex(/^\d+(\.\d+)?$/), z.number()]);
const PORT_RULE = "must be a port number: 0 to 65535, as a number or as digits";
/** A port as a number or as digits: some deployments carry ports as text. */
const port = z.union([int.min(0, PORT_RULE).max(65535, PORT_RULE), z.string().regex(/^\d{1,5}$/, PORT_RULE)], {
  error: PORT_RULE,
});

/**
 * `GET {presenceUrl}/lookupvisitor`. Every field is optional because an absent visitor is answered
 * with `{}`; some deployments carry the ports as text, so numeric strings are accepted too.
 */
export const WirePresenceRecord = z.object({
  direct: z.string().optional(),
  visitorpresent: decimalSeconds.optional(),
  timestamp: decimalSeconds.optional(),
  visitorid: z.string().optional(),
  groupid: z.union([z.string(), z.number()]).optional(),
  ds: z.string().optional(),
  directserver: z.string().optional(),
  tlsport: port.optional(),
  httpsport: port.optional(),
});
export type WirePresenceRecord = z.infer<typeof WirePresenceRecord>;

/** `GET {presenceUrl}/findvisitor`. */
export const WireVisitorLocation = z.object({
  visitorfound: z.boolean(),
  ds: z.string().optional(),
  direct: z.string().optional(),
  directserver: z.string().optional(),
  tlsport: port.optional(),
  httpsport: port.optional(),
});
export type WireVisitorLocation = z.infer<typeof WireVisitorLocation>;

/** Body of `POST https://{directserver}/signalvisitor`. */
export const WireVisitorMessage = z.discriminatedUnion("mtype", [
  z.object({
    mtype: z.literal("invoke"),
    data: z.object({
      func: z
        .string()
        .regex(VISITOR_FUNC_PATTERN, "must have the form SERVICE.<Module>.Visitor.<function>"),
    }),
  }),
  z.object({
    mtype: z.literal("signal"),
    data: z.record(z.string(), z.unknown()),
  }),
]);
export type WireVisitorMessage = z.infer<typeof WireVisitorMessage>;

// ---- errors ---------------------------------------------------------------------------------------

/**
 * Error body. The spec does not show one; the emulator sends `{code, message}` and the client reads
 * these two fields when present and falls back to the raw text otherwise.
 */
export const WireError = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
});
export type WireError = z.infer<typeof WireError>;

// ---- emulator conventions (the real service documents none of these) -------------------------------

/**
 * Stable `code` values of the emulator's `{code, message}` error bodies. The real service's codes are
 * not documented; clients may branch on these when talking to the emulator and must fall back to the
 * HTTP status otherwise.
 */
export const EMULATOR_ERROR_CODES = [
  "unauthorized",
  "forbidden",
  "not_found",
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

/**
 * Most items one array request (create, update, delete-roles) may carry in the emulator; a longer
 * array is answered with 413 `payload_too_large`. The real service documents no limit, so clients
 * should batch at or below this.
 */
export const MAX_BATCH_ITEMS = 1000;
