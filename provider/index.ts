/**
 * `pulumi-grouproles/provider`: everything that talks to the service. The serialized dynamic provider
 * requires this module by package name.
 */
export * from "./client";
export * as wire from "./wire";
