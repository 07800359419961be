/**
 * `Role` of the `grouproles` plugin (`grouproles:index:Role`): the same inputs, outputs and rules as
 * the dynamic {@link import("../role").Role} (../role-resource), served by the plugin with its provider's
 * configuration. `pulumi import grouproles:index:Role <name> <groupId>/<roleId>` and the `import` option work.
 */
import * as pulumi from "@pulumi/pulumi";
import { pluginDeleteGuard, withDeleteGuard } from "../delete-guard/hook";
import { type RoleArgs, type RoleOutputs, isResourceOf, roleRegistration } from "../role-resource";
import { withVersion } from "./version";

export type { RoleArgs } from "../role-resource";

/** A Role's outputs (../role-resource), which Pulumi sets as it does `declare`d ones. */
export interface Role extends RoleOutputs {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi initializes every output property.
export class Role extends pulumi.CustomResource {
  /** The type token, `grouproles:index:Role`. */
  public static readonly __pulumiType = "grouproles:index:Role";

  /** Reads an existing role by its ID, `"<groupId>/<roleId>"`, without managing it. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, undefined, { ...opts, id });
  }

  /** Returns true if `obj` is a plugin Role (also across copies of the package). */
  public static override isInstance(obj: unknown): obj is Role {
    return isResourceOf(obj, Role.__pulumiType, pulumi.CustomResource.isInstance);
  }

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions);
  constructor(name: string, args: undefined, opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> });
  constructor(name: string, args: RoleArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    const role = roleRegistration(Role.__pulumiType, name, args, opts, opts?.import);
    super(
      Role.__pulumiType,
      name,
      role.inputs,
      withVersion(withDeleteGuard(opts, args && pluginDeleteGuard(Role.__pulumiType, opts))),
    );
    role.registered(this);
  }
}
