/**
 * The plugin's functions: each an invoke the engine forwards to the provider (the default one, or
 * `{ provider }`), which runs the same lookup as the dynamic package's data functions
 * (provider/shared/lookups) with that provider's configuration. `getX` returns a Promise, `getXOutput`
 * an Output (secrets and dependencies kept), as Pulumi's generated SDKs do.
 */
import * as pulumi from "@pulumi/pulumi";
import type { GetRoleArgs, GetRoleResult, GetRolesArgs, GetRolesResult } from "../../provider/shared/lookups";
import type { FindVisitorArgs, FindVisitorResult, GetVisitorPresenceArgs, GetVisitorPresenceResult } from "../presence";
import { withVersion } from "./version";

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

const call =
  <A, R>(token: string) =>
  (args: A, opts?: pulumi.InvokeOptions): Promise<R> =>
    pulumi.runtime.invoke(token, args as pulumi.Inputs, withVersion(opts)) as Promise<R>;

const callOutput =
  <A, R>(token: string) =>
  (args: Inputs<A>, opts?: pulumi.InvokeOutputOptions): pulumi.Output<R> =>
    pulumi.runtime.invokeOutput<R>(token, args as pulumi.Inputs, withVersion(opts));

/** One role of a group, by name or ID (exactly one), with its settings. */
export const getRole = call<GetRoleArgs, GetRoleResult>("grouproles:index:getRole");
export const getRoleOutput = callOutput<GetRoleArgs, GetRoleResult>("grouproles:index:getRole");
/** Every role of a group: `{ groupId, roles }`. */
export const getRoles = call<GetRolesArgs, GetRolesResult>("grouproles:index:getRoles");
export const getRolesOutput = callOutput<GetRolesArgs, GetRolesResult>("grouproles:index:getRoles");
/** A visitor's presence record. */
export const getVisitorPresence = call<GetVisitorPresenceArgs, GetVisitorPresenceResult>(
  "grouproles:index:getVisitorPresence",
);
export const getVisitorPresenceOutput = callOutput<GetVisitorPresenceArgs, GetVisitorPresenceResult>(
  "grouproles:index:getVisitorPresence",
);
/** Where a visitor is connected. */
export const findVisitor = call<FindVisitorArgs, FindVisitorResult>("grouproles:index:findVisitor");
export const findVisitorOutput = callOutput<FindVisitorArgs, FindVisitorResult>("grouproles:index:findVisitor");

export type {
  GetRoleArgs,
  GetRoleResult,
  GetRolesArgs,
  GetRolesResult,
  GetVisitorPresenceArgs,
  GetVisitorPresenceResult,
  FindVisitorArgs,
  FindVisitorResult,
};
