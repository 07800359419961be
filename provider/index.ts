/**
 * `pulumi-grouproles/provider`: everything that talks to the service.
 *
 * This module is itself the Role resource's dynamic provider: the SDK hands Pulumi this module object,
 * so the serialized `__provider` is just `require("pulumi-grouproles/provider")` (see DESIGN.md,
 * invariant 1). Its top-level `configure`, `check`, `diff`, `create`, `read`, `update` and `delete` are
 * Pulumi's ResourceProvider methods.
 */
export { configure, check, diff, create, read, update, deleteRole as delete } from "./role-provider";
export { changedProperties } from "./role-provider";
export { inUseDeleteMessage, inUseReplaceMessage, RoleOperationError } from "./role-errors";
export type { CheckResult, DiffResult, CreateResult, ReadResult, UpdateResult } from "./role-provider";
export { checkRoleInputs, parseRoleId, formatRoleId, UNKNOWN, type RoleInputs, type RoleOutputs, type CheckFailure } from "./role-inputs";
export { KNOWN_SETTINGS, suggestSetting } from "./settings-keys";
export { resolveConfig, requireSettings, timeoutOptions, batchOptions, clientFromConfig, setStackConfig, CONFIG_KEYS, ENV_KEYS, type ConfigSource, type ResolvedConfig } from "./config";
export { directWriter, type RoleWriter } from "./role-writes";
export { batchingWriter, DEFAULT_BATCH_OPTIONS, type BatchOptions } from "./role-batcher";
export { SingleFlight } from "./single-flight";

export * from "./client";
export * as wire from "./wire";
