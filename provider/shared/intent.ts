/**
 * What one registration declares of its group's roles, as data: the typed intent a resource's Check or
 * Diff builds (../role/declaration, ../group-roles/declaration) from its inputs, its state and its
 * structure. {@link refusalsOf} runs the rules of ./registration-order over it against what the
 * registrations before it declared; {@link record} writes it in the deployment's ledger, where later
 * registrations read it. Every resource declares through these two, so one rule holds alike for a Role
 * and a GroupRoles, and no resource writes the ledger's records by hand.
 */
import type { NameTakenError } from "../../client/status-errors";
import type { DeploymentLedger } from "./deployment-ledger";
import { lateDeclare, lateFreeing, lateKeep, lateTakeover, releaseRefusals, releasedName } from "./registration-order";
import type { Registration } from "./registrations";

/** Where a refusal points: its words (`group 42: roles.billing`) and the input it names, if any. */
interface Place {
  at: string;
  property?: string;
}

/** A role the registration holds and keeps; `plannedName` is the name the program gives it (absent: not known yet). */
export interface Kept extends Place {
  kind: "keep";
  roleId: number;
  name: string;
  plannedName?: string;
}

/** A name declared for a role the registration does not hold yet: created, or taken over by name (`adopts`) or by ID (`roleId`, an import). */
export interface Wanted extends Place {
  kind: "want";
  name: string;
  adopts: boolean;
  roleId?: number;
  /** Refused when the group's exclusive catalogue registered first and could not see it (`lateDeclare`). */
  seenByExclusive?: boolean;
  /** Refused when another resource lets a role of this name go (`releasedName`: a Role takes one over only by `import`). */
  notReleased?: boolean;
}

/**
 * A role the registration lets go, deleted in its own update or (`deferred`) after every other step. `checks`:
 * `all` for an entry the program removes (whoever takes it over must be ordered after it and run in this
 * deployment, and nobody may take its name first); `ordered` for a replaced catalogue's roles (a takeover
 * must be ordered); `none` for a replaced Role's role and an exclusive catalogue's removals.
 */
export interface Released extends Place {
  /** What the caller calls it (an entry's key): the handovers {@link record} returns are by this. */
  key: string;
  roleId: number;
  name: string;
  deferred: boolean;
  checks: "all" | "ordered" | "none";
}

export interface Intent {
  groupId: number;
  /** Which kind of resource declares: a resource never deletes a role the other kind keeps. */
  by: "role" | "catalogue";
  /** For a catalogue: which one (../group-roles/types `catalogueOwner`), so that it never mistakes its own records. */
  owner?: string;
  /** The roles it keeps and the names it wants, in the order the program declares them. */
  declares: ReadonlyArray<Kept | Wanted>;
  releases?: readonly Released[];
  /** An exclusive catalogue's removals (its `releases`), decided once: its apply removes no other (./group-view `decidedRemovals`). */
  decidesRemovals?: boolean;
}

/** A refusal, and the input it names. */
export interface Refused {
  error: NameTakenError;
  property?: string;
}

const refused = (place: Place, error: NameTakenError | undefined): Refused[] =>
  error ? [{ error, ...(place.property !== undefined ? { property: place.property } : {}) }] : [];

/** What only another order of registrations could settle in what `intent` keeps and wants, in order. Records nothing. */
export function refusalsOf(ledger: DeploymentLedger, reg: Registration, intent: Intent): Refused[] {
  const { groupId } = intent;
  return intent.declares.flatMap((d) => {
    const at = { ledger, groupId, reg, what: d.at };
    if (d.kind === "keep") {
      const renamed = d.plannedName !== undefined && d.plannedName !== d.name;
      return [...refused(d, lateKeep(at, d)), ...(renamed ? refused(d, lateFreeing(at, d)) : [])];
    }
    return [
      ...(d.seenByExclusive ? refused(d, lateDeclare(at, d.name)) : []),
      ...(d.adopts
        ? refused({ ...d, property: d.roleId !== undefined ? "importId" : d.property }, lateTakeover(at, d))
        : []),
      ...(d.notReleased ? refused(d, releasedName(at, d.name)) : []),
    ];
  });
}

/**
 * Writes `intent` in the ledger: what it keeps (with a known planned name) and wants, then what it lets
 * go, each role once; whether an earlier registration takes a released role over is decided now. Returns
 * the refusals the releases meet, and the released roles another resource takes over (by `key`), with
 * how that resource is named.
 */
export function record(
  ledger: DeploymentLedger,
  reg: Registration,
  intent: Intent,
): { refused: Refused[]; handovers: Map<string, string> } {
  const { groupId, by, owner } = intent;
  for (const d of intent.declares) {
    if (d.kind === "keep") {
      if (d.plannedName === undefined) continue;
      const declared = { currentName: d.name, plannedName: d.plannedName, by, reg };
      ledger.declarations.declare(groupId, d.roleId, owner !== undefined ? { ...declared, owner } : declared);
    } else if (d.roleId !== undefined) ledger.wants.addRole(groupId, d.roleId, reg);
    else ledger.wants.addName(groupId, d.name, reg, d.adopts);
  }
  const found: Refused[] = [];
  const handovers = new Map<string, string>();
  for (const r of intent.releases ?? []) {
    // An entry removed: what this catalogue declared of it in a refresh's Diff no longer holds.
    if (r.checks === "all" && owner !== undefined) ledger.declarations.undeclare(groupId, r.roleId, owner, reg);
    const release = ledger.names.release(groupId, r.roleId, r.name, reg, r.deferred);
    if (release.handedTo) handovers.set(r.key, release.handedTo.described);
    if (r.checks === "none") continue;
    const refusals = releaseRefusals({ ledger, groupId, release, reg, what: r.at }, r.checks);
    found.push(...refusals.flatMap((error) => refused(r, error)));
  }
  if (intent.decidesRemovals) ledger.exclusives.decideRemovals(reg);
  return { refused: found, handovers };
}
