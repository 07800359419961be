import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What this deployment has declared and done, as far as this process has seen it.
 *
 * The engine starts one dynamic-provider host per deployment and sends it every Role's Check, Diff,
 * Create, Update and Delete, so module state here is the deployment's shared memory. It lets one
 * resource's operation know what the others are doing: a role that one resource adopted must not be
 * deleted by another resource's delete (a renamed resource that adopted its own role), and a rename that meets a name still held by a role this deployment is renaming away can wait for it
 * instead of failing (two roles that swap names in separate requests).
 */

/** How a role of this deployment is declared: its name now, and the name the program gives it. */
export interface DeclaredRole {
  currentName: string;
  plannedName: string;
  /** Its update has run (and succeeded or failed): its name will not change again in this deployment. */
  settled?: boolean;
}

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
  private waiters: Array<() => void> = [];

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
