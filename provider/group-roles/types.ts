/**
 * The GroupRoles resource's inputs, state and ID as they travel through its dynamic provider. One
 * resource holds a group's whole catalogue of roles, keyed by a stable key of the program's choosing.
 */
import { ConfigurationError } from "../../client/errors";
import { textFieldsOf, type HeldTextFields, type TextFields } from "../../client/role-fields";
import { isUnknown } from "../shared/fields";

/** One declared role: an entry of the `roles` input map (its fields: client/role-fields.ts). */
export interface EntryInputs extends TextFields {
  name: string;
  settings?: Record<string, boolean>;
  /** Removing the entry (or destroying the resource) forgets the role instead of deleting it. */
  retain?: boolean;
}

/** Checked inputs of a GroupRoles resource. */
export type GroupRolesInputs = {
  groupId: number;
  roles: Record<string, EntryInputs>;
  /** Names already held in the group are taken over instead of failing the create. */
  adoptExisting: boolean;
  /** The resource owns the group: roles no resource of the program declares are removed. */
  exclusive: boolean;
};

/**
 * One managed role as state holds it: what the service holds, as far as this provider knows. Every
 * text field is present, `""` when not set (client/role-fields.ts).
 */
export type EntryState = HeldTextFields & {
  /** ID the service generated for the role. */
  roleId: number;
  /** Display name. */
  name: string;
  /** The declared settings keys with the values the service holds (`{}` when none are declared). */
  settings: Record<string, boolean>;
  /** True when the role is assigned to users. */
  inUse: boolean;
  /** Number of users holding the role. */
  userCount: number;
  /** Present (true) when the entry is declared with `retain: true`: it is forgotten, never deleted. */
  retain?: true;
};

/** State of a GroupRoles resource. */
export type GroupRolesState = {
  groupId: number;
  roles: Record<string, EntryState>;
  /**
   * Creates whose outcome is unknown (the reply was lost and the group could not be listed): entry key
   * to the name sent. The evidence that lets the next `pulumi up` adopt such a role instead of making
   * a second one. Absent when empty.
   */
  unconfirmed?: Record<string, string>;
  /**
   * Entries whose role a refresh found renamed outside the program: entry key to the name this resource
   * last gave it (the entry's `name` is then the service's). Keeps the entry's identity when the program
   * moves it to a new key with that name kept (./renamed-keys). Absent when empty; an update drops it.
   */
  appliedNames?: Record<string, string>;
  /** Present (true) when the catalogue owns its group (`exclusive: true`). */
  exclusive?: true;
};

import type { Props, Unchecked } from "../shared/props";

export type { Props };

/** A GroupRoles's inputs as its provider receives them (Check, Diff, create, update): the SDK's `GroupRolesArgs`. */
export type GroupRolesProps = Unchecked<GroupRolesInputs>;
/** A GroupRoles's state as its provider receives it (Diff, update, read, delete): its old outputs. */
export type GroupRolesStateProps = Unchecked<GroupRolesState>;

/** Checked, known inputs as the provider uses them. */
export function toInputs(props: Props): GroupRolesInputs {
  const roles: Record<string, EntryInputs> = {};
  for (const [key, raw] of Object.entries((props.roles ?? {}) as Record<string, Props>)) {
    const entry: EntryInputs = { name: raw.name as string, ...textFieldsOf(raw) };
    if (raw.settings && typeof raw.settings === "object")
      entry.settings = { ...(raw.settings as Record<string, boolean>) };
    if (raw.retain === true) entry.retain = true;
    roles[key] = entry;
  }
  return {
    groupId: props.groupId as number,
    roles,
    adoptExisting: props.adoptExisting === true,
    exclusive: props.exclusive === true,
  };
}

/** The state a provider method received (old outputs), with defaults for what older state lacks. */
export function toState(props: Props): GroupRolesState {
  const roles = (props.roles && typeof props.roles === "object" ? props.roles : {}) as Record<string, EntryState>;
  const unconfirmed = props.unconfirmed as Record<string, string> | undefined;
  const appliedNames = props.appliedNames as Record<string, string> | undefined;
  return {
    groupId: props.groupId as number,
    roles,
    ...(unconfirmed && Object.keys(unconfirmed).length ? { unconfirmed } : {}),
    ...(appliedNames && typeof appliedNames === "object" && Object.keys(appliedNames).length ? { appliedNames } : {}),
    ...(props.exclusive === true ? { exclusive: true as const } : {}),
  };
}

/** True when `roles`, an entry or a field of one is not known yet (preview). */
export function hasUnknowns(roles: unknown): boolean {
  if (isUnknown(roles)) return true;
  if (!roles || typeof roles !== "object") return false;
  return Object.values(roles).some(
    (entry) => isUnknown(entry) || (!!entry && typeof entry === "object" && Object.values(entry).some(isUnknown)),
  );
}

/** The resource ID: the group, `"<groupId>"`. */
export const formatGroupId = (groupId: number): string => String(groupId);

/** Parses a GroupRoles resource ID. */
export function parseGroupId(id: string): number {
  const groupId = /^\d+$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(groupId) || groupId <= 0) {
    throw new ConfigurationError(`invalid GroupRoles ID "${id}": expected "<groupId>", a positive integer, e.g. "42"`);
  }
  return groupId;
}

/**
 * Which catalogue a state is, within one deployment: its group and the IDs of its roles. Two
 * catalogues of a group never hold the same roles, and a refresh and the delete that follows it in one
 * deployment see the same ones: how a catalogue tells its own declarations in the ledger from another's.
 */
export function catalogueOwner(state: GroupRolesState): string {
  const ids = Object.values(state.roles)
    .map((r) => r.roleId)
    .sort((a, b) => a - b);
  return `${state.groupId}:${ids.join(",")}`;
}
