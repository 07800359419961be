/**
 * The dynamic provider handed to Pulumi when this package runs from a source checkout (its examples,
 * its tests, its demo) instead of from `node_modules`.
 *
 * Pulumi serializes a provider that lives in `node_modules` as `require("pulumi-grouproles/provider")`;
 * one that lives anywhere else is serialized by value, which drags in (and fails on) the whole client.
 * These forwarders capture nothing, so they serialize by value to a few hundred bytes each that still
 * only `require("pulumi-grouproles/provider")`, which the provider host resolves from the program's
 * directory (inside the checkout, by the package's self-reference).
 */
import type * as pulumi from "@pulumi/pulumi";

type Provider = Required<pulumi.dynamic.ResourceProvider> & { configure(req: unknown): Promise<void> };
/* eslint-disable @typescript-eslint/no-require-imports */
export const checkoutProviderShim = {
  configure: (req: unknown) => (require("pulumi-grouproles/provider") as Provider).configure(req),
  check: (o: unknown, n: unknown) => (require("pulumi-grouproles/provider") as Provider).check(o, n),
  diff: (i: string, o: unknown, n: unknown) => (require("pulumi-grouproles/provider") as Provider).diff(i, o, n),
  create: (p: unknown) => (require("pulumi-grouproles/provider") as Provider).create(p),
  read: (i: string, p: unknown) => (require("pulumi-grouproles/provider") as Provider).read(i, p),
  update: (i: string, o: unknown, n: unknown) => (require("pulumi-grouproles/provider") as Provider).update(i, o, n),
  delete: (i: string, p: unknown) => (require("pulumi-grouproles/provider") as Provider).delete(i, p),
};
