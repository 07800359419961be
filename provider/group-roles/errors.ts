/**
 * Errors of GroupRoles operations and their messages: in-use refusals that name every role and the
 * ways out, what an exclusive catalogue removes, and the init error that records a half-done apply.
 * Name conflicts are ./name-errors.
 */
import { usersOf } from "../shared/user-count";
import { NameTakenError, RoleInUseError } from "../../client/status-errors";
import { RoleNotAppliedError } from "../shared/errors";
import type { RoleSummary } from "../../client/types";
import type { GroupRolesState } from "./types";
import { someLines, someNames } from "./name-errors";

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
/** `1 role`, `3 roles`. */
export const roleCount = (n: number): string => `${n} role${n === 1 ? "" : "s"}`;

/** Entries removed from `roles` whose roles are in use: refused in the preview (diff) and again at `up`. */
export function removedInUse(
  groupId: number,
  held: HeldRole[],
  added: ReadonlyArray<{ key: string; entry: { name: string } }> = [],
  exclusive = false,
): RoleInUseError {
  // New entries beside a removed one: most likely a key renamed together with its name, which the
  // provider cannot tell from a removal plus an addition (docs/group-roles.md): that takes two changes.
  const shown = added.slice(0, 3).map((a) => `${a.key} ("${a.entry.name}")`);
  if (added.length > 3) shown.push(`${added.length - 3} more`);
  const renamed = added.length
    ? `\nIf you renamed a key and changed its name in the same change (new entries here: ${shown.join(", ")}), ` +
      "that reads as a removal plus a new role: do it in two changes, first the key with the name kept (the same " +
      "role: its ID and users stay), then the name."
    : "";
  // Said in every registration order (the resource that would take the role may register after this
  // one, so this Diff may not know it): a move needs this resource's `dependsOn` on the receiver.
  const first = held[0] as HeldRole;
  const move =
    "\nTo move it to another resource of this program instead (a `GroupRoles` with `adoptExisting: true` that " +
    `declares its name, or a \`Role\` with \`import: "${groupId}/${first.roleId}"\`), give this GroupRoles the resource ` +
    "option `dependsOn` on that resource: the receiver then takes the role over, with its ID and users, before this " +
    "one lets it go." +
    // An exclusive catalogue removes a role no resource declares: a retained entry cannot leave it (retainedOutOfExclusive).
    (exclusive
      ? ""
      : " Or move it in two steps: mark the entry `retain: true` and run `pulumi up`; then remove it here and " +
        "declare it in the receiver.");
  const release = exclusive
    ? "or, to stop managing the role and keep it in the service, leave `exclusive` off (this GroupRoles removes " +
      "every role of the group that no resource declares), put the entry back with `retain: true`, run `pulumi up`, " +
      "then remove it; `exclusive` stays off while users hold a role no resource declares (turning it on again is " +
      "refused until then)."
    : "or, to stop managing the role and keep it in the service, put the entry back with `retain: true`, run " +
      "`pulumi up`, then remove it.";
  return new RoleInUseError(
    `group ${groupId}: ${roleCount(held.length)} removed from \`roles\` ${held.length === 1 ? "is" : "are"} in use and ` +
      `cannot be deleted; nothing was changed:\n${someLines(held, line)}${renamed}${move}\n` +
      `Otherwise, for each of them: keep the entry in \`roles\`; or unassign its users in the service, then run ` +
      `\`pulumi up\`; ${release}`,
  );
}

/**
 * Entries removed with `retain: true` from an exclusive catalogue while no resource of the program
 * declares their roles: the role would stay in the group undeclared, and the catalogue removes such
 * roles, so the next run would delete it, or, while users hold it, refuse every preview (a platform
 * team followed the in-use advice into that state: issue 53). Refused in the change that leads there.
 */
export function retainedOutOfExclusive(
  groupId: number,
  entries: ReadonlyArray<{ key: string; role: RoleSummary }>,
): RoleInUseError {
  const line = ({ key, role }: { key: string; role: RoleSummary }) =>
    `  roles.${key}: "${role.name}" (roleId ${role.roleId}, ${usersOf(role)})`;
  const first = entries[0]!.role;
  const one = entries.length === 1;
  return new RoleInUseError(
    `group ${groupId}: ${one ? "an entry" : `${entries.length} entries`} marked \`retain: true\` ${one ? "is" : "are"} ` +
      "removed from `roles`, but this GroupRoles has `exclusive: true`: it removes every role of the group that no " +
      `resource of the program declares, so ${one ? "this role" : "these roles"} cannot stay in the service ` +
      "undeclared (the next `pulumi up` would delete a role without users, and every later preview would refuse " +
      `one that users hold); nothing was changed:\n${someLines(entries, line)}\n` +
      "To stop managing a role and keep it in the service, leave `exclusive` off (in this change or before it), " +
      "then remove the entry; `exclusive` then stays off while users hold that role (turning it on again is refused " +
      "until then). To move it to another resource of this program, declare it there in this change (a " +
      `\`Role\` with \`import: "${groupId}/${first.roleId}"\`, or a \`GroupRoles\` with \`adoptExisting: true\`) and give ` +
      "this GroupRoles the resource option `dependsOn` on that resource. Otherwise keep the entry.",
  );
}

