/**
 * What the two `Role` classes share, the dynamic one (./role) and the plugin's (./package/role): their
 * outputs, the checks before they register and the inputs they send, and what they record after, so
 * that both follow the same rules and differ only in what serves them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { programClaims } from "./delete-guard/hook";
import { refuseDroppedKeys } from "./dropped-keys";
import { declared, enterGroup } from "./group-order";
import { roleFieldProps } from "./role-field-props";
import type { RoleFieldArgs, RoleFieldOutputs } from "./role-fields";
import { roleDeclaration, structureInput } from "./structure";

/** The arguments of a `Role`: its group and the role's fields (./role-fields). */
export interface RoleArgs extends RoleFieldArgs {
  /** ID of the group the role belongs to: a positive integer. Changing it replaces the role. */
  groupId: pulumi.Input<number>;
}

/** A `Role`'s outputs, which Pulumi sets as it does `declare`d properties. */
export interface RoleOutputs extends RoleFieldOutputs {
  /** ID of the group the role belongs to. */
  readonly groupId: pulumi.Output<number>;
  /** ID the service generated for the role. */
  readonly roleId: pulumi.Output<number>;
  /** True when the role is assigned to users. */
  readonly inUse: pulumi.Output<boolean>;
  /** Number of users holding the role. */
  readonly userCount: pulumi.Output<number>;
}

/** True when `obj` is a resource of this type token (also across copies of the package). */
export const isResourceOf = (obj: unknown, type: string, base: (o: unknown) => boolean): boolean =>
  base(obj) && Reflect.get(obj as object, "__pulumiType") === type;

/**
 * Before a `Role` of type `type` registers: refuses what cannot work (settings keys the SDK would drop,
 * an order its group's exclusive catalogue cannot see), notes what the program claims for the delete
 * guard, and returns the inputs both kinds send (the resource's own come on top), and `registered`, to
 * call with the resource once it exists.
 */
export function roleRegistration(
  type: string,
  name: string,
  args: RoleArgs | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
  importId: pulumi.Input<pulumi.ID> | undefined,
): { inputs: Record<string, unknown>; registered: (resource: pulumi.Resource & Pick<RoleOutputs, "roleId">) => void } {
  refuseDroppedKeys(args?.settings, "settings", `Role resource '${name}'`);
  const member = enterGroup("Role", name, args?.groupId, false, opts);
  if (args) programClaims().note(type, name, { importId }, opts);
  return {
    inputs: {
      groupId: args?.groupId,
      ...roleFieldProps(args),
      __structure: args && structureInput(type, name, opts),
      // Declared as undefined so that Pulumi creates Outputs for them.
      roleId: undefined,
      inUse: undefined,
      userCount: undefined,
    },
    registered: (resource) => declared(member, resource, opts, args && roleDeclaration(args, resource)),
  };
}
