/**
 * `pulumi-grouproles/package`: the TypeScript SDK of the `grouproles` resource plugin
 * (`pulumi-resource-grouproles`), hand-written where the Pulumi CLI would generate one from
 * schema.json. Resources are `grouproles:index:Role` and `grouproles:index:GroupRoles`, served by the
 * plugin with its provider's configuration: `pulumi import` works, several {@link Provider}s fit in one
 * program, and state holds no serialized code. The dynamic resources (`pulumi-grouproles`) stay the
 * default for TypeScript; docs/package.md says when to choose which.
 */
// First: on an older Node, fail naming the version needed, not deep inside undici.
import "../../client/node-version";
import { registerDeleteHooks } from "../delete-guard/hook";
export { Provider, type ProviderArgs } from "./provider";
export { Role, type RoleArgs } from "./role";
export type { KnownSettingName, RoleSettings } from "../settings";
export { GroupRoles, type GroupRolesArgs, type GroupRoleEntry, type GroupRoleState } from "./group-roles";
export * from "./functions";

export { registerDeleteHooks } from "../delete-guard/hook";

// The before-delete hook is registered whenever the package loads in a run, so that the engine finds it
// for a Role or GroupRoles the program no longer declares (../delete-guard/hook.ts).
registerDeleteHooks();
