/**
 * Data functions for roles managed elsewhere: `getRole` / `getRoles` and their `...Output` variants.
 * They run in the program process, during `pulumi preview` as well as `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigurationError, NotFoundError, type RoleSummary } from "../client";
import { idRule, problemOf, requireValid, roleNameRule } from "../client/rules";
import { clientFor, type ConnectionOptions } from "./client";

/** Arguments of {@link getRole}: the group and either the role's name or its ID. */
export interface GetRoleArgs {
  groupId: number;
  /** Exact name of the role (names are unique within a group). */
  name?: string;
  /** The role's ID. */
  roleId?: number;
}

/** A role found by {@link getRole}. */
export interface GetRoleResult {
  /** Resource ID form, `"<groupId>/<roleId>"`, usable with `Role.get` or the `import` option. */
  id: string;
  groupId: number;
  roleId: number;
  name: string;
  description?: string;
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
export async function getRole(args: GetRoleArgs, options?: ConnectionOptions): Promise<GetRoleResult> {
  checkGroupId(args?.groupId);
  const hasName = args.name !== undefined;
  const hasId = args.roleId !== undefined;
  if (hasName === hasId) throw new ConfigurationError("getRole: give exactly one of name or roleId");
  // A name no role can have (blank, too long, control characters, broken Unicode) fails here, not as a 404.
  const nameProblem = hasName ? problemOf(roleNameRule, args.name, "name") : undefined;
  if (nameProblem) throw new ConfigurationError(`getRole: ${nameProblem}`);
  if (hasId) requireValid(idRule, args.roleId, "roleId");
  const client = clientFor(options, "roles");
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
    settings: details.settings,
    inUse: entry.inUse,
  };
  const description = entry.description ?? details.description;
  if (description !== undefined) result.description = description;
  if (entry.userCount !== undefined) result.userCount = entry.userCount;
  return result;
}

/** Lists every role of a group. */
export async function getRoles(args: GetRolesArgs, options?: ConnectionOptions): Promise<GetRolesResult> {
  checkGroupId(args?.groupId);
  return { groupId: args.groupId, roles: await clientFor(options, "roles").roles.list(args.groupId) };
}

/** {@link getRole} taking Inputs and returning an Output. */
export function getRoleOutput(
  args: pulumi.Input<GetRoleArgs> | { [K in keyof GetRoleArgs]: pulumi.Input<GetRoleArgs[K]> },
  options?: ConnectionOptions,
): pulumi.Output<GetRoleResult> {
  return pulumi.output(args as pulumi.Input<GetRoleArgs>).apply((a) => getRole(a as GetRoleArgs, options));
}

/** {@link getRoles} taking Inputs and returning an Output. */
export function getRolesOutput(
  args: pulumi.Input<GetRolesArgs> | { groupId: pulumi.Input<number> },
  options?: ConnectionOptions,
): pulumi.Output<GetRolesResult> {
  return pulumi.output(args as pulumi.Input<GetRolesArgs>).apply((a) => getRoles(a as GetRolesArgs, options));
}
