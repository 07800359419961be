/**
 * Errors of GroupRoles operations and their messages: in-use refusals that name every role and the
 * ways out, name conflicts that name every holder, and the init error that records a half-done apply.
 */
import { NameTakenError, RoleInUseError, RoleNotAppliedError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
import type { GroupRolesState } from "./types";

/**
 * An apply that changed the service but did not finish: Pulumi keeps the resource in state with `id`
 * and `properties` (an "init error", a partial create or update), so state records exactly what the
 * service holds and the next `pulumi up` finishes the job. `properties` carry `__provider`, or a later
 * refresh or destroy of the resource could not load the provider.
 */
export class GroupRolesInitError extends RoleNotAppliedError {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: GroupRolesState & { __provider?: unknown },
    readonly reasons: string[],
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}

/** A role of the catalogue that users hold. */
export interface HeldRole {
  key: string;
  name: string;
  roleId: number;
  userCount?: number;
}

/** A listed role that users hold, as the messages name it. */
export const heldRole = (key: string, role: RoleSummary): HeldRole => ({
  key,
  name: role.name,
  roleId: role.roleId,
  ...(role.userCount !== undefined ? { userCount: role.userCount } : {}),
});

const users = (n: number | undefined) => (n === undefined ? "users" : `${n} user${n === 1 ? "" : "s"}`);
const line = (r: HeldRole) => `  roles.${r.key}: "${r.name}" (roleId ${r.roleId}) is held by ${users(r.userCount)}`;
const roles = (n: number) => `${n} role${n === 1 ? "" : "s"}`;

/** Entries removed from `roles` whose roles are in use: refused in the preview (diff) and again at `up`. */
export function removedInUse(groupId: number, held: HeldRole[]): RoleInUseError {
  return new RoleInUseError(
    `group ${groupId}: ${roles(held.length)} removed from \`roles\` ${held.length === 1 ? "is" : "are"} in use and ` +
      `cannot be deleted; nothing was changed:\n${held.map(line).join("\n")}\n` +
      `To proceed, for each of them: keep the entry in \`roles\`; or unassign its users in the service, then run ` +
      `\`pulumi up\`; or, to stop managing the role and keep it in the service, put the entry back with ` +
      `\`retain: true\`, run \`pulumi up\`, then remove it.`,
  );
}

/** A destroy (or the delete of a replaced resource) that would delete roles users hold. */
export function destroyInUse(groupId: number, held: HeldRole[]): RoleInUseError {
  return new RoleInUseError(
    `deleting the roles of group ${groupId}: ${roles(held.length)} ${held.length === 1 ? "is" : "are"} in use and ` +
      `cannot be deleted; nothing was deleted:\n${held.map(line).join("\n")}\n` +
      `To proceed: unassign their users in the service first; or, to keep them in the service, declare those ` +
      `entries with \`retain: true\` (or the resource with the option \`retainOnDelete: true\`), run \`pulumi up\`, ` +
      `then destroy.`,
  );
}

/** A `groupId` change replaces the resource, which deletes the old group's roles: refused when in use. */
export function replaceInUse(groupId: number, newGroupId: unknown, held: HeldRole[]): RoleInUseError {
  return new RoleInUseError(
    `moving the roles of group ${groupId} to group ${String(newGroupId)} would delete them from group ` +
      `${groupId}, and ${roles(held.length)} ${held.length === 1 ? "is" : "are"} in use; nothing was changed:\n` +
      `${held.map(line).join("\n")}\n` +
      `To proceed: unassign their users in group ${groupId} first; or keep those roles in group ${groupId}: mark ` +
      `their entries \`retain: true\`, run \`pulumi up\`, then change groupId.`,
  );
}

/** A declared name that a role this resource does not manage holds. */
export interface NameConflict {
  key: string;
  name: string;
  holderId: number;
  /** True for an entry added in this change (adoptExisting could take the holder over). */
  added: boolean;
}

/** Declared names held by roles the resource does not manage: refused before any write. */
export function namesTaken(groupId: number, conflicts: NameConflict[]): NameTakenError {
  const lines = conflicts.map(
    (c) =>
      `  roles.${c.key}: "${c.name}" is held by roleId ${c.holderId}, which this resource does not manage` +
      (c.added ? "" : " (a rename cannot take a role over)"),
  );
  const adoptable = conflicts.some((c) => c.added);
  return new NameTakenError(
    `group ${groupId} already has ${conflicts.length === 1 ? "a role with a name" : "roles with names"} ` +
      `this resource declares; nothing was changed:\n${lines.join("\n")}\n` +
      (adoptable ? "To take such roles over and converge them to the program, set `adoptExisting: true`. " : "") +
      `Or choose other names, or rename or delete those roles in the service first.`,
  );
}

/** The message of a failed step, with what was done before it. */
export function stepFailed(what: string, error: unknown, done: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${what} failed: ${message}. ${done}`;
}
