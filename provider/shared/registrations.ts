/**
 * The registrations of a deployment (a Check, then for an existing resource its Diff, and its step), in
 * the order the engine checks them, and the only order between two of them a decision may rest on:
 * the program's structure (./deployment-ledger says why, citing pulumi/pulumi).
 */
import { NO_STRUCTURE, type Structure } from "./structure";

/** One registration of the deployment (a Check, then for an existing resource its Diff) and its step. */
export interface Registration {
  /** Its place in the order the engine checked registrations in (a replacement's second Check is a new one). */
  readonly seq: number;
  /** The resource in words, for messages: `the GroupRoles declaring "A" and "B"`, `Role "X" (id 42/7)`. */
  described: string;
  /** True once its step ended (or it has none: no change, a refused Check or Diff). */
  readonly settled: boolean;
  /** True once settled with success (its step succeeded, or it had none to run). */
  readonly succeeded: boolean;
  /** What the program's structure says of it (its URN, its `dependsOn`): ./structure. */
  readonly structure: Structure;
  /**
   * The engine replaces this resource (a second Check without olds for its URN came after its Diff):
   * what its Diff planned for its roles (renames) does not happen; its old roles go with its delete.
   */
  replaced: boolean;
  /**
   * A replacement of it deletes before it creates: the program's `deleteBeforeReplace` option, else what
   * its provider's Diff asked (step_generator.go `continueStepsFromDiff`).
   */
  readonly deleteBeforeReplace: boolean;
  /** Its Diff asks the engine to delete before it creates, should the resource be replaced. */
  askDeleteBeforeReplace(ask: boolean): void;
  settle(ok: boolean): void;
}

class RegistrationRecord implements Registration {
  settled = false;
  succeeded = false;
  replaced = false;
  private asked = false;

  constructor(
    readonly seq: number,
    public described: string,
    readonly structure: Structure,
  ) {}

  get deleteBeforeReplace(): boolean {
    return this.structure.deleteBeforeReplace ?? this.asked;
  }

  askDeleteBeforeReplace(ask: boolean): void {
    this.asked = ask;
  }

  settle(ok: boolean): void {
    if (this.settled) return;
    this.settled = true;
    this.succeeded = ok;
  }
}

/**
 * True when the program's structure makes `other` register, and its step end, before `reg`: it is in
 * `reg`'s `dependsOn` (directly or through the `dependsOn` of a resource of this package). The only
 * order between two registrations a decision may rest on (docs/design/engine-order.md).
 */
export function orderedBefore(reg: Registration, other: Registration): boolean {
  const urn = other.structure.urn;
  return urn !== undefined && urn !== reg.structure.urn && reg.structure.dependsOn.has(urn);
}

/**
 * True when `reg`'s rename happens in its own step: not when the engine replaces the resource instead
 * (the old role keeps its name until its delete, after every other step), unless `deleteBeforeReplace`
 * deletes the old role first.
 */
export const renamesAway = (reg: Registration): boolean => !reg.replaced || reg.deleteBeforeReplace;

/** The registrations of one deployment, and the names their creates and updates find them by. */
export class Registrations {
  private seq = 0;
  /** The registration whose Check came last: the one the engine is diffing now. */
  private latest?: Registration;
  /** Registrations a Diff has used (see {@link current}). */
  private readonly diffed = new WeakSet<Registration>();
  /** Registrations by URN, the latest for each (see {@link register}). */
  private readonly byUrn = new Map<string, Registration>();

  /** `replaced`: what becomes of the roles a replaced registration declared (./name-rules `replaced`). */
  constructor(private readonly replaced: (reg: Registration) => void) {}

  /**
   * A Check arrived. `replacing`: it has no olds, so for a URN this deployment has already checked it is
   * the engine's second Check of a replacement (step_generator.go `continueStepsFromDiff`, for a
   * replace the provider's Diff asked for or that `replaceOnChanges` made): that earlier registration
   * is {@link Registration.replaced}.
   */
  register(described = "a resource", structure: Structure = NO_STRUCTURE, replacing = false): Registration {
    const reg = new RegistrationRecord(++this.seq, described, structure);
    const urn = structure.urn;
    if (urn !== undefined) {
      const earlier = this.byUrn.get(urn);
      if (earlier && replacing) {
        earlier.replaced = true;
        this.replaced(earlier);
      }
      this.byUrn.set(urn, reg);
    }
    this.latest = reg;
    return reg;
  }

  /** True when the resource of this URN registered (had a Check) in this deployment. */
  has(urn: string): boolean {
    return this.byUrn.has(urn);
  }

  /** True once a registration was opened in this deployment. */
  get any(): boolean {
    return this.seq > 0;
  }

  /**
   * The registration being diffed: the last one checked (the engine diffs right after it checks). A
   * Diff with no Check of its own before it (a provider called directly) opens a registration itself.
   */
  current(): Registration {
    if (!this.latest || this.diffed.has(this.latest)) this.register();
    this.diffed.add(this.latest!);
    return this.latest!;
  }

  /**
   * The registration a create or update runs for: the latest Check of its resource's URN (the step's
   * inputs carry it: ./structure), whose Check and Diff decided what the step does. The engine steps a
   * registration only after its Check (and for an update its Diff), and a replacement's create after its
   * second Check, which {@link register} made the URN's latest. A step without a URN (a provider called
   * without the package's SDKs) is the latest registration's when that one has no URN either and has not
   * settled: the engine hands a step over right after its Check and Diff. Otherwise the step is a
   * registration of its own, which no other resource's decision counted on.
   */
  stepOf(structure: Structure, described: string): Registration {
    const found =
      structure.urn === undefined
        ? this.latest?.structure.urn === undefined
          ? this.latest
          : undefined
        : this.byUrn.get(structure.urn);
    if (found && !found.settled) return found;
    return this.register(described, structure);
  }

  /** Forgets the registrations a refresh's Diffs opened (./run-state `noteProgramCheck`); their count stays. */
  forget(): void {
    this.latest = undefined;
    this.byUrn.clear();
  }
}
