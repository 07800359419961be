import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What this deployment has declared and done, as far as this process has seen it.
 *
 * The engine starts one dynamic-provider host per deployment and sends it every Role's and every
 * GroupRoles' Check, Diff, Create, Update and Delete, so module state here is the deployment's shared
 * memory. It lets one resource's operation know what the others are doing, whatever order the engine
 * runs their steps in:
 * - a role that one resource adopted, takes over or keeps must not be deleted by another resource that
 *   lets it go (an entry moved between catalogues, a Role replaced by a GroupRoles entry);
 * - a rename that meets a name still held by a role this deployment renames away or lets go can wait
 *   for it instead of failing (two roles that swap names in separate requests).
 *
 * The engine generates steps one resource at a time (Check, then Diff) and runs them concurrently, and
 * runs the deletes of resources that left the program only after every other step. A GroupRoles
 * update that lets roles go runs beside the steps of resources registered after it, so its deletes
 * first wait until registrations have stopped ({@link DeploymentLedger.quiet}); by then every resource
 * of the program that takes a role over has said so here.
 */
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
}

/** A role let go by a resource, and whether that resource's update started and completed. */
interface Release {
  name: string;
  started: boolean;
  done: boolean;
  committed?: boolean;
  outcome: Promise<boolean>;
  settle(ok: boolean): void;
}

/** How a takeover of a role another resource lets go ends: see {@link DeploymentLedger.awaitRelease}. */
export type ReleaseWait = "taken" | "failed" | "not started";

const key = (groupId: number, roleId: number) => `${groupId}/${roleId}`;

/** A create of an earlier run whose outcome is unknown: the group and name it sent. */
export interface UnconfirmedCreate {
  groupId: number;
  name: string;
}

