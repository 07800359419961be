import { AsyncLocalStorage } from "node:async_hooks";
import { NO_STRUCTURE, type Structure } from "./structure";

/**
 * What this deployment has declared and done, as far as this process has seen it: the shared memory
 * that lets one resource's operation know what the others do with the roles of a group.
 *
 * The promises across resources rest only on what Pulumi's engine guarantees, never on timing
 * (docs/design/engine-order.md cites each point in pulumi/pulumi):
 * - one provider process serves every resource of the deployment that uses it (the dynamic-provider
 *   host for all dynamic resources; one plugin process per provider instance);
 * - the engine's main loop runs Check, then Diff, for one registration at a time, in the order the
 *   registrations arrive (deploy/deployment_executor.go `handleSingleEvent`, step_generator.go
 *   `GenerateSteps`), and hands the registration's step to a worker before it takes the next one
 *   (step_executor.go `ExecuteSerial`, an unbuffered channel): when a Check runs, every step of an
 *   earlier registration has been taken by a worker and will run without waiting for anything else;
 * - deletes of resources that left the program, and of replaced originals, run only after every other
 *   step has ended (deployment_executor.go `performPostSteps`, under the step executor's lock).
 *
 * So every record here carries the {@link Registration} that made it, and:
 * - another registration counts in a decision only when the program's structure orders it first: it is
 *   in this one's `dependsOn` ({@link orderedBefore}; the SDK then registered this one after that one's
 *   step ended). The order independent registrations arrive in differs between the preview and the `up`;
 * - a case one of two unordered registrations could settle only in one order is refused by whichever of
 *   them comes second, so in every order, with the message naming the `dependsOn` that orders them;
 * - no operation waits for another resource's step.
 */
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

/** How a role of this deployment is declared: its name now, and the name the program gives it. */
export interface DeclaredRole {
  currentName: string;
  plannedName: string;
  /** Its update has run (and succeeded or failed): its name will not change again in this deployment. */
  settled?: boolean;
  /** Which kind of resource declares it: a resource never deletes a role the other kind keeps. */
  by?: "role" | "catalogue";
  /** For a catalogue: which one (see `catalogueOwner`), so that it does not mistake its own declaration. */
  owner?: string;
  /** The registration that declared it. */
  reg?: Registration;
}

/** A role a resource lets go: removed from its catalogue, and deleted unless another resource takes it. */
export interface Release {
  roleId: number;
  name: string;
  reg: Registration;
  /**
   * Deleted only after every other step of the deployment (a replaced catalogue's delete): a resource
   * that registers later may still take it over. Otherwise the resource's own update deletes it.
   */
  deferred: boolean;
  /** The earlier registration that takes it over (decided when it was released, never after). */
  handedTo?: Registration;
}

/** A name or role a registration declares before it holds it. */
export interface Want {
  reg: Registration;
  /** It takes over an existing role of that name or ID (adoptExisting, import); else it creates one. */
  adopts: boolean;
}

const key = (groupId: number, roleId: number) => `${groupId}/${roleId}`;
const nameKey = (groupId: number, name: string) => `${groupId}\u0000${name}`;

/** Roles one delete deleted: which resource (in words), its group, the roles' names. */
export interface Deletion {
  by: string;
  groupId: number;
  names: readonly string[];
}

