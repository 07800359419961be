/** What the creates of a deployment did with roles: made them, adopted them, or replace an unconfirmed create. */
import { nameKey, roleKey } from "./declarations";

/** A create of an earlier run whose outcome is unknown: the group and name it sent. */
export interface UnconfirmedCreate {
  groupId: number;
  name: string;
}

export class Creates {
  /** Roles a create of this deployment adopted (took over instead of making), by `groupId/roleId`. */
  private readonly claimed = new Set<string>();
  /** Roles a create of this deployment made, by `groupId/roleId`. */
  private readonly made = new Set<string>();
  /** Unconfirmed creates this deployment replaces, by the group and name the program now declares. */
  private readonly unconfirmed = new Map<string, UnconfirmedCreate>();

  /** A create adopted this role: it belongs to that resource now. */
  claim(groupId: number, roleId: number): void {
    this.claimed.add(roleKey(groupId, roleId));
  }

  isClaimed(groupId: number, roleId: number): boolean {
    return this.claimed.has(roleKey(groupId, roleId));
  }

  /** A create made this role. */
  noteMade(groupId: number, roleId: number): void {
    this.made.add(roleKey(groupId, roleId));
  }

  /** True when a create of this deployment made or adopted the role: a lookup by name must not take it. */
  isOfThisDeployment(groupId: number, roleId: number): boolean {
    return this.made.has(roleKey(groupId, roleId)) || this.claimed.has(roleKey(groupId, roleId));
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

  /** Forgets the unconfirmed creates a refresh's Diffs noted; what creates made and adopted stays. */
  forgetUnconfirmed(): void {
    this.unconfirmed.clear();
  }
}
