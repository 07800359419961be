/**
 * A role's fields as the SDK types them, written by `npm run schema` from client/role-fields.ts: do
 * not edit (test/architecture/role-fields.test.ts fails when this file differs from what it writes).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RoleSettings } from "./settings";

/** A role's fields as a program declares them: a `Role`'s arguments, an entry of a `GroupRoles`. */
export interface RoleFieldArgs {
  /** Display name: 1 to 70 characters, not blank, unique within the group. Changing it renames the role. */
  name: pulumi.Input<string>;
  /** Text describing the role: at most 255 characters. Omitted means empty. */
  description?: pulumi.Input<string>;
  /**
   * Permission settings: setting name to enabled, e.g. `{ viewVideo: true, remoteAssist: false }`. Only the keys listed
   * are managed; removing a key resets that setting in the service. Key order never matters. A key that looks like a
   * typo of a known setting is refused in preview.
   */
  settings?: pulumi.Input<RoleSettings>;
}

/** A `Role`'s outputs of its fields. */
export interface RoleFieldOutputs {
  /** Display name. */
  readonly name: pulumi.Output<string>;
  /** Description, when one is set. */
  readonly description: pulumi.Output<string | undefined>;
  /** The declared settings keys with the values the service holds (after an import: every setting). */
  readonly settings: pulumi.Output<Record<string, boolean> | undefined>;
}

/** A role's fields as an entry of a `GroupRoles` resource's `roles` output holds them: always present. */
export interface RoleFieldState {
  /** Display name. */
  name: string;
  /** Description (empty when none is set). */
  description: string;
  /** The declared settings keys with the values the service holds (after an import: every setting). */
  settings: Record<string, boolean>;
}
