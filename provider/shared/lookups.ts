/**
 * The lookups both hosts serve: the SDK's data functions (in the program process, a client from the
 * program's config) and the provider plugin's invokes (a client from the provider's config). Arguments
 * are checked before any request; a role not found is a NotFoundError naming what was looked for.
 */
import type { GroupRolesClient } from "../../client";
import { ConfigurationError } from "../../client/errors";
import { NotFoundError } from "../../client/status-errors";
import { checkVisitorRef } from "../../client/presence";
import { textFieldsOf, type TextFields } from "../../client/role-fields";
import { idRule, problemOf, requireValid, roleNameRule } from "../../client/rules";
import type { PresenceRecord, RoleSummary, VisitorLocation } from "../../client/types";

export interface GetRoleArgs {
  groupId: number;
  /** Exact name of the role (names are unique within a group). */
  name?: string;
  /** The role's ID. */
  roleId?: number;
}

/** A role found by {@link getRole}, with its text fields as the service holds them (client/role-fields.ts). */
export interface GetRoleResult extends TextFields {
  /** Resource ID form, `"<groupId>/<roleId>"`, usable with `Role.get` or the `import` option. */
  id: string;
  groupId: number;
  roleId: number;
  name: string;
  /** Every setting the service reports for the role. */
  settings: Record<string, boolean | null>;
  inUse: boolean;
  userCount?: number;
}

/** Arguments of {@link getRoles}. */
export interface GetRolesArgs {
  groupId: number;
}

/** The roles of a group. */
export interface GetRolesResult {
  groupId: number;
  roles: RoleSummary[];
}

function checkGroupId(groupId: unknown): asserts groupId is number {
  requireValid(idRule, groupId, "groupId");
}

/**
 * Looks up one role of a group by name or ID.
 * @throws ConfigurationError for bad arguments (before any request), NotFoundError when no such role.
 */
/** One role of a group, by name or ID, with its settings. */
export async function lookupRole(client: GroupRolesClient, args: GetRoleArgs): Promise<GetRoleResult> {
  checkGroupId(args?.groupId);
  const hasName = args.name !== undefined;
  const hasId = args.roleId !== undefined;
  if (hasName === hasId) throw new ConfigurationError("getRole: give exactly one of name or roleId");
  // A name no role can have (blank, too long, control characters, broken Unicode) fails here, not as a 404.
  const nameProblem = hasName ? problemOf(roleNameRule, args.name, "name") : undefined;
  if (nameProblem) throw new ConfigurationError(`getRole: ${nameProblem}`);
  if (hasId) requireValid(idRule, args.roleId, "roleId");
  const list = await client.roles.list(args.groupId);
  const entry = list.find((r) => (hasName ? r.name === args.name : r.roleId === args.roleId));
  if (!entry) {
    throw new NotFoundError(
      `group ${args.groupId} has no role ${hasName ? `named "${args.name}"` : `with id ${args.roleId}`}`,
    );
  }
  const details = await client.roles.get(args.groupId, entry.roleId);
  const result: GetRoleResult = {
    id: `${args.groupId}/${entry.roleId}`,
    groupId: args.groupId,
    roleId: entry.roleId,
    name: entry.name,
    ...textFieldsOf(details),
    ...textFieldsOf(entry),
    settings: details.settings,
    inUse: entry.inUse,
  };
  if (entry.userCount !== undefined) result.userCount = entry.userCount;
  return result;
}

/** Lists every role of a group. */
/** Every role of a group, as its list shows them. */
export async function lookupRoles(client: GroupRolesClient, args: GetRolesArgs): Promise<GetRolesResult> {
  checkGroupId(args?.groupId);
  return { groupId: args.groupId, roles: await client.roles.list(args.groupId) };
}

/** {@link getRole} taking Inputs and returning an Output. */

/** The arguments of the presence lookups. */
export interface VisitorRef {
  groupId: number;
  visitorId: string;
}

function checkVisitorArgs(args: VisitorRef | undefined): void {
  if (typeof args !== "object" || args === null)
    throw new ConfigurationError("args must be an object { groupId, visitorId }");
  checkVisitorRef(args.groupId, args.visitorId);
}

/** A visitor's presence record; an absent visitor is `{ present: false, groupId, visitorId }`. */
export async function lookupVisitorPresence(
  client: GroupRolesClient,
  args: VisitorRef,
): Promise<PresenceRecord & { groupId: number; visitorId: string }> {
  checkVisitorArgs(args);
  const record = await client.presence.lookupVisitor(args.groupId, args.visitorId);
  const { present, groupId, visitorId, ...rest } = record;
  return { present, groupId: groupId ?? args.groupId, visitorId: visitorId ?? args.visitorId, ...rest };
}

/** The named server a visitor is connected to; an absent visitor is `{ visitorFound: false }`. */
export async function locateVisitor(client: GroupRolesClient, args: VisitorRef): Promise<VisitorLocation> {
  checkVisitorArgs(args);
  return client.presence.findVisitor(args.groupId, args.visitorId);
}
