/**
 * The plugin version resources and functions of this SDK ask for: the engine's default provider is
 * named after it (`default_0_2_0`) and loads `pulumi-resource-grouproles` at this version, as a
 * generated SDK's `utilities.getVersion()` does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PACKAGE_VERSION } from "../../client/version";

/** `opts` with the plugin version set unless the program chose one. */
export function withVersion<T extends pulumi.ResourceOptions | pulumi.InvokeOptions>(opts: T | undefined): T {
  return { version: PACKAGE_VERSION, ...opts } as T;
}
