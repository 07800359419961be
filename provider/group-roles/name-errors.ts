/**
 * Name conflicts of GroupRoles and their messages: every declared name a role this resource does not
 * manage holds, who holds it, and the ways out; and the helpers that keep a long list short.
 */
import { NameTakenError } from "../../client/status-errors";
import type { Registration } from "../shared/registrations";

/** A declared name that a role this resource does not manage holds. */
export interface NameConflict {
  key: string;
  name: string;
  holderId: number;
  /** True for an entry added in this change (adoptExisting could take the holder over). */
  added: boolean;
  /**
   * Who holds it: nobody this deployment knows (`outside`), another resource of the program that lets
   * it go in this change (`released`: an added entry takes it over with adoptExisting), another resource
   * that keeps it (`program`), an entry this resource removed with `retain: true` (`retained`), a
   * resource registered earlier that frees the name in its step (`wait`: not a refusal; the apply waits
   * for that step, `freedBy`), or one that frees it only after this resource's step could use it
   * (`later`: it registers later, or the role is deleted after every other step).
   */
  kind: "outside" | "released" | "program" | "retained" | "wait" | "later";
  /** For `wait`: the registration whose step frees the name. */
  freedBy?: Registration;
}

const MAX_LINES = 10;

/** Lines for `items`, at most {@link MAX_LINES}, then how many more. */
export function someLines<T>(items: readonly T[], line: (item: T) => string): string {
  const shown = items.slice(0, MAX_LINES).map(line);
  if (items.length > MAX_LINES) shown.push(`  ... and ${items.length - MAX_LINES} more`);
  return shown.join("\n");
}

function conflictLine(c: NameConflict): string {
  const held = `  roles.${c.key}: "${c.name}" is held by roleId ${c.holderId}`;
  switch (c.kind) {
    case "program":
      return `${held}, which another resource of this program (a Role or GroupRoles of the group) declares`;
    case "released":
      return `${held}, which another resource of this program lets go in this change (an entry moved here)`;
    case "retained":
      return `${held}, the role of an entry removed from this resource with \`retain: true\` (kept in the service, no longer managed)`;
    case "wait":
      return `${held}, which ${c.freedBy?.described ?? "another resource of this program"} renames away or deletes in this change, but its change failed`;
    case "later":
      return `${held}, which another resource of this program frees in this change, but nothing orders that before this resource's change (it is not in this resource's \`dependsOn\`, or deletes the role after every other change)`;
    default:
      return `${held}, which this resource does not manage${c.added ? "" : " (a rename cannot take a role over)"}`;
  }
}

/**
 * Said beside names a create's Check finds held by roles the resource does not manage: under
 * `pulumi up --replace` Pulumi sends the replacement a Check without olds and no Diff
 * (step_generator.go `diff`, `isTargetedReplace`), so the holders may be this resource's own roles and
 * the provider cannot tell. Empty when the resource takes held names over already, or none is outside.
 */
export function forcedReplacementHint(conflicts: readonly NameConflict[], adoptExisting: boolean): string {
  if (adoptExisting || !conflicts.some((c) => c.kind === "outside")) return "";
  return (
    " If this is `pulumi up --replace` of this resource, those may be its own roles: Pulumi sends a forced " +
    "replacement no Diff, so the provider cannot tell. Set `adoptExisting: true` on it for that run: the " +
    "replacement then takes its roles over, keeping their IDs and users."
  );
}

/** `"A", "B", "C", "D", "E" and 95 more`: names for a message, never a hundred of them. */
export function someNames(names: readonly string[], max = 5): string {
  const shown = names
    .slice(0, max)
    .map((n) => JSON.stringify(n))
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** How {@link namesTaken} words its refusal. */
export interface NamesTakenContext {
  /** What the refused change did: "nothing was changed" (a refusal before any write) unless a create met them. */
  outcome?: string;
  /** The service's reply that met the names, kept as the error's cause. */
  cause?: unknown;
  /** The resource has `adoptExisting: true` already: advice to set it would not fit. */
  adopts?: boolean;
}

/**
 * Declared names held by roles the resource does not manage: refused before any write (`outcome`
 * says so), or met by a create (`outcome` then says what that request changed).
 */
export function namesTaken(
  groupId: number,
  conflicts: NameConflict[],
  { outcome = "nothing was changed", cause, adopts = false }: NamesTakenContext = {},
): NameTakenError {
  const adoptable =
    !adopts && conflicts.some((c) => c.added && (c.kind === "outside" || c.kind === "released" || c.kind === "later"));
  const advice = [
    adoptable
      ? "To take a role that holds the name of an added entry over and converge it to the program, set " +
        "`adoptExisting: true` on this resource: that is also how an entry moves here from another GroupRoles or " +
        "from a Role of this program in one change (the role keeps its ID and is not deleted; the resource that " +
        "lets it go needs the resource option `dependsOn` on this one)."
      : "",
    conflicts.some((c) => c.kind === "program")
      ? "Role names are unique within a group: declare each role in one resource only; to move a role, remove it " +
        "from the other resource in the same change."
      : "",
    conflicts.some((c) => c.kind === "wait")
      ? "The other resource's change did not free the name: see its error, then run `pulumi up` again."
      : "",
    conflicts.some((c) => c.kind === "later")
      ? "A name another resource frees can be taken only by a resource that depends on it: give this resource " +
        "`dependsOn` on the one that renames or removes the holder; a role a replaced or removed resource deletes " +
        "frees its name only after every change: apply that in two steps."
      : "",
    conflicts.some((c) => c.kind === "outside")
      ? "If a Role or GroupRoles of this program renames or removes that role in this same change, it had not " +
        "registered yet: give this resource `dependsOn` on it, so that this one registers after its change and finds the name free."
      : "",
    // Pulumi tells a provider nothing of a create it recorded as pending (docs/faults.md, "A killed `pulumi up`").
    conflicts.some((c) => c.kind === "outside" && c.added)
      ? "If a `pulumi up` of this stack was interrupted while creating this resource (killed or cancelled: Pulumi " +
        "listed a pending create for it), those are the roles it made: run `pulumi refresh --clear-pending-creates`, " +
        "then one `pulumi up` with `adoptExisting: true` on this resource takes them over (docs/faults.md)."
      : "",
  ].filter(Boolean);
  advice.push(
    `${advice.length ? "Or choose" : "Choose"} other names, or rename or delete those roles in the service first.`,
  );
  return new NameTakenError(
    `group ${groupId} already has ${conflicts.length === 1 ? "a role with a name" : "roles with names"} ` +
      `this resource declares; ${outcome}:\n${someLines(conflicts, conflictLine)}\n${advice.join(" ")}`,
    cause === undefined ? {} : { cause, status: 409 },
  );
}
