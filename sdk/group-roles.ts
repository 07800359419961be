/**
 * The GroupRoles resource: a group's whole catalogue of roles as one resource.
 */
import * as pulumi from "@pulumi/pulumi";
// The provider module object itself is the dynamic provider, so Pulumi serializes it as a bare
// `require("pulumi-grouproles/provider/group-roles")` (see ./role.ts for why).
import * as groupRolesProvider from "../provider/group-roles";
import type { EntryState } from "../provider/group-roles/types";
import { checkoutGroupRolesShim, isInstalled } from "./checkout-shim";
import { refuseDroppedKeys } from "./dropped-keys";
import { declared, enterGroup } from "./group-order";
import { catalogueDeclaration, structureInput } from "./structure";
import type { RoleFieldArgs, RoleFieldState } from "./role-fields";
import { defaultDeleteGuard, programClaims, withDeleteGuard } from "./delete-guard/hook";

/** Installed packages serialize as a bare require; a source checkout needs the forwarding shim. */
const provider: pulumi.dynamic.ResourceProvider = isInstalled(__dirname) ? groupRolesProvider : checkoutGroupRolesShim;

/** One role of a {@link GroupRoles} catalogue, as the program declares it: the role's fields (./role-fields). */
export interface GroupRoleEntry extends RoleFieldArgs {
  /**
   * Keep the role in the service when the entry is removed from `roles` (or the resource is
   * destroyed): Pulumi forgets it instead of deleting it, as the `retainOnDelete` option does for a
   * resource. Set it, run `pulumi up`, then remove the entry.
   * @default false
   */
  retain?: pulumi.Input<boolean>;
}

/** The arguments of a {@link GroupRoles}. */
export interface GroupRolesArgs {
  /** ID of the group: a positive integer. Changing it replaces the resource (its roles move). */
  groupId: pulumi.Input<number>;
  /**
   * The group's roles, keyed by a stable key of the program's choosing (`support`, `billing`): the key
   * is the role's identity, so changing an entry's `name` renames that role, and removing an entry
   * deletes its role (refused in the preview while users hold it).
   */
  roles: pulumi.Input<Record<string, pulumi.Input<GroupRoleEntry>>>;
  /**
   * Take over roles that already hold a declared name (made by hand, or by `Role` resources being
   * migrated) and converge them to the program, instead of failing naming their IDs.
   * @default false
   */
  adoptExisting?: pulumi.Input<boolean>;
  /**
   * The resource owns the group: every role of the group that no entry declares (and that no other
   * `GroupRoles` or `Role` of the program declares or takes over) is removed by `pulumi up`, and shown
   * in the preview first; removing one that users hold fails the preview, naming it. Turning it on or
   * off is an update; off removes nothing. One exclusive catalogue per group, declared after every
   * `Role` and `GroupRoles` of its group with each in its `dependsOn` (the program is refused
   * otherwise: only `dependsOn` makes Pulumi register it after them in `up` as in the preview).
   * @default false
   */
  exclusive?: pulumi.Input<boolean>;
}

/** One role of a {@link GroupRoles} as the service holds it (an entry of its `roles` output). */
export type GroupRoleState = RoleFieldState & Omit<EntryState, keyof RoleFieldState>;

/**
 * A group's roles as one resource. Use it when a team manages the group's catalogue as a whole; use
 * {@link Role} for roles declared one by one (see the README, "Role or GroupRoles").
 *
 * @example
 * ```ts
 * import { GroupRoles } from "pulumi-grouproles";
 *
 * const roles = new GroupRoles("support-roles", {
 *   groupId: 42,
 *   roles: {
 *     support: { name: "Support", description: "First-line agents", settings: { viewVideo: true } },
 *     billing: { name: "Billing" },
 *   },
 * });
 * export const supportRoleId = roles.roles.apply((r) => r.support.roleId);
 * ```
 *
 * The preview of a change that removes an entry whose role users hold fails, naming the role; an
 * apply of 1000 roles costs about a dozen requests.
 */
export class GroupRoles extends pulumi.dynamic.Resource {
  /** ID of the group. */
  declare public readonly groupId: pulumi.Output<number>;
  /** The roles as the service holds them, keyed as declared. */
  declare public readonly roles: pulumi.Output<Record<string, GroupRoleState>>;

  /** Returns true if `obj` is a GroupRoles created by this package (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is GroupRoles {
    return pulumi.CustomResource.isInstance(obj) && Reflect.get(obj, "__pulumiType") === GroupRoles.__pulumiType;
  }

  /** The type token, `pulumi-nodejs:dynamic/grouproles:GroupRoles`. */
  public static readonly __pulumiType = "pulumi-nodejs:dynamic/grouproles:GroupRoles";

  /**
   * @param name The unique name of the resource in the program.
   * @param args The group, its roles and whether to take over existing ones.
   * @param opts Resource options (`protect`, `retainOnDelete`, `ignoreChanges`, ...).
   */
  constructor(name: string, args: GroupRolesArgs, opts?: pulumi.CustomResourceOptions) {
    refuseDroppedKeys(args.roles, "roles", `GroupRoles resource '${name}'`);
    const member = enterGroup("GroupRoles", name, args.groupId, args.exclusive, opts);
    programClaims().note(GroupRoles.__pulumiType, name, args, opts);
    super(
      provider,
      name,
      {
        groupId: args.groupId,
        // As an Output: Pulumi's runtime formats plain top-level inputs with `${value}`, which throws
        // for a map holding a setting named `toString`; an Output is formatted without touching it.
        roles: pulumi.output(args.roles),
        adoptExisting: args.adoptExisting,
        exclusive: args.exclusive,
        __structure: structureInput(GroupRoles.__pulumiType, name, opts),
      },
      // A removed catalogue whose roles users hold fails the preview (./delete-guard).
      withDeleteGuard(opts, defaultDeleteGuard()),
      "grouproles",
      "GroupRoles",
    );
    declared(member, this, opts, catalogueDeclaration(args, this));
  }
}
