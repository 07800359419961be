/**
 * What an apply of GroupRoles must do, computed from the state, the program and one list of the
 * group, before anything is written: which roles to delete, update, create or take over, and what the
 * state is before the first write. Everything that would fail half-way and can be known now fails
 * here instead: names held by roles the resource does not manage, removed roles that users hold.
 */
import type { RoleSummary } from "../../client/types";
import { sameSettings } from "../role-settings";
import { userCountOf } from "../user-count";
import { heldRole, namesTaken, removedInUse, type NameConflict } from "./errors";
import type { Renamable } from "./ordering";
import type { EntryInputs, EntryState, GroupRolesInputs, GroupRolesState } from "./types";

/** A role the apply updates (or may update: a role taken over is compared once its settings are read). */
export interface PlannedUpdate extends Renamable {
  key: string;
  currentDescription: string;
  entry: EntryInputs;
  /** The settings keys declared before (null: a role taken over, never written by this resource). */
  previouslyDeclared: Record<string, boolean> | null;
  /** The role's settings must be read (and, when they differ, sent in full). */
  readSettings: boolean;
}

export interface Plan {
  groupId: number;
  /** The state before the first write: what the service holds for every role the apply touches or keeps. */
  start: Record<string, EntryState>;
  deletes: Array<{ key: string; roleId: number }>;
  updates: PlannedUpdate[];
  creates: Array<{ key: string; entry: EntryInputs }>;
  /** Entry keys in the program's order, for the state. */
  order: string[];
}

function listedState(role: RoleSummary, settings: Record<string, boolean>, retain: boolean | undefined): EntryState {
  const state: EntryState = {
    roleId: role.roleId,
    name: role.name,
    description: role.description ?? "",
    settings: { ...settings },
    inUse: role.inUse,
    userCount: userCountOf(role),
  };
  if (retain) state.retain = true;
  return state;
}

/**
 * Plans an apply. A create is the same with an empty state.
 * @throws NameTakenError when declared names are held by roles the resource does not manage.
 * @throws RoleInUseError when roles removed from `roles` are in use.
 */
export function planApply(state: GroupRolesState, inputs: GroupRolesInputs, listed: readonly RoleSummary[]): Plan {
  const { groupId } = inputs;
  const byId = new Map(listed.map((r) => [r.roleId, r]));
  const byName = new Map(listed.map((r) => [r.name, r]));
  const managed = new Set(Object.values(state.roles).map((r) => r.roleId));
  const claimed = new Set<number>();
  const plan: Plan = { groupId, start: {}, deletes: [], updates: [], creates: [], order: Object.keys(inputs.roles) };
  const conflicts: NameConflict[] = [];
  const declared = new Map<number, { key: string; name: string; added: boolean }>();

  const takeOver = (key: string, entry: EntryInputs, role: RoleSummary) => {
    claimed.add(role.roleId);
    declared.set(role.roleId, { key, name: entry.name, added: true });
    plan.start[key] = listedState(role, {}, entry.retain);
    plan.updates.push(update(key, entry, role, null, true));
  };

  for (const [key, entry] of Object.entries(inputs.roles)) {
    const old = state.roles[key];
    const current = old && byId.get(old.roleId);
    if (old && current) {
      declared.set(current.roleId, { key, name: entry.name, added: false });
      plan.start[key] = listedState(current, old.settings ?? {}, entry.retain);
      const settingsChange = !sameSettings(old.settings ?? {}, entry.settings ?? {});
      const u = update(key, entry, current, old.settings ?? {}, settingsChange, old.description);
      if (u.currentName !== u.finalName || u.currentDescription !== (entry.description ?? "") || settingsChange)
        plan.updates.push(u);
      continue;
    }
    // Not held yet: the role an unconfirmed create of an earlier run made (the name it sent is the
    // evidence), a role taken over by name (adoptExisting), or a new one.
    const sent = state.unconfirmed?.[key];
    const made = sent === undefined ? undefined : byName.get(sent);
    const holder = byName.get(entry.name);
    if (made && !managed.has(made.roleId) && !claimed.has(made.roleId)) takeOver(key, entry, made);
    else if (holder && inputs.adoptExisting && !managed.has(holder.roleId) && !claimed.has(holder.roleId))
      takeOver(key, entry, holder);
    else plan.creates.push({ key, entry });
  }

  for (const [key, old] of Object.entries(state.roles)) {
    if (Object.hasOwn(inputs.roles, key) || old.retain) continue; // declared, or forgotten (retain)
    const current = byId.get(old.roleId);
    if (!current || declared.has(current.roleId)) continue; // gone already
    plan.deletes.push({ key, roleId: current.roleId });
    plan.start[key] = listedState(current, old.settings ?? {}, undefined);
  }
  for (const [key, sent] of Object.entries(state.unconfirmed ?? {})) {
    if (Object.hasOwn(inputs.roles, key)) continue;
    // A create of an earlier run that was never confirmed, and is no longer declared: its role goes.
    const made = byName.get(sent);
    if (made && !managed.has(made.roleId) && !claimed.has(made.roleId)) {
      plan.deletes.push({ key, roleId: made.roleId });
      plan.start[key] = listedState(made, {}, undefined);
    }
  }

  // Names at the end of the apply: a declared name must not be one that a role left alone holds.
  const deleted = new Set(plan.deletes.map((d) => d.roleId));
  const untouched = new Map(
    listed.filter((r) => !declared.has(r.roleId) && !deleted.has(r.roleId)).map((r) => [r.name, r]),
  );
  for (const [key, entry] of Object.entries(inputs.roles)) {
    const holder = untouched.get(entry.name);
    if (holder) conflicts.push({ key, name: entry.name, holderId: holder.roleId, added: !state.roles[key] });
  }
  if (conflicts.length) throw namesTaken(groupId, conflicts);

  const held = plan.deletes.flatMap((d) => (byId.get(d.roleId)!.inUse ? [heldRole(d.key, byId.get(d.roleId)!)] : []));
  if (held.length) throw removedInUse(groupId, held);
  return plan;
}

function update(
  key: string,
  entry: EntryInputs,
  current: RoleSummary,
  previouslyDeclared: Record<string, boolean> | null,
  readSettings: boolean,
  knownDescription = "",
): PlannedUpdate {
  return {
    key,
    roleId: current.roleId,
    currentName: current.name,
    finalName: entry.name,
    // A list without descriptions: the one state recorded.
    currentDescription: current.description ?? knownDescription,
    entry,
    previouslyDeclared,
    // A role taken over is read only when the program declares settings for it.
    readSettings: previouslyDeclared === null ? Object.keys(entry.settings ?? {}).length > 0 : readSettings,
  };
}
