/**
 * The Role resource: one permission role of a group, managed through the service's array endpoints.
 */
import * as pulumi from "@pulumi/pulumi";
// The provider module object itself is the dynamic provider, so Pulumi serializes it as a bare
// `require("pulumi-grouproles/provider")` instead of inlining code: the state holds a few hundred bytes
// per role, identical across versions, checkouts and machines.
import * as roleProvider from "../provider";
import { checkoutProviderShim, isInstalled } from "./checkout-shim";
import { perRun } from "./per-run";
import { type RoleArgs, type RoleOutputs, isResourceOf, roleRegistration } from "./role-resource";
import { defaultDeleteGuard, withDeleteGuard } from "./delete-guard/hook";

export type { RoleArgs } from "./role-resource";

/** Installed packages serialize as a bare require; a source checkout needs the forwarding shim. */
const provider: pulumi.dynamic.ResourceProvider = isInstalled(__dirname) ? roleProvider : checkoutProviderShim;

/**
 * Every role this program declares, by group and name, with the resource that declared it first. Two
 * resources that declare one name in one group would collide at `up` (names are unique in a group), so
 * the second carries the first's resource name and `check` refuses it: the preview fails, naming both.
 */
const declaredNames = perRun(() => new Map<string, string>());

function sameNameAs(resourceName: string, args: RoleArgs | undefined): pulumi.Output<string | undefined> | undefined {
  if (!args) return undefined;
  const names = declaredNames();
  return pulumi.all([args.groupId, args.name]).apply(([groupId, roleName]) => {
    const key = JSON.stringify([groupId, roleName]);
    const first = names.get(key);
    if (first === undefined) names.set(key, resourceName);
    return first;
  });
}

/** A Role's outputs (./role-resource), which Pulumi sets as it does `declare`d ones. */
export interface Role extends RoleOutputs {}

/**
 * A permission role of a group.
 *
 * @example
 * ```ts
 * import { Role } from "pulumi-grouproles";
 *
 * const support = new Role("support", {
 *   groupId: 42,
 *   name: "Support",
 *   description: "First-line support agents",
 *   settings: { viewVideo: true, remoteAssist: true },
 * });
 * export const supportRoleId = support.roleId;
 * ```
 *
 * A role that users hold (`inUse`) is never deleted: deleting or replacing it fails with a message
 * naming the role and its user count. Use `retainOnDelete: true` to let Pulumi forget it instead.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi initializes every output property.
export class Role extends pulumi.dynamic.Resource {
  /**
   * Looks up an existing role by its resource ID, `"<groupId>/<roleId>"`, without managing it.
   * The same ID works with the `import` resource option to adopt a role created by hand.
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, undefined, { ...opts, id });
  }

  /** Returns true if `obj` is a Role created by this package (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is Role {
    return isResourceOf(obj, Role.__pulumiType, pulumi.CustomResource.isInstance);
  }

  /** The type token, `pulumi-nodejs:dynamic/grouproles:Role`. */
  public static readonly __pulumiType = "pulumi-nodejs:dynamic/grouproles:Role";

  /**
   * @param name The unique name of the resource in the program.
   * @param args The role's group, name, description and settings.
   * @param opts Resource options (`protect`, `retainOnDelete`, `import`, `ignoreChanges`, ...).
   */
  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions);
  /** Reads an existing role (what {@link Role.get} does): no arguments, the `id` option. */
  constructor(name: string, args: undefined, opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> });
  constructor(name: string, args: RoleArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    // Pulumi's engine cannot import dynamic-provider resources (it calls Read without `__provider`,
    // pulumi/pulumi#3550). So the `import` option is carried as an input instead, and the provider's
    // create adopts the existing role after checking that it matches the program, as an import does.
    const { import: importId, ...rest } = opts ?? {};
    const role = roleRegistration(Role.__pulumiType, name, args, opts, importId);
    super(
      provider,
      name,
      { ...role.inputs, importId, sameNameAs: sameNameAs(name, args) },
      // A removed Role whose role users hold fails the preview (./delete-guard); `Role.get` deletes nothing.
      withDeleteGuard(opts && rest, args && defaultDeleteGuard()),
      "grouproles",
      "Role",
    );
    role.registered(this);
  }
}
