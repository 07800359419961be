/**
 * `pulumi-grouproles`: what a Pulumi program imports.
 *
 * Settings come from the stack config namespace `grouproles` (`baseUrl`, `presenceUrl`, `accessToken`
 * as a secret), else the environment (`GROUPROLES_BASE_URL`, `GROUPROLES_PRESENCE_URL`,
 * `GROUPROLES_ACCESS_TOKEN`).
 */
// First: on an older Node, fail naming the version needed (../client/node-version), not deep inside undici.
import "../client/node-version";
import { registerDeleteHooks } from "./delete-guard/hook";
export { Role, type RoleArgs } from "./role";
export type { KnownSettingName, RoleSettings } from "./settings";
export { GroupRoles, type GroupRolesArgs, type GroupRoleEntry, type GroupRoleState } from "./group-roles";
export {
  getRole,
  getRoleOutput,
  getRoles,
  getRolesOutput,
  type GetRoleArgs,
  type GetRoleResult,
  type GetRolesArgs,
  type GetRolesResult,
} from "./role-lookups";
export type { ConnectionOptions } from "./client";
// Errors the data functions raise; every class, and `code` to branch on, is in `pulumi-grouproles/client`.
export {
  GroupRolesError,
  ConfigurationError,
  NotFoundError,
  VisitorNotConnectedError,
  type GroupRolesErrorCode,
} from "../client";
// Errors of the resources' operations (a partial apply, an import that does not match).
export { RoleNotAppliedError, ImportMismatchError } from "../provider/shared/errors";
export {
  getVisitorPresence,
  getVisitorPresenceOutput,
  findVisitor,
  findVisitorOutput,
  signalVisitor,
  type GetVisitorPresenceArgs,
  type GetVisitorPresenceResult,
  type FindVisitorArgs,
  type FindVisitorResult,
  type SignalVisitorArgs,
  type SignalVisitorResult,
  type VisitorMessage,
  type VisitorInvokeMessage,
  type VisitorSignalMessage,
} from "./presence";

export { registerDeleteHooks } from "./delete-guard/hook";

// The before-delete hook is registered whenever the package loads in a run, so that the engine finds it
// for a Role or GroupRoles the program no longer declares (./delete-guard/hook.ts).
registerDeleteHooks();
