/**
 * `pulumi-grouproles`: what a Pulumi program imports.
 *
 * Settings come from the stack config namespace `grouproles` (`baseUrl`, `presenceUrl`, `accessToken`
 * as a secret), else the environment (`GROUPROLES_BASE_URL`, `GROUPROLES_PRESENCE_URL`,
 * `GROUPROLES_ACCESS_TOKEN`).
 */
export { Role, type RoleArgs } from "./role";
export {
  getRole, getRoleOutput, getRoles, getRolesOutput,
  type GetRoleArgs, type GetRoleResult, type GetRolesArgs, type GetRolesResult,
} from "./role-lookups";
export type { ConnectionOptions } from "./client";
export {
  GroupRolesError, AuthenticationError, ForbiddenError, NotFoundError, ConflictError, RoleInUseError, ValidationError,
  RateLimitedError, ServerError, TimeoutError, ConnectionError, RedirectError, UnexpectedReplyError, ConfigurationError,
  VisitorNotConnectedError,
} from "../client";
export {
  getVisitorPresence, getVisitorPresenceOutput, findVisitor, findVisitorOutput, signalVisitor,
  type GetVisitorPresenceArgs, type GetVisitorPresenceResult, type FindVisitorArgs, type FindVisitorResult,
  type SignalVisitorArgs, type SignalVisitorResult, type VisitorMessage, type VisitorInvokeMessage, type VisitorSignalMessage,
} from "./presence";
