/**
 * `pulumi-grouproles/provider`: the Role resource's dynamic provider, and nothing else.
 *
 * This module is what the serialized `__provider` of every Role requires: the SDK hands Pulumi this
 * module object, so the state holds only `require("pulumi-grouproles/provider")`, byte-identical across
 * versions, checkouts and machines. Its exports are Pulumi's ResourceProvider methods (see
 * `roleProvider` in ./role/provider, checked against `pulumi.dynamic.ResourceProvider`).
 */
// First: on an older Node, fail naming the version needed (../client/node-version), not deep inside undici.
import "../client/node-version";
import { roleProvider } from "./role/provider";
import { withoutTraces } from "./shared/errors";

// The dynamic-provider host prints a failed call's stack trace: a refusal's has none (withoutTraces).
const hosted = withoutTraces(roleProvider);
export const { configure, check, diff, create, read, update } = hosted;
const deleteRole = hosted.delete;
export { deleteRole as delete };
