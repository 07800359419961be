import { AsyncLocalStorage } from "node:async_hooks";
import { Declarations, Releases, Wants } from "./declarations";
import { Exclusives } from "./exclusives";
import { GroupView, RegistrationView } from "./group-view";
import { NameRules } from "./name-rules";
import { type Registration, Registrations } from "./registrations";
import { Creates, type UnconfirmedCreate } from "./role-creates";
import { RunState } from "./run-state";

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
 * So every record here carries the `Registration` that made it (./registrations), and:
 * - another registration counts in a decision only when the program's structure orders it first: it is
 *   in this one's `dependsOn` (`orderedBefore`; the SDK then registered this one after that one's
 *   step ended). The order independent registrations arrive in differs between the preview and the `up`;
 * - a case one of two unordered registrations could settle only in one order is refused by whichever of
 *   them comes second, so in every order, with the message naming the `dependsOn` that orders them;
 * - no operation waits for another resource's step.
 *
 * The ledger owns the parts, each a small record with its rules: {@link registrations} (./registrations),
 * {@link run} (./run-state: up or destroy, failures, deletes), {@link creates} (./role-creates: roles
 * made and adopted), {@link declarations}, {@link releases} and {@link wants} (./declarations: roles
 * kept, let go, wanted), {@link exclusives} (./exclusives) and {@link names}, the rules over them
 * (./name-rules: who frees a name, who takes it).
 *
 * A resource reads the parts only through {@link view} (./group-view), declares through ./intent `record`,
 * and notes what its step did through the `note*` operations below; the parts themselves are the ledger's
 * (test/architecture/ledger-view.test.ts).
 */
export class DeploymentLedger {
  readonly creates = new Creates();
  readonly declarations = new Declarations();
  readonly releases = new Releases();
  readonly wants = new Wants();
  readonly exclusives = new Exclusives();
  readonly names = new NameRules(this.declarations, this.releases, this.wants, this.creates);
  readonly registrations = new Registrations((reg) => this.names.replaced(reg));
  readonly run = new RunState(() => {
    if (this.registrations.any) this.forgetRefreshDiffs();
  });
  /** Values computed once per deployment and owner (e.g. a client's list of a group), see {@link once}. */
  private readonly memos = new WeakMap<object, Map<string, unknown>>();

  /** One group's roles as the deployment left them; with `reg`, as that registration weighs them (./group-view). */
  view(groupId: number): GroupView;
  view(groupId: number, reg: Registration): RegistrationView;
  view(groupId: number, reg?: Registration): GroupView {
    return reg ? new RegistrationView(this, groupId, reg) : new GroupView(this, groupId);
  }

  /** A create of this deployment made the role. */
  noteMade(groupId: number, roleId: number): void {
    this.creates.noteMade(groupId, roleId);
  }

  /** A create or import of this deployment took the role over (adopted it): it belongs to that resource now. */
  noteClaimed(groupId: number, roleId: number): void {
    this.creates.claim(groupId, roleId);
  }

  /**
   * A step stepped the role aside to a temporary name, or (`settled`) gave it the name it keeps in this
   * deployment: names it held may be free (./name-rules `freer`, `takerOf`).
   */
  noteName(groupId: number, roleId: number, name: string, settled = false): void {
    this.declarations.renamed(groupId, roleId, name, settled);
  }

  /** A Diff saw a resource whose create was never confirmed; its replacement's create takes it ({@link takeUnconfirmed}). */
  noteUnconfirmed(groupId: number, name: string, evidence: UnconfirmedCreate): void {
    this.creates.noteUnconfirmed(groupId, name, evidence);
  }

  /** The unconfirmed create a create of `name` replaces, if any (taken once). */
  takeUnconfirmed(groupId: number, name: string): UnconfirmedCreate | undefined {
    return this.creates.takeUnconfirmed(groupId, name);
  }

  /**
   * A catalogue with `exclusive: true` claims its group; returns how the other one is described when
   * another catalogue claimed it first in this deployment (./exclusives `claim`).
   */
  claimExclusive(groupId: number, owner: string, described: string, reg?: Registration): string | undefined {
    return this.exclusives.claim(groupId, owner, described, reg);
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

  /** What a refresh's Diffs declared is the state's, not the program's (./run-state `noteProgramCheck`). */
  private forgetRefreshDiffs(): void {
    this.registrations.forget();
    this.declarations.forget();
    this.creates.forgetUnconfirmed();
    this.releases.forget();
    this.wants.forget();
    this.exclusives.forget();
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
