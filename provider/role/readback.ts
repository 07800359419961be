/**
 * The role as the service holds it, turned into Role outputs: after a write (cheap, from the group's
 * shared list) or in full (details and list, for refresh, import and adoption).
 */
import { UnexpectedReplyError } from "../../client/errors";
import {
  changedTextFields,
  heldTextFields,
  LISTED_TEXT_FIELDS,
  textFieldsOf,
  textFromReplies,
  TEXT_FIELDS,
  type HeldTextFields,
  type TextFields,
} from "../../client/role-fields";
import { ROUTES, pathOf } from "../../client/routes";
import type { RoleSummary } from "../../client/types";
import type { RoleInputs, RoleOutputs } from "./inputs";
import { services } from "./services";
import { userCountOf } from "../shared/user-count";

/**
 * The role as the service holds it now. `declared` says which settings keys the program manages;
 * without it (import, `Role.get`) every setting the service reports is returned.
 */
export async function readBack(
  groupId: number,
  roleId: number,
  declared: RoleInputs | undefined,
): Promise<RoleOutputs> {
  const [details, listed] = await Promise.all([
    services().client.roles.get(groupId, roleId),
    listedEntry(groupId, roleId).catch((e: unknown) => e as Error),
  ]);
  // The details decide first: a role that is gone is a NotFoundError, whatever the list says.
  if (listed instanceof Error) throw listed;
  const entry = listed;
  const outs = {
    ...heldOutputs(groupId, roleId, details.name, entry),
    ...shown(textFromReplies(details, entry), declared),
  };
  const settings: Record<string, boolean> = {};
  const keys = declared ? Object.keys(declared.settings ?? {}) : Object.keys(details.settings);
  for (const key of keys) {
    const value = details.settings[key];
    if (typeof value === "boolean") settings[key] = value;
  }
  if (declared ? declared.settings !== undefined : keys.length > 0) outs.settings = settings;
  return outs;
}

/**
 * A Role's text outputs: each one the service holds, left out when it is empty and the program does
 * not declare it (so an undeclared empty description is no output, as `description?` reads).
 */
function shown(held: HeldTextFields, declared: TextFields | undefined): TextFields {
  const out: TextFields = {};
  for (const f of TEXT_FIELDS) if (held[f] !== "" || declared?.[f] !== undefined) out[f] = held[f];
  return out;
}

/** The outputs every read of a listed role fills alike (the rest depends on what was declared). */
function heldOutputs(groupId: number, roleId: number, name: string, entry: RoleSummary): RoleOutputs {
  return { groupId, roleId, name, inUse: entry.inUse, userCount: userCountOf(entry) };
}

/**
 * The list entry (inUse, userCount, description) of a role whose details the service has. The shared
 * list may predate the role, so a miss is asked again with a fresh list; a role missing from that one
 * too is an unexpected reply (a truncated list), never a guess of "not in use" or "gone".
 */
export async function listedEntry(groupId: number, roleId: number): Promise<RoleSummary> {
  const { client, writer } = services();
  const shared = (await writer.list(groupId)).find((r) => r.roleId === roleId);
  const entry = shared ?? (await client.roles.list(groupId)).find((r) => r.roleId === roleId);
  if (entry) return entry;
  throw new UnexpectedReplyError(
    `role ${roleId} has details but is missing from the list of group ${groupId}`,
    undefined,
    {
      request: { method: ROUTES.listRoles.method, path: pathOf(ROUTES.listRoles, { groupId }) },
    },
  );
}

/**
 * The role's outputs after a write the service confirmed (a 2xx reply, matched to this role). The
 * group's list, shared by every role of the batch (single flight), supplies name, the text fields it
 * shows (description), inUse and userCount; the managed settings are the ones sent. Arrays are validated and applied as a whole
 * and the service rejects settings it will not apply, so a confirmed write holds them; reading each
 * role's details instead would cost one request per role and undo what batching saves. Drift made
 * later is found by `pulumi refresh`, which reads the details.
 */
export async function afterWrite(groupId: number, roleId: number, inputs: RoleInputs): Promise<RoleOutputs> {
  const entry = (await services().writer.list(groupId)).find((r) => r.roleId === roleId);
  // Not listed yet, or a list without the text fields it should show: the details have what is missing.
  if (!entry || LISTED_TEXT_FIELDS.some((f) => entry[f] === undefined)) return readBack(groupId, roleId, inputs);
  // Text fields the list does not show are the ones sent, as the settings are.
  const held = heldTextFields({ ...textFieldsOf(inputs), ...textFieldsOf(entry, LISTED_TEXT_FIELDS) });
  const outs = { ...heldOutputs(groupId, roleId, entry.name, entry), ...shown(held, inputs) };
  if (inputs.settings !== undefined) outs.settings = { ...inputs.settings };
  return outs;
}

/** Fields the service does not hold as asked, e.g. `settings.viewVideo (sent true, service has false)`. */
export function notApplied(inputs: RoleInputs, outs: RoleOutputs): string[] {
  const missing: string[] = [];
  if (outs.name !== inputs.name) missing.push(`name (sent "${inputs.name}", service has "${outs.name}")`);
  missing.push(...changedTextFields(inputs, outs));
  for (const [key, value] of Object.entries(inputs.settings ?? {})) {
    const held = outs.settings && Object.hasOwn(outs.settings, key) ? outs.settings[key] : undefined;
    if (held !== value)
      missing.push(`settings.${key} (sent ${value}, service has ${held === undefined ? "nothing" : held})`);
  }
  return missing;
}

/**
 * The outputs of a role that a confirmed create made and whose reply says nobody holds it: what was
 * sent (the reply matched the names, and arrays are applied as a whole), with `userCount` 0. A newly
 * made role needs no list for its `userCount`, which halves the requests of batched creates.
 */
export function createdOutputs(inputs: RoleInputs, roleId: number): RoleOutputs {
  const outs: RoleOutputs = {
    groupId: inputs.groupId,
    roleId,
    name: inputs.name,
    ...textFieldsOf(inputs),
    inUse: false,
    userCount: 0,
  };
  if (inputs.settings !== undefined) outs.settings = { ...inputs.settings };
  return outs;
}
