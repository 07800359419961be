/**
 * `pulumi-grouproles/provider/group-roles`: the GroupRoles resource's dynamic provider, and nothing
 * else.
 *
 * This module is what the serialized `__provider` of every GroupRoles requires: the SDK hands Pulumi
 * this module object, so the state holds only `require("pulumi-grouproles/provider/group-roles")`,
 * byte-identical across versions, checkouts and machines. Its exports are Pulumi's ResourceProvider
 * methods (see `groupRolesProvider` in ./provider, checked against `pulumi.dynamic.ResourceProvider`).
 */
// First: on an older Node, fail naming the version needed (../../client/node-version), not deep inside undici.
import "../../client/node-version";
import { withoutTraces } from "../shared/errors";
import { groupRolesProvider } from "./provider";

// The dynamic-provider host prints a failed call's stack trace: a refusal's has none (withoutTraces).
const hosted = withoutTraces(groupRolesProvider);
export const { configure, check, diff, create, read, update } = hosted;
const deleteGroupRoles = hosted.delete;
export { deleteGroupRoles as delete };