/** Roles an exclusive catalogue would remove (not declared by the program) that users hold. */
export function unmanagedInUse(groupId: number, held: readonly RoleSummary[]): RoleInUseError {
  const line = (r: RoleSummary) =>
    `  "${r.name}" (roleId ${r.roleId}) is held by ${users(r.userCount)}, and no resource of this program declares it`;
  return new RoleInUseError(
    `group ${groupId}: this GroupRoles has \`exclusive: true\`, so it removes the roles of the group the program ` +
      `does not declare, and ${roleCount(held.length)} of them ${held.length === 1 ? "is" : "are"} in use; nothing was ` +
      `changed:\n${someLines(held, line)}\nTo proceed, for each of them: declare it (an entry with its name; ` +
      `\`adoptExisting: true\` takes it over); or unassign its users in the service; or leave \`exclusive\` off. ` +
      "If a resource of this program that registers after this catalogue declares it (a Role, another " +
      "GroupRoles), this catalogue cannot see it yet: give this catalogue `dependsOn` on that resource.",
  );
}

/** What an exclusive catalogue removes (or, in a preview, would remove): names, IDs, users. */
export function unmanagedReport(groupId: number, unmanaged: readonly RoleSummary[], done: boolean): string {
  const line = (r: RoleSummary) => `  "${r.name}" (roleId ${r.roleId}, ${usersOf(r)})`;
  return (
    `GroupRoles of group ${groupId} (exclusive): ${roleCount(unmanaged.length)} the program does not declare ` +
    `${done ? (unmanaged.length === 1 ? "was" : "were") : "would be"} removed:\n${someLines(unmanaged, line)}`
  );
}

/** An exclusive catalogue whose `dependsOn` holds resources this run leaves out: it removes nothing (../group-roles/others). */
export function exclusiveHeldBack(groupId: number, absent: readonly string[]): string {
  const one = absent.length === 1;
  return (
    `GroupRoles of group ${groupId} (exclusive): removes no role in this run, since ${someNames(absent, 3)} in its ` +
    `\`dependsOn\` ${one ? "is" : "are"} left out of this deployment (\`--target\`, \`--exclude\`) and ${one ? "its" : "their"} ` +
    "state may record a role of this group under a name or group this change changes; a run that includes " +
    `${one ? "it" : "them"} removes the roles no resource declares.`
  );
}

/** Two exclusive catalogues of one group: each would remove the other's roles. */
export function twoExclusive(groupId: number, other: string): NameTakenError {
  return new NameTakenError(
    `group ${groupId}: another GroupRoles of this program (${other}) also has \`exclusive: true\` for this group; ` +
      "each would remove the roles the other declares. Keep one exclusive catalogue per group: merge them, or " +
      "leave `exclusive` off on one.",
  );
}

/**
 * The delete of a catalogue that would delete roles users hold: in `pulumi destroy`, or in an `up` whose
 * program no longer declares the catalogue (`operation`, from the ledger: the way out differs).
 */
export function destroyInUse(groupId: number, held: HeldRole[], operation: "up" | "destroy"): RoleInUseError {
  const keep =
    operation === "destroy"
      ? // A destroy that runs the program takes the resource's options from it, but its entries from the state (../role/errors).
        "give the resource the option `retainOnDelete: true` and run `pulumi destroy --run-program` again (without " +
        "`--run-program`, run `pulumi up` first); or, to keep only those roles, mark their entries `retain: true`, " +
        "run `pulumi up`, then destroy."
      : "put the resource back in the program with those entries marked `retain: true` (or with the option " +
        "`retainOnDelete: true`), run `pulumi up`, then remove it.";
  return new RoleInUseError(
    `deleting the roles of group ${groupId}: ${roleCount(held.length)} ${held.length === 1 ? "is" : "are"} in use and ` +
      `cannot be deleted; none of its roles was deleted:\n${someLines(held, line)}\n` +
      `To proceed: unassign their users in the service first; or, to keep them in the service, ${keep}`,
  );
}

/** A `groupId` change replaces the resource, which deletes the old group's roles: refused when in use. */
export function replaceInUse(groupId: number, newGroupId: unknown, held: HeldRole[]): RoleInUseError {
  return new RoleInUseError(
    `moving the roles of group ${groupId} to group ${String(newGroupId)} would delete them from group ` +
      `${groupId}, and ${roleCount(held.length)} ${held.length === 1 ? "is" : "are"} in use; nothing was changed:\n` +
      `${someLines(held, line)}\n` +
      `To proceed: unassign their users in group ${groupId} first; or keep those roles in group ${groupId}: mark ` +
      `their entries \`retain: true\`, run \`pulumi up\`, then change groupId.`,
  );
}
