/**
 * The role as the service holds it, turned into Role outputs: after a write (cheap, from the group's
 * shared list) or in full (details and list, for refresh, import and adoption).
 */
import { UnexpectedReplyError } from "../client/errors";
import type { RoleInputs, RoleOutputs } from "./role-inputs";
import { services } from "./role-services";

/**
 * The role as the service holds it now. `declared` says which settings keys the program manages;
 * without it (import, `Role.get`) every setting the service reports is returned.
 */
export async function readBack(groupId: number, roleId: number, declared: RoleInputs | undefined): Promise<RoleOutputs> {
  const { client, writer } = services();
  const [details, list] = await Promise.all([client.roles.get(groupId, roleId), writer.list(groupId)]);
  let entry = list.find((r) => r.roleId === roleId);
  if (!entry) {
    // The role exists (its details came back) but the list lacks it: a list taken before the role
    // existed, or a truncated reply. Guessing "not in use" would put a wrong inUse/userCount in state.
    entry = (await client.roles.list(groupId)).find((r) => r.roleId === roleId);
    if (!entry) {
      throw new UnexpectedReplyError(`role ${roleId} has details but is missing from the list of group ${groupId}`, undefined, {
        request: { method: "GET", path: `/api/v0/groups/${groupId}/roles` },
      });
    }
  }
  const outs: RoleOutputs = {
    groupId,
    roleId,
    name: details.name,
    inUse: entry.inUse,
    userCount: entry.userCount ?? (entry.inUse ? 1 : 0),
  };
  const description = entry.description ?? details.description;
  if (description !== undefined && (description !== "" || declared?.description !== undefined)) outs.description = description;
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
 * The role's outputs after a write the service confirmed (a 2xx reply, matched to this role). The
 * group's list, shared by every role of the batch (single flight), supplies name, description, inUse
 * and userCount; the managed settings are the ones sent. Arrays are validated and applied as a whole
 * and the service rejects settings it will not apply, so a confirmed write holds them; reading each
 * role's details instead would cost one request per role and undo what batching saves. Drift made
 * later is found by `pulumi refresh`, which reads the details.
 */
export async function afterWrite(groupId: number, roleId: number, inputs: RoleInputs): Promise<RoleOutputs> {
  const entry = (await services().writer.list(groupId)).find((r) => r.roleId === roleId);
  // Not listed yet, or a list without descriptions: the details have what is missing.
  if (!entry || entry.description === undefined) return readBack(groupId, roleId, inputs);
  const outs: RoleOutputs = { groupId, roleId, name: entry.name, inUse: entry.inUse, userCount: entry.userCount ?? (entry.inUse ? 1 : 0) };
  if (entry.description !== "" || inputs.description !== undefined) outs.description = entry.description;
  if (inputs.settings !== undefined) outs.settings = { ...inputs.settings };
  return outs;
}

/** Fields the service does not hold as asked, e.g. `settings.viewVideo (sent true, service has false)`. */
export function notApplied(inputs: RoleInputs, outs: RoleOutputs): string[] {
  const missing: string[] = [];
  if (outs.name !== inputs.name) missing.push(`name (sent "${inputs.name}", service has "${outs.name}")`);
  if ((inputs.description ?? "") !== (outs.description ?? "")) missing.push(`description`);
  for (const [key, value] of Object.entries(inputs.settings ?? {})) {
    const held = outs.settings && Object.hasOwn(outs.settings, key) ? outs.settings[key] : undefined;
    if (held !== value) missing.push(`settings.${key} (sent ${value}, service has ${held === undefined ? "nothing" : held})`);
  }
  return missing;
}
