/**
 * Errors of Role operations, and their messages. Every error keeps the class (and code) of the failure
 * it reports: an operation adds what it was doing with `withContext` or `rephrase`, so `instanceof
 * NotFoundError` still holds for a role that was not found while deleting it.
 */
import { RoleNotAppliedError } from "../shared/errors";
import { formatRoleId, type RoleOutputs } from "./inputs";

/**
 * A create or update that left the role changed but not as declared: Pulumi keeps the resource in
 * state with `id` and `properties` (an "init error", a partial create or update) and the next
 * `pulumi up` finishes the job. `properties` must carry `__provider`, or a later refresh or destroy of
 * the resource could not load the provider.
 */
export class RoleInitError extends RoleNotAppliedError {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: RoleOutputs & { __provider?: unknown },
    readonly reasons: string[],
  ) {
    super(message);
  }
}

interface InUseRole {
  name: string;
  groupId: number;
  roleId: number;
  userCount?: number;
}

const usersOf = (role: InUseRole) =>
  role.userCount === undefined ? "users" : `${role.userCount} user${role.userCount === 1 ? "" : "s"}`;

/**
 * The message for a role that cannot be deleted because users hold it. In an `up` the resource has left
 * the program, so the ways out are the ones that work from there: `retainOnDelete` applies only to a
 * declared resource, hence "declare it again". In a destroy (../shared/deletions) the program still
 * declares it: the option goes on it as it is. A destroy that runs the program deletes the resource
 * as the program now declares it, options included (step_generator.go of pulumi/pulumi, destroyMode:
 * `sg.toDelete = append(sg.toDelete, new)`, and DeleteStep.Apply skips the provider for
 * `RetainOnDelete`), so no `pulumi up` is needed first. ../shared/deletions adds `pulumi state delete`.
 */
export function inUseDeleteMessage(role: InUseRole, operation: "up" | "destroy" = "up"): string {
  const head =
    `role "${role.name}" (id ${formatRoleId(role.groupId, role.roleId)}) is in use by ${usersOf(role)} and cannot be ` +
    "deleted; it was not deleted. To proceed, unassign its users in the service first.";
  if (operation === "destroy")
    return (
      `${head} To keep the role in the service instead, give its resource the option \`retainOnDelete: true\` and run ` +
      "`pulumi destroy --run-program` again (a destroy that runs the program takes its resource options; without " +
      "`--run-program`, run `pulumi up` first)."
    );
  return (
    `${head} To stop managing the role and keep it, declare it again with the resource option ` +
    "`retainOnDelete: true`, run `pulumi up`, then remove it: Pulumi forgets it and the service keeps it."
  );
}

/**
 * The message for an in-use role whose `groupId` changes: a replacement deletes the role, so it is
 * refused in the preview. `retainOnDelete` and `protect` do not help here (the replacement is refused
 * either way); what works is a new resource beside this one.
 */
export function inUseReplaceMessage(role: InUseRole, newGroupId: unknown): string {
  const id = formatRoleId(role.groupId, role.roleId);
  return (
    `role "${role.name}" (id ${id}) is in use by ${usersOf(role)} and cannot be replaced: moving it to group ` +
    `${String(newGroupId)} would delete it from group ${role.groupId}; nothing was changed. To proceed, unassign its ` +
    `users in group ${role.groupId} first. Or keep it and add a new one: leave this resource in group ` +
    `${role.groupId} with the resource option \`retainOnDelete: true\`, declare another Role resource (a new resource ` +
    `name) in group ${String(newGroupId)}, run \`pulumi up\`, then remove this resource: Pulumi forgets the old role ` +
    `and the service keeps it.`
  );
}