/** A create of an earlier run whose outcome is unknown: the group and name it sent. */
export interface UnconfirmedCreate {
  groupId: number;
  name: string;
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

export class DeploymentLedger {
  private seq = 0;
  /** The registration whose Check came last: the one the engine is diffing now. */
  private latest?: Registration;
  /** Registrations a Diff has used (see {@link current}). */
  private readonly diffed = new WeakSet<Registration>();
  /** Registrations whose Check or Diff decided what their exclusive catalogue removes (see {@link decideRemovals}). */
  private readonly decided = new WeakSet<Registration>();
  /** Registrations by what their create or update can name them by (see {@link bind}). */
  private readonly registrations = new Map<string, Registration>();
  /** Roles a create of this deployment adopted (took over instead of making), by `groupId/roleId`. */
  private readonly claimed = new Set<string>();
  /** Roles a create of this deployment made, by `groupId/roleId`. */
  private readonly made = new Set<string>();
  /** Roles of this deployment that exist (Diff or Update saw them), by `groupId/roleId`. */
  private readonly declared = new Map<string, DeclaredRole>();
  /** The same, by group and the name the program gives them: `groupId/roleId`s. */
  private readonly byPlannedName = new Map<string, Set<string>>();
  /** Unconfirmed creates this deployment replaces, by the group and name the program now declares. */
  private readonly unconfirmed = new Map<string, UnconfirmedCreate>();
  /** Roles a resource of this deployment lets go, by `groupId/roleId`. */
  private readonly released = new Map<string, Release>();
  /** The same, by group and the name the role had. */
  private readonly releasedByName = new Map<string, Release>();
  /** Names declared for roles a registration does not hold yet, by group and name: the first one. */
  private readonly wantedNames = new Map<string, Want>();
  /** Roles a registration will take over by ID (an import), by `groupId/roleId`. */
  private readonly wantedIds = new Map<string, Want>();
  /** What failed in this deployment (a refused Check, a failed Diff, Create, Update or Delete). */
  private readonly failures: string[] = [];
  /** The exclusive catalogue of each group: its identity and how to name it in a message. */
  private readonly exclusives = new Map<number, { owner: string; described: string; reg?: Registration }>();
  /** Values computed once per deployment and owner (e.g. a client's list of a group), see {@link once}. */
  private readonly memos = new WeakMap<object, Map<string, unknown>>();
  /** A Role's or GroupRoles' Check ran in this deployment: the program runs (see {@link operation}). */
  private programChecked = false;
  /** Roles the deletes of this deployment deleted, by the resource that deleted them. */
  private readonly deleted: Deletion[] = [];
  /** Deletes of this deployment that are running (their requests, not their messages). */
  private readonly deletesRunning = new Set<Promise<unknown>>();

  // ---- registrations -----------------------------------------------------------------------------

  /** Registrations by URN, the latest for each (see {@link register}). */
  private readonly byUrn = new Map<string, Registration>();

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
      if (earlier && replacing) this.replaced(earlier);
      this.byUrn.set(urn, reg);
    }
    this.latest = reg;
    return reg;
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
   * The engine replaces `reg`'s resource: the roles its Diff declared (kept, renamed) are not updated but
   * let go with the old resource, deleted after every other step, or first with `deleteBeforeReplace`.
   */
  private replaced(reg: Registration): void {
    reg.replaced = true;
    for (const [k, d] of [...this.declared]) {
      if (d.reg !== reg) continue;
      const [groupId, roleId] = k.split("/").map(Number) as [number, number];
      this.byPlannedName.get(nameKey(groupId, d.plannedName))?.delete(k);
      this.declared.delete(k);
      this.release(groupId, roleId, d.currentName, reg, !reg.deleteBeforeReplace);
    }
  }

  /** Names `reg` by `name` (e.g. `role:42/7`), so that its create or update finds it (see {@link stepOf}). */
  bind(name: string, reg: Registration): void {
    this.registrations.set(name, reg);
  }

  /**
   * The registration a create or update runs for, by the name its Check or Diff bound it to. A step
   * that none announced (a provider called without Check or Diff) is the latest registration.
   */
  stepOf(name: string, described: string): Registration {
    const found = this.registrations.get(name);
    if (found && !found.settled) return found;
    const reg = this.register(described);
    this.bind(name, reg);
    return reg;
  }