export class DeploymentLedger {
  /** Roles a create of this deployment adopted (took over instead of making), by `groupId/roleId`. */
  private readonly claimed = new Set<string>();
  /** Roles a create of this deployment made, by `groupId/roleId`. */
  private readonly made = new Set<string>();
  /** Roles of this deployment that exist (Diff or Update saw them), by `groupId/roleId`. */
  private readonly declared = new Map<string, DeclaredRole>();
  /** Unconfirmed creates this deployment replaces, by the group and name the program now declares. */
  private readonly unconfirmed = new Map<string, UnconfirmedCreate>();
  /** Roles a resource of this deployment lets go (removes from its catalogue), by `groupId/roleId`. */
  private readonly released = new Map<string, Release>();
  /** What failed in this deployment (a refused Check, a failed Diff, Create, Update or Delete). */
  private readonly failures: string[] = [];
  private onFailure: () => void = () => undefined;
  /** Resolves at the first failure of this deployment. */
  private readonly failed = new Promise<void>((resolve) => {
    this.onFailure = resolve;
  });
  /** Names some resource of this deployment declares for a role it does not hold yet, by group. */
  private readonly wantedNames = new Map<number, Set<string>>();
  /** Roles some resource of this deployment will take over by ID (the Role `import` input). */
  private readonly wantedIds = new Set<string>();
  /** Deletes sent and not yet answered, by `groupId/roleId`: a takeover must wait for them. */
  private readonly deleting = new Map<string, Promise<unknown>>();
  /**
   * When the last Check or Diff arrived, or an operation finished: the program may still be registering
   * resources (one that waited for that operation's outputs registers right after it).
   */
  private lastActivity = 0;
  /** Operations (create, update, delete) running now, and how many of them wait on this ledger. */
  private running = 0;
  private waiting = 0;
  private waiters: Array<() => void> = [];
  /** Values computed once per deployment and owner (e.g. a client's list of a group), see {@link once}. */
  private readonly memos = new WeakMap<object, Map<string, unknown>>();

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
    this.unconfirmed.set(`${groupId}\u0000${name}`, evidence);
  }

  /** The unconfirmed create that a create of `name` in `groupId` replaces, if any (taken once). */
  takeUnconfirmed(groupId: number, name: string): UnconfirmedCreate | undefined {
    const k = `${groupId}\u0000${name}`;
    const evidence = this.unconfirmed.get(k);
    this.unconfirmed.delete(k);
    return evidence;
  }

  /** Diff or Update of an existing role: the program declares it, renamed or not. */
  declare(groupId: number, roleId: number, role: DeclaredRole): void {
    this.declared.set(key(groupId, roleId), role);
    this.changed();
  }

  declaration(groupId: number, roleId: number): DeclaredRole | undefined {
    return this.declared.get(key(groupId, roleId));
  }

  /** True when another role of the group is to be renamed to `name`. */
  isWanted(groupId: number, name: string, except: number): boolean {
    const prefix = `${groupId}/`;
    for (const [k, role] of this.declared) {
      if (k.startsWith(prefix) && k !== key(groupId, except) && role.plannedName === name && role.currentName !== name)
        return true;
    }
    return false;
  }

  /** A role stepped aside to a temporary name, or its update settled (`settled`): names may be free. */
  renamed(groupId: number, roleId: number, currentName: string, settled = false): void {
    const k = key(groupId, roleId);
    const role = this.declared.get(k);
    if (role) this.declared.set(k, { ...role, currentName, settled });
    this.changed();
  }

  /** The exclusive catalogue of each group: its identity and how to name it in a message. */
  private readonly exclusives = new Map<number, { owner: string; described: string }>();

  /**
   * A catalogue with `exclusive: true` claims its group; returns how the other one is described when
   * another catalogue (another `owner`) claimed it first in this deployment.
   */
  claimExclusive(groupId: number, owner: string, described: string): string | undefined {
    const first = this.exclusives.get(groupId);
    if (first && first.owner !== owner) return first.described;
    this.exclusives.set(groupId, { owner, described });
    return undefined;
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

  /**
   * A resource lets this role go: it leaves that resource's catalogue in this deployment. A resource
   * that takes it over waits for {@link releaseOutcome}: the role is its only once the resource letting
   * it go has applied its change.
   */
  release(groupId: number, roleId: number, name: string): void {
    const k = key(groupId, roleId);
    if (this.released.has(k)) return;
    let settle: (ok: boolean) => void = () => undefined;
    const outcome = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    this.released.set(k, { name, started: false, done: false, outcome, settle });
    this.changed();
  }

  /**
   * Whether the resource letting this role go committed to it (true), gave up (false), or has not
   * decided yet (undefined); true for a role nobody lets go. See {@link settleReleases}.
   */
  releaseCommitted(groupId: number, roleId: number): boolean | undefined {
    const release = this.released.get(key(groupId, roleId));
    return !release ? true : release.done ? release.committed : undefined;
  }

  /** The update of the resource letting these roles go has started. */
  startReleases(groupId: number, roleIds: Iterable<number>): void {
    for (const roleId of roleIds) {
      const release = this.released.get(key(groupId, roleId));
      if (release) release.started = true;
    }
    this.changed();
  }

  /**
   * The resource letting these roles go committed to it (`ok`: its update passed its checks and is
   * about to apply, or its replacement deletes them last), or gave up: takeovers may go on, or not. The
   * first word counts.
   */
  settleReleases(groupId: number, roleIds: Iterable<number>, ok: boolean): void {
    for (const roleId of roleIds) {
      const release = this.released.get(key(groupId, roleId));
      if (!release || release.done) continue;
      release.done = true;
      release.committed = ok;
      release.settle(ok);
    }
    this.changed();
  }

  /**
   * For a resource taking over a role another resource lets go: waits until registrations stop, then
   * for that resource to commit. `taken` once it did (the role may be taken over), `failed` if it or
   * any step of the deployment failed, or `maxMs` passed (the role stays with it), `not started` when
   * its update had not started by then (with `--parallel 1` it cannot run while this one waits).
   */
  async awaitRelease(groupId: number, roleId: number, quietMs: number, maxMs: number): Promise<ReleaseWait> {
    const release = this.released.get(key(groupId, roleId));
    if (!release) return "taken";
    if (release.done) return (await release.outcome) ? "taken" : "failed";
    await this.quiet(quietMs, maxMs);
    if (!release.started && !release.done) return "not started";
    const ok = await this.waitingOn(() =>
      Promise.race([release.outcome, this.failed.then(() => false), delay(maxMs).then(() => false)]),
    );
    return ok ? "taken" : "failed";
  }

  /** An operation of this deployment failed: the engine starts no new step, and moves must not complete. */
  noteFailure(what: string): void {
    this.failures.push(what);
    this.onFailure();
    this.changed();
  }

  /** The first failure of this deployment, if any. */
  get failure(): string | undefined {
    return this.failures[0];
  }

  /** Runs a Check, Diff or operation, noting a failure (an error, or Check failures) in the ledger. */
  async observe<T>(what: string, fn: () => Promise<T>, refused?: (result: T) => boolean): Promise<T> {
    try {
      const result = await fn();
      if (refused?.(result)) this.noteFailure(what);
      return result;
    } catch (error) {
      this.noteFailure(what);
      throw error;
    }
  }

  isReleased(groupId: number, roleId: number): boolean {
    return this.released.has(key(groupId, roleId));
  }

  /**
   * A resource declares `name` for a role it does not hold yet and would take over a role of that name
   * that another resource lets go (a Role create; an entry added to a GroupRoles with adoptExisting).
   */
  wantName(groupId: number, name: string): void {
    let names = this.wantedNames.get(groupId);
    if (!names) {
      names = new Set();
      this.wantedNames.set(groupId, names);
    }
    names.add(name);
    this.changed();
  }

  /** A resource will take this role over by its ID (an import). */
  wantRole(groupId: number, roleId: number): void {
    this.wantedIds.add(key(groupId, roleId));
    this.changed();
  }

  /**
   * True when a resource of this deployment took this role over, or declares it (by ID, or by its name
   * `name` as a role it does not hold yet, with the means to take it over): a resource that lets it go
   * must not delete it. Declarations of roles a resource already holds (Diff's) are no evidence here:
   * the resource being deleted may have made them itself (a refresh before a destroy).
   */
  mayBeTakenOver(groupId: number, roleId: number, name: string): boolean {
    const k = key(groupId, roleId);
    return this.claimed.has(k) || this.wantedIds.has(k) || (this.wantedNames.get(groupId)?.has(name) ?? false);
  }

  /** Records deletes in flight until `sent` settles: a takeover of one of these roles waits for it. */
  noteDeleting(groupId: number, roleIds: readonly number[], sent: Promise<unknown>): void {
    const settled = sent.catch(() => undefined);
    for (const roleId of roleIds) this.deleting.set(key(groupId, roleId), settled);
    void settled.then(() => {
      for (const roleId of roleIds) this.deleting.delete(key(groupId, roleId));
      this.changed();
    });
  }

  isDeleting(groupId: number, roleId: number): boolean {
    return this.deleting.has(key(groupId, roleId));
  }

  /** Resolves once no delete of this role is in flight. */
  async deleteSettled(groupId: number, roleId: number): Promise<void> {
    await this.deleting.get(key(groupId, roleId));
  }

  /** A Check or Diff arrived: the program is registering resources. */
  noteRegistration(): void {
    this.lastActivity = Date.now();
  }

  /** Runs a create, update or delete (or a plugin's import Read), counted as running (see {@link quiet}); a failure is noted. */
  async track<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await fn();
    } catch (error) {
      this.noteFailure((error as Error)?.message ?? String(error));
      throw error;
    } finally {
      this.running--;
      this.lastActivity = Date.now();
      this.changed();
    }
  }

  /** Runs `fn` as a wait on the rest of the deployment: it does not hold {@link quiet} back. */
  async waitingOn<T>(fn: () => Promise<T>): Promise<T> {
    this.waiting++;
    this.changed();
    try {
      return await fn();
    } finally {
      this.waiting--;
    }
  }

  /**
   * Resolves once the program has stopped registering resources: no Check or Diff for `quietMs`, and
   * every other running operation is itself waiting on the ledger (a resource registered later may be
   * waiting for one of ours to finish). Bounded by `maxMs`.
   */
  quiet(quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    return this.waitingOn(async () => {
      for (;;) {
        const now = Date.now();
        const silentFor = now - this.lastActivity;
        // This wait itself runs inside an operation: it is one of `running` and one of `waiting`.
        const busy = this.running - this.waiting > 0;
        if ((silentFor >= quietMs && !busy) || now >= deadline) return;
        await this.nextChange(Math.max(10, Math.min(quietMs - silentFor, deadline - now, quietMs)));
      }
    });
  }

  /** Resolves at the next change (a declaration, a rename, a step aside), or after `ms`. */
  nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  private changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Resolves after `ms` without keeping the process alive. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

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
