/**
 * The before-delete hook's decision, apart from the engine and the service: which roles a delete
 * would take from their users, given the group's roles as the service lists them now.
 */
import type { RoleSummary } from "../../client";
import type { Claims } from "./claims";
import type { Held, HeldRole } from "./held";

/** A role the delete would remove while users hold it. */
export interface Loss {
  key?: string;
  roleId: number;
  name: string;
  /** Undefined when the service says the role is in use without a count. */
  userCount?: number;
}

function live(role: HeldRole, listing: readonly RoleSummary[]): RoleSummary | undefined {
  if (role.roleId !== undefined) return listing.find((r) => r.roleId === role.roleId);
  // A create never confirmed: the role the service holds under its name is the one it would delete.
  return role.name === undefined ? undefined : listing.find((r) => r.name === role.name);
}

/**
 * True when the delete of `held` needs no read of the service: the resource is retained (as its state
 * says: the engine's replacement deletes by the old state's `retainOnDelete`, step.go `DeleteStep.Apply`)
 * or holds no role to delete.
 */
export function leftAlone(held: Held): boolean {
  return held.retainOnDelete || held.roles.length === 0;
}

/**
 * The roles `held` would delete that users hold: none when the resource is retained, and none for a
 * role that is gone or that another resource of the program takes over. A resource the program still
 * declares is deleted by its replacement (`--replace`, `replaceOnChanges`, a replacing change) or by
 * `pulumi destroy --run-program`: its roles count as for a removed one (found by the simulation: a
 * forced replacement sends the provider no Diff, so nothing else refused it in the preview, and the `up`
 * made the new role, then refused the in-use old one's delete), except a create its state never
 * confirmed, which its replacement's create adopts (provider/role/delete.ts `deleteUnconfirmed`).
 */
export function losses(held: Held, claims: Claims, listing: readonly RoleSummary[]): Loss[] {
  if (leftAlone(held)) return [];
  const declared = claims.declares(held.type, held.name);
  const self = [held.type, held.name] as const;
  const lost: Loss[] = [];
  for (const role of held.roles) {
    if (declared && role.roleId === undefined) continue;
    const now = live(role, listing);
    if (now === undefined) continue;
    if (claims.takesOverId(held.groupId, now.roleId, self) || claims.takesOverName(held.groupId, now.name, self))
      continue;
    if (!now.inUse && !(now.userCount !== undefined && now.userCount > 0)) continue;
    lost.push({
      ...(role.key === undefined ? {} : { key: role.key }),
      roleId: now.roleId,
      name: now.name,
      userCount: now.userCount,
    });
  }
  return lost;
}

const users = (n: number | undefined) => (n === undefined ? "users" : n === 1 ? "1 user" : `${n} users`);

/** The refusal: the resource, each role with its ID and users, and every way that works. */
export function refusal(
  held: Held,
  lost: readonly Loss[],
  declared: { declared: boolean; retainsNow?: boolean } = { declared: false },
): string {
  const g = held.groupId;
  const roles = lost
    .map(
      (l) =>
        `${l.key === undefined ? "" : `entry "${l.key}": `}role "${l.name}" (id ${g}/${l.roleId}), held by ${users(l.userCount)}`,
    )
    .join("; ");
  const what = `${lost.length === 1 ? "a role" : `${lost.length} roles`} that users hold: ${roles}.`;
  const never =
    "A role users hold is never deleted, and nothing was changed. To go on: unassign its users in the service; or ";
  if (declared.declared) {
    // The option added in this change: the engine keeps the role in a destroy, not in a replacement.
    const pending = declared.retainsNow
      ? " This program now gives it `retainOnDelete: true`, which this check reads from Pulumi's state, where " +
        "it is not yet: run `pulumi up` first (without `--replace`) to record it, then run this again."
      : "";
    return `${held.label} is being deleted while this program still declares it, which would delete ${what}${pending} ${never}${declaredWays(held)}`;
  }
  const first = lost[0] as Loss;
  const retain =
    held.kind === "Role"
      ? "put the resource back with the `retainOnDelete: true` option, run `pulumi up`, then remove it (Pulumi forgets the role and the service keeps it)"
      : "put the resource back with `retain: true` on those entries (or the `retainOnDelete: true` option), run `pulumi up`, then remove it";
  return (
    `${held.label} would delete ${what} ${never}` +
    `${retain}; or move it to another resource of this program (a \`Role\` with \`import: "${g}/${first.roleId}"\`, ` +
    "or a `GroupRoles` entry of the same name with `adoptExisting: true`); or keep the resource in the program."
  );
}

/**
 * The ways out when the resource is still declared: the hook cannot tell a replacement from a
 * `pulumi destroy --run-program` (the engine hands both the same arguments), so both are named.
 */
function declaredWays(held: Held): string {
  const retain =
    held.kind === "Role"
      ? "the `retainOnDelete: true` option"
      : "`retain: true` on those entries (or the `retainOnDelete: true` option)";
  return (
    "if this is a replacement (`pulumi up --replace`, `replaceOnChanges`, a `groupId` change), make the change without one " +
    "(a new name, description or settings is an update that keeps the role, its ID and its users); or give the " +
    `resource ${retain} and run \`pulumi up\` without the replacement first, so that the replacement or ` +
    "`pulumi destroy --run-program` leaves the role in the service, with its users (this check reads that option " +
    `from the state, where \`pulumi up\` records it); or make Pulumi forget the resource now, keeping its roles: \`pulumi state delete '${held.urn}'\`.`
  );
}
