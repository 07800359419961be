/**
 * `GroupRoles` of the `grouproles` plugin (`grouproles:index:GroupRoles`): the same inputs, outputs
 * and rules as the dynamic {@link import("../group-roles").GroupRoles}. `pulumi import
 * grouproles:index:GroupRoles <name> <groupId>` reads the whole group, each role keyed by its name in
 * lower camel case.
 */
import * as pulumi from "@pulumi/pulumi";
import type { GroupRoleState, GroupRolesArgs } from "../group-roles";
import { refuseDroppedKeys } from "../dropped-keys";
import { declared, enterGroup } from "../group-order";
import { catalogueDeclaration, structureInput } from "../structure";
import { withVersion } from "./version";
import { pluginDeleteGuard, programClaims, withDeleteGuard } from "../delete-guard/hook";

export type { GroupRoleEntry, GroupRoleState, GroupRolesArgs } from "../group-roles";

export class GroupRoles extends pulumi.CustomResource {
  /** The type token, `grouproles:index:GroupRoles`. */
  public static readonly __pulumiType = "grouproles:index:GroupRoles";

  /** ID of the group. */
  declare public readonly groupId: pulumi.Output<number>;
  /** The roles as the service holds them, keyed as declared. */
  declare public readonly roles: pulumi.Output<Record<string, GroupRoleState>>;

  /** Reads a group's whole catalogue by its ID, `"<groupId>"`, without managing it. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): GroupRoles {
    return new GroupRoles(name, undefined, { ...opts, id });
  }

  /** Returns true if `obj` is a plugin GroupRoles (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is GroupRoles {
    return pulumi.CustomResource.isInstance(obj) && Reflect.get(obj, "__pulumiType") === GroupRoles.__pulumiType;
  }

  constructor(name: string, args: GroupRolesArgs, opts?: pulumi.CustomResourceOptions);
  constructor(name: string, args: undefined, opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> });
  constructor(name: string, args: GroupRolesArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    refuseDroppedKeys(args?.roles, "roles", `GroupRoles resource '${name}'`);
    const member = enterGroup("GroupRoles", name, args?.groupId, args?.exclusive, opts);
    if (args) programClaims().note(GroupRoles.__pulumiType, name, args, opts);
    super(
      GroupRoles.__pulumiType,
      name,
      {
        groupId: args?.groupId,
        // As an Output: keys are the program's data (`constructor` is a fine key), never formatted.
        roles: args?.roles === undefined ? undefined : pulumi.output(args.roles),
        adoptExisting: args?.adoptExisting,
        exclusive: args?.exclusive,
        __structure: args && structureInput(GroupRoles.__pulumiType, name, opts),
      },
      withVersion(withDeleteGuard(opts, args && pluginDeleteGuard(GroupRoles.__pulumiType, opts))),
    );
    declared(member, this, opts, args && catalogueDeclaration(args, this));
  }
}
