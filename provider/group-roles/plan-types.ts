/**
 * What a plan of GroupRoles holds (./plan computes it, ./apply carries it out, ./plan-report and
 * ./plan-notes say it), and the view of the deployment's other resources it is computed with (./others).
 */
import type { HeldTextFields } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import type { Registration } from "../shared/registrations";
import type { HeldRole } from "./errors";
import type { NameConflict } from "./name-errors";
import type { Renamable } from "./ordering";
import type { EntryInputs, EntryState } from "./types";

/** A role the apply updates (or may update: a role taken over is compared once its settings are read). */
export interface PlannedUpdate extends Renamable {
  key: string;
  /** The role's text fields now: every one goes with a rename to a temporary name, so none is lost. */
  current: HeldTextFields;
  entry: EntryInputs;
  /** The settings keys declared before (null: a role taken over, never written by this resource). */
  previouslyDeclared: Record<string, boolean> | null;
  /** The role's settings must be read (and, when they differ, sent in full). */
  readSettings: boolean;
}

/** What another resource of this deployment does with a role of the group (./others). */
export interface Holder {
  /**
   * It keeps (or took over) the role: the name it gives it when known, whether its update has run,
   * and the name the role has since (after that update, or a step aside).
   */
  keeps?: { plannedName?: string; settled?: boolean; currentName?: string };
  /** An earlier registration frees the role's name in its step (`by` renaming it away, or deleting it). */
  frees?: Registration;
  by?: "rename" | "delete";
  /** A later registration frees it: too late for this one's step. */
  later?: true;
  /** Let go by a resource deleted only after every step (a replaced catalogue): free to take over. */
  deferred?: true;
}

/** What the other resources of this deployment do with the roles of the group (../shared/deployment-ledger). */
export interface OtherResources {
  /** Who else has a hand on this role; undefined when nobody does. */
  holder(roleId: number): Holder | undefined;
  /** A role this resource lets go goes to another resource (handed over, claimed, or kept): forget it, never delete. */
  takes(roleId: number): boolean;
  /** An exclusive catalogue may remove this role that no entry declares: nobody else has a hand on it. */
  removable(roleId: number, name: string): boolean;
}

/** A deployment in which no other resource touches the group. */
export const NO_OTHERS: OtherResources = { holder: () => undefined, takes: () => false, removable: () => true };

export interface Plan {
  groupId: number;
  /** The state before the first write: what the service holds for every role the apply touches or keeps. */
  start: Record<string, EntryState>;
  deletes: Array<{ key: string; roleId: number; name: string }>;
  /**
   * Removed entries whose roles another resource of the deployment takes: forgotten once the apply
   * succeeds, never deleted.
   */
  letGo: Array<{ key: string; roleId: number }>;
  updates: PlannedUpdate[];
  creates: Array<{ key: string; entry: EntryInputs }>;
  /** Roles taken over (adoptExisting, or moved here from another resource): claimed before any write. */
  takeovers: number[];
  /** Entry keys in the program's order, for the state. */
  order: string[];
  /** Declared names held by roles the apply cannot take: `wait` ones are freed by another resource. */
  conflicts: NameConflict[];
  /** Removed roles, to be deleted, that users hold. */
  held: HeldRole[];
  /** The catalogue owns its group (`exclusive`): `unmanaged` are removed too. */
  exclusive: boolean;
  /** The catalogue takes held names over (`adoptExisting`): its refusals advise something else. */
  adoptExisting: boolean;
  /**
   * With `exclusive`: roles of the group that no entry declares and no other resource of the
   * deployment keeps, takes over or wants; they are deleted (refused while users hold them).
   */
  unmanaged: RoleSummary[];
  /**
   * With `exclusive`: entries removed with `retain: true` whose roles no other resource of the
   * deployment declares. Released, they would be the next run's `unmanaged` (deleted, or refused in every
   * later preview while users hold them): refused now (./errors `retainedOutOfExclusive`).
   */
  retainedOut: Array<{ key: string; role: RoleSummary }>;
}
