/**
 * The dynamic providers handed to Pulumi when this package runs from a source checkout (its examples,
 * its tests, its demo) instead of from `node_modules`.
 *
 * Pulumi serializes a provider that lives in `node_modules` as `require("pulumi-grouproles/provider")`
 * (or `.../provider/group-roles`); one that lives anywhere else is serialized by value, which drags in
 * (and fails on) the whole client. These forwarders capture nothing, so they serialize by value to a
 * few hundred bytes each that still only require the public entry, which the provider host resolves
 * from the program's directory (inside the checkout, by the package's self-reference).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Props } from "../provider/shared/props";

type RoleProvider = typeof import("../provider");
type GroupRolesProvider = typeof import("../provider/group-roles");

/** True when this package is installed (in `node_modules`): providers then serialize as a bare require. */
export const isInstalled = (dir: string): boolean => dir.split(/[\\/]/).includes("node_modules");

/* eslint-disable @typescript-eslint/no-require-imports */
export const checkoutProviderShim = {
  configure: (req: pulumi.dynamic.ConfigureRequest) =>
    (require("pulumi-grouproles/provider") as RoleProvider).configure(req),
  check: (o: Props, n: Props) => (require("pulumi-grouproles/provider") as RoleProvider).check(o, n),
  diff: (i: string, o: Props, n: Props) => (require("pulumi-grouproles/provider") as RoleProvider).diff(i, o, n),
  create: (p: Props) => (require("pulumi-grouproles/provider") as RoleProvider).create(p),
  read: (i: string, p?: Props) => (require("pulumi-grouproles/provider") as RoleProvider).read(i, p),
  update: (i: string, o: Props, n: Props) => (require("pulumi-grouproles/provider") as RoleProvider).update(i, o, n),
  delete: (i: string, p: Props) => (require("pulumi-grouproles/provider") as RoleProvider).delete(i, p),
} satisfies pulumi.dynamic.ResourceProvider<Props, Props>;

/** The same for GroupRoles: forwarders to `pulumi-grouproles/provider/group-roles`. */
export const checkoutGroupRolesShim = {
  configure: (req: pulumi.dynamic.ConfigureRequest) =>
    (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).configure(req),
  check: (o: Props, n: Props) => (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).check(o, n),
  diff: (i: string, o: Props, n: Props) =>
    (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).diff(i, o, n),
  create: (p: Props) => (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).create(p),
  read: (i: string, p?: Props) => (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).read(i, p),
  update: (i: string, o: Props, n: Props) =>
    (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).update(i, o, n),
  delete: (i: string, p: Props) =>
    (require("pulumi-grouproles/provider/group-roles") as GroupRolesProvider).delete(i, p),
} satisfies pulumi.dynamic.ResourceProvider<Props, Props>;
