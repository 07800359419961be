/**
 * Wire formats of the service as the client reads and writes them. Reply schemas are tolerant
 * (unknown fields are ignored, fields the spec marks as "also" are optional); request schemas apply
 * the rules of ./rules, so a request the service would refuse fails before it is sent.
 *
 * The emulator does not import these: it states the service's shapes itself, from the spec
 * (emulator/service-rules.ts), so that a mistake here is caught by the tests that talk to it.
 */
import { z } from "zod";
import { LISTED_TEXT_FIELDS, ROLE_FIELDS, TEXT_FIELDS, type TextFieldName } from "./role-fields";
import { VISITOR_FUNC_PATTERN, idRule, roleNameRule } from "./rules";

const int = z.number().int();

/** A role's optional text fields (./role-fields) as replies carry them: optional, possibly `null`. */
const replyText = (fields: readonly TextFieldName[]) =>
  Object.fromEntries(fields.map((f) => [f, z.string().nullable().optional()])) as {
    [K in TextFieldName]: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  };
/** The same in requests: optional, and checked by the field's rule. */
const requestText = () =>
  Object.fromEntries(TEXT_FIELDS.map((f) => [f, ROLE_FIELDS[f].rule.optional()])) as {
    [K in TextFieldName]: z.ZodOptional<z.ZodType<string>>;
  };

/** Permission settings: setting name to boolean (`null` is accepted by the newer API version). */
export const WireSettings = z.record(z.string(), z.boolean().nullable());
export type WireSettings = z.infer<typeof WireSettings>;

// ---- roles: replies -------------------------------------------------------------------------------

/** One entry of `GET /groups/{groupId}/roles`. */
export const WireRoleListItem = z.object({
  roleId: int,
  name: z.string(),
  inUse: z.boolean(),
  ...replyText(LISTED_TEXT_FIELDS),
  userCount: int.nonnegative().nullish(),
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
  ...replyText(TEXT_FIELDS),
});
export type WireRoleDetails = z.infer<typeof WireRoleDetails>;

/** `{status: "ok"}` of update and delete-roles. */
export const WireStatus = z.object({ status: z.string() });
export type WireStatus = z.infer<typeof WireStatus>;

// ---- roles: requests ------------------------------------------------------------------------------

/** One element of the create request body. */
export const WireRoleCreate = z.object({
  name: roleNameRule,
  ...requestText(),
  settings: WireSettings.optional(),
});
export type WireRoleCreate = z.infer<typeof WireRoleCreate>;

/** One element of the update request body. */
export const WireRoleUpdate = z.object({
  roleId: idRule,
  name: roleNameRule,
  ...requestText(),
  settings: WireSettings.optional(),
});
export type WireRoleUpdate = z.infer<typeof WireRoleUpdate>;

/** The delete-roles request body: role IDs. */
export const WireRoleIds = z.array(idRule);

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
      func: z.string().regex(VISITOR_FUNC_PATTERN, "must have the form SERVICE.<Module>.Visitor.<function>"),
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
