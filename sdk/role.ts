/**
 * The Role resource: one permission role of a group, managed through the service's array endpoints.
 */
import * as pulumi from "@pulumi/pulumi";
import { refuseDroppedKeys } from "./dropped-keys";
// The provider module object itself is the dynamic provider, so Pulumi serializes it as a bare
// `require("pulumi-grouproles/provider")` instead of inlining code: the state holds a few hundred bytes
// per role, identical across versions, checkouts and machines.
import * as roleProvider from "../provider";
import { checkoutProviderShim, isInstalled } from "./checkout-shim";
import { enterGroup, declared } from "./group-order";
import { roleDeclaration, structureInput } from "./structure";
import { perRun } from "./per-run";
import { roleFieldProps } from "./role-field-props";
import type { RoleFieldArgs, RoleFieldOutputs } from "./role-fields";
import { defaultDeleteGuard, programClaims, withDeleteGuard } from "./delete-guard/hook";

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

/** The arguments of a {@link Role}: its group and the role's fields (./role-fields). */
export interface RoleArgs extends RoleFieldArgs {
  /** ID of the group the role belongs to: a positive integer. Changing it replaces the role. */
  groupId: pulumi.Input<number>;
}

/** A Role's outputs of the role's fields (./role-fields), which Pulumi sets as it does `declare`d ones. */
export interface Role extends RoleFieldOutputs {}

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
  /** ID of the group the role belongs to. */
  declare public readonly groupId: pulumi.Output<number>;
  /** ID the service generated for the role. */
  declare public readonly roleId: pulumi.Output<number>;
  /** True when the role is assigned to users. */
  declare public readonly inUse: pulumi.Output<boolean>;
  /** Number of users holding the role. */
  declare public readonly userCount: pulumi.Output<number>;

  /**
   * Looks up an existing role by its resource ID, `"<groupId>/<roleId>"`, without managing it.
   * The same ID works with the `import` resource option to adopt a role created by hand.
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, undefined, { ...opts, id });
  }

  /** Returns true if `obj` is a Role created by this package (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is Role {
    return pulumi.CustomResource.isInstance(obj) && Reflect.get(obj, "__pulumiType") === Role.__pulumiType;
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
    refuseDroppedKeys(args?.settings, "settings", `Role resource '${name}'`);
    const member = enterGroup("Role", name, args?.groupId, false, opts);
    if (args) programClaims().note(Role.__pulumiType, name, { importId }, opts);
    super(
      provider,
      name,
      {
        groupId: args?.groupId,
        ...roleFieldProps(args),
        importId,
        sameNameAs: sameNameAs(name, args),
        __structure: args && structureInput(Role.__pulumiType, name, opts),
        // Declared as undefined so that Pulumi creates Outputs for them.
        roleId: undefined,
        inUse: undefined,
        userCount: undefined,
      },
      // A removed Role whose role users hold fails the preview (./delete-guard); `Role.get` deletes nothing.
      withDeleteGuard(opts && rest, args && defaultDeleteGuard()),
      "grouproles",
      "Role",
    );
    declared(member, this, opts, args && roleDeclaration(args, this));
  }
}