  /** Runs `reg`'s step (a create, update or delete): settles it, and notes a failure. */
  async track<T>(reg: Registration | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      reg?.settle(true);
      return result;
    } catch (error) {
      reg?.settle(false);
      this.noteFailure((error as Error)?.message ?? String(error));
      throw error;
    }
  }

  /** Runs a Check or Diff, noting a failure (an error, or Check failures) and settling `reg` as failed. */
  async observe<T>(
    what: string,
    reg: Registration,
    fn: () => Promise<T>,
    refused?: (result: T) => boolean,
  ): Promise<T> {
    try {
      const result = await fn();
      if (refused?.(result)) {
        reg.settle(false);
        this.noteFailure(what);
      }
      return result;
    } catch (error) {
      reg.settle(false);
      this.noteFailure(what);
      throw error;
    }
  }

  /** An operation of this deployment failed. */
  noteFailure(what: string): void {
    this.failures.push(what);
  }

  /** The first failure of this deployment, if any. */
  get failure(): string | undefined {
    return this.failures[0];
  }

  // ---- what the deletes of this deployment did ---------------------------------------------------

  /**
   * A Role's or GroupRoles' Check arrived: the program runs in this deployment. Diffs before the first
   * Check were a refresh's (`up --refresh` refreshes every resource before the program runs:
   * deployment_executor.go `Execute` calls `refresh` first, and step.go `RefreshStep.Apply` diffs each
   * read resource against its inputs in state, "the diff that a user would see if they immediately ran
   * an `up` on a no-change program"). What they declared is the state's, not the program's, so it is
   * forgotten: a catalogue registered before a Role must not read the Role's role as kept (history 1064).
   */
  noteProgramCheck(): void {
    if (!this.programChecked && this.seq > 0) this.forgetRefreshDiffs();
    this.programChecked = true;
  }

  /** No Check of the program yet: a Diff now is a refresh's (see {@link noteProgramCheck}). */
  get refreshing(): boolean {
    return !this.programChecked;
  }

  private forgetRefreshDiffs(): void {
    this.latest = undefined;
    for (const m of [
      this.byUrn,
      this.registrations,
      this.declared,
      this.byPlannedName,
      this.unconfirmed,
      this.released,
      this.releasedByName,
      this.wantedNames,
      this.wantedIds,
      this.exclusives,
    ])
      m.clear();
  }

  /**
   * `"up"` when a Check of this deployment ran (a preview or up runs the program, and every Check comes
   * before any delete: deployment_executor.go `performPostSteps`), else `"destroy"`: `pulumi destroy`
   * runs no program (nor does `--run-program` check custom resources: step_generator.go skips them in
   * destroy mode), and neither does an `up` whose program declares none of these resources any more,
   * which the messages name as the exception.
   */
  get operation(): "up" | "destroy" {
    return this.programChecked ? "up" : "destroy";
  }

  /** A delete of this deployment deleted these roles. */
  noteDeleted(deletion: Deletion): void {
    if (deletion.names.length) this.deleted.push(deletion);
  }

  /** What the deletes of this deployment deleted so far, in the order they did it. */
  get deletions(): readonly Deletion[] {
    return this.deleted;
  }

  /** Runs a delete's requests, known as running until they end (see {@link otherDeletesEnded}). */
  async runDelete<T>(op: () => Promise<T>): Promise<T> {
    const running = op();
    this.deletesRunning.add(running);
    try {
      return await running;
    } finally {
      this.deletesRunning.delete(running);
    }
  }

  /**
   * Waits until no other delete of this deployment is running (their outcomes, not a clock): what a
   * failed delete reports of the deployment is then all that the deletes the engine started did.
   */
  async otherDeletesEnded(): Promise<void> {
    while (this.deletesRunning.size) await Promise.allSettled([...this.deletesRunning]);
  }

  // ---- roles made and taken over -------------------------------------------------------------------

  /** A create adopted this role: it belongs to that resource now. */
  claim(groupId: number, roleId: number): void {
    this.claimed.add(key(groupId, roleId));
  }

  isClaimed(groupId: number, roleId: number): boolean {
    return this.claimed.has(key(groupId, roleId));
  }

  /** A create made this role. */
  noteMade(groupId: number, roleId: number): void {
    this.made.add(key(groupId, roleId));
  }

  /** True when a create of this deployment made or adopted the role: a lookup by name must not take it. */
  isOfThisDeployment(groupId: number, roleId: number): boolean {
    return this.made.has(key(groupId, roleId)) || this.claimed.has(key(groupId, roleId));
  }

  /** Diff saw a resource whose create was never confirmed; its replacement's create looks here. */
  noteUnconfirmed(groupId: number, name: string, evidence: UnconfirmedCreate): void {
    this.unconfirmed.set(nameKey(groupId, name), evidence);
  }

  /** True when a create of `name` in `groupId` replaces an unconfirmed create (see {@link takeUnconfirmed}). */
  hasUnconfirmed(groupId: number, name: string): boolean {
    return this.unconfirmed.has(nameKey(groupId, name));
  }

  /** The unconfirmed create that a create of `name` in `groupId` replaces, if any (taken once). */
  takeUnconfirmed(groupId: number, name: string): UnconfirmedCreate | undefined {
    const k = nameKey(groupId, name);
    const evidence = this.unconfirmed.get(k);
    this.unconfirmed.delete(k);
    return evidence;
  }

  // ---- roles kept and renamed --------------------------------------------------------------------

  /** Diff or Update of an existing role: the program declares it, renamed or not. */
  declare(groupId: number, roleId: number, role: DeclaredRole): void {
    const k = key(groupId, roleId);
    const before = this.declared.get(k);
    if (before) this.byPlannedName.get(nameKey(groupId, before.plannedName))?.delete(k);
    this.declared.set(k, role);
    const byName = nameKey(groupId, role.plannedName);
    let ids = this.byPlannedName.get(byName);
    if (!ids) {
      ids = new Set();
      this.byPlannedName.set(byName, ids);
    }
    ids.add(k);
  }

  /**
   * A registration before `reg` that gives `name` to a role other than `roleId` in this deployment: a
   * rename onto it (`currentName`, the name that role has now), or a declaration of a role it does not
   * hold yet (`create`: a new role; else one it takes over by that name). A later one waits for `reg`'s
   * step, or is refused in its own Check.
   */
  takerOf(
    groupId: number,
    name: string,
    roleId: number,
    reg: Registration,
  ): { reg: Registration; currentName?: string; create: boolean } | undefined {
    for (const k of this.byPlannedName.get(nameKey(groupId, name)) ?? []) {
      const d = this.declared.get(k);
      if (k === key(groupId, roleId) || !d?.reg || d.reg.seq >= reg.seq || d.currentName === name || d.settled)
        continue;
      return { reg: d.reg, currentName: d.currentName, create: false };
    }
    // A declarer whose step has ended wrote already: nothing of it can run before this one any more.
    const want = this.wantedNames.get(nameKey(groupId, name));
    return want && want.reg.seq < reg.seq && !want.reg.settled ? { reg: want.reg, create: !want.adopts } : undefined;
  }

  /**
   * A catalogue (`owner`) lets this role go: what it declared of the role in another Diff of this
   * deployment (the Diff the engine runs for a refresh, before the program's registrations, in
   * `up --refresh`) no longer holds, and must not read as another resource keeping the role.
   */
  undeclare(groupId: number, roleId: number, owner: string, reg: Registration): void {
    const k = key(groupId, roleId);
    const d = this.declared.get(k);
    if (d?.by !== "catalogue" || d.owner !== owner || d.reg === reg) return;
    this.byPlannedName.get(nameKey(groupId, d.plannedName))?.delete(k);
    this.declared.delete(k);
  }

  declaration(groupId: number, roleId: number): DeclaredRole | undefined {
    return this.declared.get(key(groupId, roleId));
  }

  /** A role stepped aside to a temporary name, or its update settled (`settled`): names may be free. */
  renamed(groupId: number, roleId: number, currentName: string, settled = false): void {
    const k = key(groupId, roleId);
    const role = this.declared.get(k);
    if (role) this.declared.set(k, { ...role, currentName, settled });
  }

  /**
   * A catalogue with `exclusive: true` claims its group; returns how the other one is described when
   * another catalogue (another `owner`) claimed it first in this deployment.
   */
  claimExclusive(groupId: number, owner: string, described: string, reg?: Registration): string | undefined {
    const first = this.exclusives.get(groupId);
    if (first && first.owner !== owner) return first.described;
    this.exclusives.set(groupId, { owner, described, ...(reg ? { reg } : {}) });
    return undefined;
  }

  /**
   * The registration of the group's exclusive catalogue when it came before `reg` (and is not `reg`):
   * its Check or Diff could not see what `reg` declares.
   */
  exclusiveBefore(groupId: number, reg: Registration): Registration | undefined {
    const claim = this.exclusives.get(groupId)?.reg;
    return claim && claim !== reg && claim.seq < reg.seq ? claim : undefined;
  }

  /** `make()` once per deployment, `owner` and `name`: later calls get the first call's value. */
  once<T>(owner: object, name: string, make: () => T): T {
    let byName = this.memos.get(owner);
    if (!byName) {
      byName = new Map();
      this.memos.set(owner, byName);
    }
    if (!byName.has(name)) byName.set(name, make());
    return byName.get(name) as T;
  }

  // ---- roles let go and taken over ----------------------------------------------------------------

  /**
   * `reg` lets this role go. Whether another resource takes it over is decided now, once: by an earlier
   * registration that wants it (by ID, or by its name with the means to take it over). A later one is
   * refused in its own Check or Diff when the role is deleted before it could run (not `deferred`).
   */
  release(groupId: number, roleId: number, name: string, reg: Registration, deferred: boolean): Release {
    const k = key(groupId, roleId);
    const existing = this.released.get(k);
    if (existing) return existing;
    const handedTo = this.adopter(groupId, roleId, name, reg);
    const release: Release = { roleId, name, reg, deferred, ...(handedTo ? { handedTo } : {}) };
    this.released.set(k, release);
    this.releasedByName.set(nameKey(groupId, name), release);
    return release;
  }

  releaseOf(groupId: number, roleId: number): Release | undefined {
    return this.released.get(key(groupId, roleId));
  }

  /**
   * An exclusive catalogue's Check or Diff decided which roles it removes (released by `reg`): its apply
   * removes no other. A catalogue whose step was announced by no Check or Diff decides at apply.
   */
  decideRemovals(reg: Registration): void {
    this.decided.add(reg);
  }

  hasDecidedRemovals(reg: Registration): boolean {
    return this.decided.has(reg);
  }

  /** The release of the role that had `name` in the group, if a registration let one go. */
  releaseNamed(groupId: number, name: string): Release | undefined {
    return this.releasedByName.get(nameKey(groupId, name));
  }

  /** True when some resource lets this role go in this deployment. */
  isReleased(groupId: number, roleId: number): boolean {
    return this.released.has(key(groupId, roleId));
  }

  /**
   * `reg` declares `name` for a role it does not hold yet: it creates it, or (`adopts`) takes over a role
   * of that name (an entry added to a GroupRoles with adoptExisting). The first registration to
   * declare a name keeps it.
   */
  wantName(groupId: number, name: string, reg: Registration, adopts: boolean): void {
    const k = nameKey(groupId, name);
    if (!this.wantedNames.has(k)) this.wantedNames.set(k, { reg, adopts });
  }

  /** `reg` will take this role over by its ID (an import). */
  wantRole(groupId: number, roleId: number, reg: Registration): void {
    const k = key(groupId, roleId);
    if (!this.wantedIds.has(k)) this.wantedIds.set(k, { reg, adopts: true });
  }

  /**
   * The registration in `self`'s `dependsOn` whose step frees the name `name` that this role holds now: it
   * deletes the role in its update (let go, and not to another resource), or renames it away. Its step
   * ended before `self` registered: nothing waits for it.
   */
  freer(groupId: number, roleId: number, name: string, self: Registration): Registration | undefined {
    const release = this.released.get(key(groupId, roleId));
    if (release && release.reg !== self && !release.deferred && !release.handedTo && orderedBefore(self, release.reg))
      return release.reg;
    const declared = this.declared.get(key(groupId, roleId));
    if (!declared?.reg || !orderedBefore(self, declared.reg) || declared.settled || !renamesAway(declared.reg))
      return undefined;
    return declared.plannedName !== name ? declared.reg : undefined;
  }

  /**
   * A registration other than `reg` that takes this role over (by its ID, or by its name with the means
   * to take it over) although `reg` does not hand it over: it is not in `reg`'s `dependsOn`, so its
   * step may run before or after `reg` deletes the role.
   */
  unorderedTaker(groupId: number, roleId: number, name: string, reg: Registration): Registration | undefined {
    const byId = this.wantedIds.get(key(groupId, roleId));
    if (byId && byId.reg !== reg) return byId.reg;
    const byName = this.wantedNames.get(nameKey(groupId, name));
    return byName?.adopts && byName.reg !== reg ? byName.reg : undefined;
  }

  /** Who declared `name` before holding it (see {@link wantName}). */
  wantOf(groupId: number, name: string): Want | undefined {
    return this.wantedNames.get(nameKey(groupId, name));
  }

  /** The registration before `before` that takes this role over: by its ID, or by its name. */
  private adopter(groupId: number, roleId: number, name: string, before: Registration): Registration | undefined {
    const earlier = (want: Want | undefined) => (want && orderedBefore(before, want.reg) ? want.reg : undefined);
    const byName = this.wantedNames.get(nameKey(groupId, name));
    return earlier(this.wantedIds.get(key(groupId, roleId))) ?? (byName?.adopts ? earlier(byName) : undefined);
  }

  /**
   * True when a resource of this deployment took this role over, declares it by ID, or declares its
   * name (to create or adopt a role): a resource that lets it go, or an exclusive catalogue, must not
   * delete it. Declarations of roles a resource already holds (Diff's) are no evidence here: the
   * resource being deleted may have made them itself (a refresh before a destroy).
   */
  mayBeTakenOver(groupId: number, roleId: number, name: string): boolean {
    return (
      this.claimed.has(key(groupId, roleId)) ||
      this.wantedIds.has(key(groupId, roleId)) ||
      this.wantedNames.has(nameKey(groupId, name))
    );
  }
}

let current = new DeploymentLedger();
const scoped = new AsyncLocalStorage<DeploymentLedger>();

/** The ledger of the deployment this process serves. */
export function deploymentLedger(): DeploymentLedger {
  return scoped.getStore() ?? current;
}

/**
 * Starts a new ledger. Test seam: in a provider host one process serves one deployment, but tests
 * call the provider for many "deployments" in one process.
 */
export function resetDeploymentLedger(): void {
  current = new DeploymentLedger();
}

/** Runs `fn` as one deployment with its own ledger. Test seam, for deployments simulated side by side. */
export function inNewDeployment<T>(fn: () => Promise<T>): Promise<T> {
  return scoped.run(new DeploymentLedger(), fn);
}
