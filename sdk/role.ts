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
import { perRun } from "./per-run";

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

/** The arguments of a {@link Role}. */
export interface RoleArgs {
  /** ID of the group the role belongs to: a positive integer. Changing it replaces the role. */
  groupId: pulumi.Input<number>;
  /** Display name: 1 to 70 characters, not blank, unique within the group. */
  name: pulumi.Input<string>;
  /** Text describing the role: at most 255 characters. Omitted means empty. */
  description?: pulumi.Input<string>;
  /**
   * Permission settings: setting name to enabled, e.g. `{ viewVideo: true, remoteAssist: false }`.
   * Only the keys listed here are managed; removing a key resets that setting in the service. Key
   * order never matters. A key that looks like a typo of a known setting is refused in preview.
   */
  settings?: pulumi.Input<import("./settings").RoleSettings>;
}

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
export class Role extends pulumi.dynamic.Resource {
  /** ID of the group the role belongs to. */
  declare public readonly groupId: pulumi.Output<number>;
  /** Display name. */
  declare public readonly name: pulumi.Output<string>;
  /** Description, when one is set. */
  declare public readonly description: pulumi.Output<string | undefined>;
  /** The managed settings as the service holds them (for `Role.get` and imports: every setting). */
  declare public readonly settings: pulumi.Output<Record<string, boolean> | undefined>;
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
    super(
      provider,
      name,
      {
        groupId: args?.groupId,
        name: args?.name,
        description: args?.description,
        // As an Output: Pulumi's runtime formats plain top-level inputs with `${value}`, which throws
        // for a map holding a setting named `toString`; an Output is formatted without touching it.
        settings: args?.settings === undefined ? undefined : pulumi.output(args.settings),
        importId,
        sameNameAs: sameNameAs(name, args),
        // Declared as undefined so that Pulumi creates Outputs for them.
        roleId: undefined,
        inUse: undefined,
        userCount: undefined,
      },
      opts && rest,
      "grouproles",
      "Role",
    );
  }
}
