/**
 * The state of a GroupRoles apply as it goes: every confirmed write updates it, so that when a step
 * fails the state Pulumi records is what the service holds (the init error's properties), and the
 * next `pulumi up` finishes from there.
 */
import { heldTextFields, textFieldsOf, type HeldTextFields } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import { TEMPORARY_NAME_MARK } from "../shared/temporary-names";
import { userCountOf } from "../shared/user-count";
import type { EntryInputs, EntryState, GroupRolesState } from "./types";

export class Progress {
  private readonly roles: Record<string, EntryState>;
  private readonly unconfirmed: Record<string, string> = {};
  /** Counts of confirmed writes, for messages. */
  readonly done = { deleted: 0, updated: 0, created: 0 };
  /** Confirmed renames to a temporary name (a rotation wider than one PUT): changes too. */
  private asides = 0;

  constructor(
    private readonly groupId: number,
    start: Record<string, EntryState>,
    private readonly order: readonly string[],
    /** The catalogue owns its group (recorded in the state, so that turning it off is a change). */
    private readonly exclusive = false,
  ) {
    this.roles = structuredClone(start);
  }

  /** True once any write was confirmed (or may have been applied). */
  get changedService(): boolean {
    const { deleted, updated, created } = this.done;
    return deleted + updated + created + this.asides > 0 || Object.keys(this.unconfirmed).length > 0;
  }

  entry(key: string): EntryState | undefined {
    return this.roles[key];
  }

  /** A confirmed delete: of an entry's role (`key`), or of a role no entry declared (exclusive). */
  deleted(key: string | undefined): void {
    if (key !== undefined) delete this.roles[key];
    this.done.deleted++;
  }

  /** A confirmed PUT: `settings` are the declared values the role now holds (undefined: unchanged). */
  updated(key: string, name: string, text: HeldTextFields, settings?: Record<string, boolean>): void {
    const role = this.roles[key]!;
    this.roles[key] = { ...role, ...text, name, ...(settings ? { settings: { ...settings } } : {}) };
    this.done.updated++;
  }

  /** A confirmed PUT of a temporary name, which a later PUT replaces with the final one. */
  steppedAside(key: string, temporary: string): void {
    this.roles[key] = { ...this.roles[key]!, name: temporary };
    this.asides++;
  }

  /** The entries whose role holds a temporary name now (as far as confirmed writes and lists tell). */
  temporarilyNamed(): Array<{ key: string; name: string }> {
    return Object.entries(this.roles)
      .filter(([, r]) => r.name.endsWith(TEMPORARY_NAME_MARK))
      .map(([key, r]) => ({ key, name: r.name }));
  }

  /** A removed entry whose role another resource of the deployment took: forgotten, not deleted. */
  letGo(key: string): void {
    delete this.roles[key];
  }

  /** The declared settings a role taken over holds, once read. */
  settingsHeld(key: string, settings: Record<string, boolean>): void {
    this.roles[key] = { ...this.roles[key]!, settings: { ...settings } };
  }

  /** A role a confirmed create made (or that a lost create made, found by its name). */
  created(key: string, entry: EntryInputs, roleId: number, inUse: boolean, userCount: number): void {
    const role: EntryState = {
      ...heldTextFields(entry),
      roleId,
      name: entry.name,
      settings: { ...(entry.settings ?? {}) },
      inUse,
      userCount,
    };
    if (entry.retain) role.retain = true;
    this.roles[key] = role;
    delete this.unconfirmed[key];
    this.done.created++;
  }

  /** A create whose outcome is unknown: the name sent is kept as evidence for the next `pulumi up`. */
  unknownOutcome(key: string, name: string): void {
    this.unconfirmed[key] = name;
  }

  /** In-use figures from a list (created roles whose reply did not settle them). */
  usage(listed: readonly RoleSummary[]): void {
    const byId = new Map(listed.map((r) => [r.roleId, r]));
    for (const role of Object.values(this.roles)) {
      const now = byId.get(role.roleId);
      if (now) Object.assign(role, { inUse: now.inUse, userCount: userCountOf(now) });
    }
  }

  /**
   * After a failed step, what a fresh list shows: roles that are gone leave the state, names and
   * the text fields the list shows are the service's, and an unconfirmed create whose name is now held was made.
   */
  settle(listed: readonly RoleSummary[]): void {
    const byId = new Map(listed.map((r) => [r.roleId, r]));
    const byName = new Map(listed.map((r) => [r.name, r]));
    const known = new Set(Object.values(this.roles).map((r) => r.roleId));
    for (const [key, role] of Object.entries(this.roles)) {
      const now = byId.get(role.roleId);
      if (!now) delete this.roles[key];
      else Object.assign(role, { name: now.name, ...textFieldsOf(now) });
    }
    this.usage(listed);
    for (const [key, sent] of Object.entries(this.unconfirmed)) {
      const made = byName.get(sent);
      if (!made || known.has(made.roleId)) continue;
      this.roles[key] = {
        ...heldTextFields(made),
        roleId: made.roleId,
        name: made.name,
        settings: {},
        inUse: made.inUse,
        userCount: userCountOf(made),
      };
      delete this.unconfirmed[key];
    }
  }

  /** The state: entries in the program's order, then any the apply did not get to delete. */
  snapshot(): GroupRolesState {
    const roles: Record<string, EntryState> = {};
    for (const key of this.order) if (this.roles[key]) roles[key] = this.roles[key]!;
    for (const [key, role] of Object.entries(this.roles)) if (!roles[key]) roles[key] = role;
    return {
      groupId: this.groupId,
      roles,
      ...(Object.keys(this.unconfirmed).length ? { unconfirmed: { ...this.unconfirmed } } : {}),
      ...(this.exclusive ? { exclusive: true as const } : {}),
    };
  }
}
