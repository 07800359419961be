/**
 * `Role` of the `grouproles` plugin (`grouproles:index:Role`): the same inputs, outputs and rules as
 * the dynamic {@link import("../role").Role}, served by the plugin with its provider's configuration.
 * `pulumi import grouproles:index:Role <name> <groupId>/<roleId>` and the `import` option work.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RoleArgs } from "../role";
import { refuseDroppedKeys } from "../dropped-keys";
import { declared, enterGroup } from "../group-order";
import { roleDeclaration, structureInput } from "../structure";
import { withVersion } from "./version";
import { roleFieldProps } from "../role-field-props";
import type { RoleFieldOutputs } from "../role-fields";
import { pluginDeleteGuard, programClaims, withDeleteGuard } from "../delete-guard/hook";

export type { RoleArgs } from "../role";

/** A Role's outputs of the role's fields (../role-fields), which Pulumi sets as it does `declare`d ones. */
export interface Role extends RoleFieldOutputs {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi initializes every output property.
export class Role extends pulumi.CustomResource {
  /** The type token, `grouproles:index:Role`. */
  public static readonly __pulumiType = "grouproles:index:Role";

  /** ID of the group the role belongs to. */
  declare public readonly groupId: pulumi.Output<number>;
  /** ID the service generated for the role. */
  declare public readonly roleId: pulumi.Output<number>;
  /** True when the role is assigned to users. */
  declare public readonly inUse: pulumi.Output<boolean>;
  /** Number of users holding the role. */
  declare public readonly userCount: pulumi.Output<number>;

  /** Reads an existing role by its ID, `"<groupId>/<roleId>"`, without managing it. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, undefined, { ...opts, id });
  }

  /** Returns true if `obj` is a plugin Role (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is Role {
    return pulumi.CustomResource.isInstance(obj) && Reflect.get(obj, "__pulumiType") === Role.__pulumiType;
  }

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions);
  constructor(name: string, args: undefined, opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> });
  constructor(name: string, args: RoleArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    refuseDroppedKeys(args?.settings, "settings", `Role resource '${name}'`);
    const member = enterGroup("Role", name, args?.groupId, false, opts);
    if (args) programClaims().note(Role.__pulumiType, name, { importId: opts?.import }, opts);
    super(
      Role.__pulumiType,
      name,
      {
        groupId: args?.groupId,
        ...roleFieldProps(args),
        __structure: args && structureInput(Role.__pulumiType, name, opts),
        roleId: undefined,
        inUse: undefined,
        userCount: undefined,
      },
      withVersion(withDeleteGuard(opts, args && pluginDeleteGuard(Role.__pulumiType, opts))),
    );
    declared(member, this, opts, args && roleDeclaration(args, this));
  }
}
