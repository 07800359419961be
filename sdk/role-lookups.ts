/**
 * Data functions for roles managed elsewhere: `getRole` / `getRoles` and their `...Output` variants.
 * They run in the program process, during `pulumi preview` as well as `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  type GetRoleArgs,
  type GetRoleResult,
  type GetRolesArgs,
  type GetRolesResult,
  lookupRole,
  lookupRoles,
} from "../provider/shared/lookups";
import { clientFor, type ConnectionOptions } from "./client";

export type { GetRoleArgs, GetRoleResult, GetRolesArgs, GetRolesResult } from "../provider/shared/lookups";

/**
 * One role of a group, by name or by ID, with its settings (read from the service, in the program's
 * process, during `pulumi preview` too).
 * @throws ConfigurationError for bad arguments (before any request), NotFoundError when there is none.
 */
export function getRole(args: GetRoleArgs, options?: ConnectionOptions): Promise<GetRoleResult> {
  return lookupRole(clientFor(options, "roles"), args);
}

/** Every role of a group: `{ groupId, roles }`. */
export function getRoles(args: GetRolesArgs, options?: ConnectionOptions): Promise<GetRolesResult> {
  return lookupRoles(clientFor(options, "roles"), args);
}

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
