/**
 * What an apply of GroupRoles must do, computed from the state, the program, one list of the group and
 * what the other resources of the deployment said they do (../shared/deployment-ledger), before anything is
 * written: which roles to delete, let go, update, create or take over, and what the state is before
 * the first write. Everything that would fail half-way and can be known now is reported here instead:
 * names held by roles the resource does not manage, removed roles that users hold. The preview (./diff)
 * runs the same plan on the preview's list of the group, so that a green preview predicts `up`.
 */
import { changedTextFields, heldTextFields, textFieldsOf, type HeldTextFields } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import { sameSettings } from "../shared/settings";
import { userCountOf } from "../shared/user-count";
import { heldRole } from "./errors";
import { NO_OTHERS, type Holder, type OtherResources, type Plan, type PlannedUpdate } from "./plan-types";
import type { NameConflict } from "./name-errors";
import type { EntryInputs, EntryState, GroupRolesInputs, GroupRolesState } from "./types";
import { renamedKeys } from "./renamed-keys";

/**
 * A role's text fields now: the list's, and where the list shows none (the service's documentation
 * makes `description` optional there) what the state knew (a role the apply leaves alone keeps it).
 */
const textNow = (role: RoleSummary, known: Partial<EntryState> = {}): HeldTextFields =>
  heldTextFields({ ...known, ...textFieldsOf(role) });

/** A role's state from the group's list, `known` being what the state knew of it. */
function listedState(
  role: RoleSummary,
  settings: Record<string, boolean>,
  retain: boolean | undefined,
  known?: EntryState,
): EntryState {
  const state: EntryState = {
    ...textNow(role, known),
    roleId: role.roleId,
    name: role.name,
    settings: { ...settings },
    inUse: role.inUse,
    userCount: userCountOf(role),
  };
  if (retain) state.retain = true;
  return state;
}

/** Plans an apply. A create is the same with an empty state. Never throws: refusals are in the plan. */
export function planApply(
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  listed: readonly RoleSummary[],
  others: OtherResources = NO_OTHERS,
  moved: ReadonlyMap<string, string> = renamedKeys(state, inputs.roles),
): Plan {
  const p = planning(state, inputs, listed, others, moved);
  planDeclared(p);
  planRemoved(p);
  planUnconfirmed(p);
  planConflicts(p);
  const { plan, byId } = p;
  plan.held = plan.deletes.flatMap((d) => (byId.get(d.roleId)?.inUse ? [heldRole(d.key, byId.get(d.roleId)!)] : []));
  if (inputs.exclusive) planExclusive(p);
  return plan;
}

/** What the steps of a plan read, and the plan they fill in. */
interface Planning {
  state: GroupRolesState;
  inputs: GroupRolesInputs;
  listed: readonly RoleSummary[];
  others: OtherResources;
  moved: ReadonlyMap<string, string>;
  byId: Map<number, RoleSummary>;
  byName: Map<string, RoleSummary>;
  /** Roles the state holds. */
  managed: Set<number>;
  /** Old keys of entries only moved to a new key. */
  movedFrom: Set<string>;
  /** Roles taken over by this plan. */
  claimed: Set<number>;
  /** roleId to the key that declares it. */
  declared: Map<number, string>;
  plan: Plan;
}

function planning(
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  listed: readonly RoleSummary[],
  others: OtherResources,
  moved: ReadonlyMap<string, string>,
): Planning {
  return {
    state,
    inputs,
    listed,
    others,
    moved,
    byId: new Map(listed.map((r) => [r.roleId, r])),
    byName: new Map(listed.map((r) => [r.name, r])),
    managed: new Set(Object.values(state.roles).map((r) => r.roleId)),
    movedFrom: new Set(moved.values()),
    claimed: new Set<number>(),
    declared: new Map<number, string>(),
    plan: {
      groupId: inputs.groupId,
      start: {},
      deletes: [],
      letGo: [],
      updates: [],
      creates: [],
      takeovers: [],
      order: Object.keys(inputs.roles),
      conflicts: [],
      held: [],
      exclusive: inputs.exclusive,
      adoptExisting: inputs.adoptExisting,
      unmanaged: [],
      retainedOut: [],
    },
  };
}

/** The declared entries: a role held is updated when it differs; one not held is taken over or created. */
function planDeclared(p: Planning): void {
  const { state, inputs, others, moved, byId, byName, managed, claimed, declared, plan } = p;
  const takeOver = (key: string, entry: EntryInputs, role: RoleSummary) => {
    claimed.add(role.roleId);
    plan.takeovers.push(role.roleId);
    declared.set(role.roleId, key);
    plan.start[key] = listedState(role, {}, entry.retain);
    plan.updates.push(update(key, entry, role, null, true));
  };
  const free = (r: RoleSummary) => {
    const h = others.holder(r.roleId);
    return !managed.has(r.roleId) && !claimed.has(r.roleId) && (h === undefined || h.deferred === true);
  };
  for (const [key, entry] of Object.entries(inputs.roles)) {
    const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
    const current = old && byId.get(old.roleId);
    if (old && current) {
      declared.set(current.roleId, key);
      plan.start[key] = listedState(current, old.settings ?? {}, entry.retain, old);
      const settingsChange = !sameSettings(old.settings ?? {}, entry.settings ?? {});
      const u = update(key, entry, current, old.settings ?? {}, settingsChange, old);
      if (u.currentName !== u.finalName || changedTextFields(u.current, entry).length > 0 || settingsChange)
        plan.updates.push(u);
      continue;
    }
    // Not held yet: the role an unconfirmed create of an earlier run made (the name it sent is the
    // evidence), a role taken over by name (adoptExisting: made by hand, or let go by another resource
    // of this deployment, i.e. moved here), or a new one.
    const sent = state.unconfirmed?.[key];
    const made = sent === undefined ? undefined : byName.get(sent);
    const holder = byName.get(entry.name);
    if (made && free(made)) takeOver(key, entry, made);
    else if (holder && free(holder) && inputs.adoptExisting) takeOver(key, entry, holder);
    else plan.creates.push({ key, entry });
  }
}

/** Entries removed from the program: deleted, or let go when another resource takes their role. */
function planRemoved(p: Planning): void {
  const { state, inputs, others, byId, movedFrom, declared, plan } = p;
  for (const [key, old] of Object.entries(state.roles)) {
    if (Object.hasOwn(inputs.roles, key) || movedFrom.has(key) || old.retain) continue; // declared, or forgotten
    const current = byId.get(old.roleId);
    if (!current || declared.has(current.roleId)) continue; // gone already, or declared again
    // Kept in the state until the apply succeeds: if it fails, the role is still this resource's.
    plan.start[key] = listedState(current, old.settings ?? {}, undefined, old);
    if (others.takes(current.roleId)) plan.letGo.push({ key, roleId: current.roleId });
    else plan.deletes.push({ key, roleId: current.roleId, name: current.name });
  }
}

/** A create of an earlier run that was never confirmed, and is no longer declared: its role goes. */
function planUnconfirmed(p: Planning): void {
  const { state, inputs, others, byName, managed, claimed, plan } = p;
  for (const [key, sent] of Object.entries(state.unconfirmed ?? {})) {
    if (Object.hasOwn(inputs.roles, key)) continue;
    const made = byName.get(sent);
    if (made && !managed.has(made.roleId) && !claimed.has(made.roleId) && others.removable(made.roleId, made.name)) {
      plan.deletes.push({ key, roleId: made.roleId, name: made.name });
      plan.start[key] = listedState(made, {}, undefined);
    }
  }
}

/** Names at the end of the apply: a declared name must not be one that a role left alone holds. */
function planConflicts(p: Planning): void {
  const { state, inputs, listed, others, moved, managed, declared, plan } = p;
  const deleted = new Set(plan.deletes.map((d) => d.roleId));
  const untouched = new Map(
    listed.filter((r) => !declared.has(r.roleId) && !deleted.has(r.roleId)).map((r) => [nameNow(r, others), r]),
  );
  for (const [key, entry] of Object.entries(inputs.roles)) {
    const holder = untouched.get(entry.name);
    if (!holder) continue;
    const added = !state.roles[key] && !moved.has(key);
    const other = others.holder(holder.roleId);
    const kind = managed.has(holder.roleId) ? "retained" : kindOf(other, added);
    plan.conflicts.push({
      key,
      name: entry.name,
      holderId: holder.roleId,
      added,
      kind,
      ...(kind === "wait" && other?.frees ? { freedBy: other.frees } : {}),
    });
  }
}

/**
 * An exclusive catalogue: whatever else the group holds goes (not declared here, not deleted or let go by
 * this plan, not an entry removed with `retain`, not another resource's); entries removed with `retain`
 * that nobody else declares are reported.
 */
function planExclusive(p: Planning): void {
  const { state, inputs, listed, others, byId, managed, movedFrom, declared, plan } = p;
  const deleted = new Set(plan.deletes.map((d) => d.roleId));
  const letGo = new Set(plan.letGo.map((l) => l.roleId));
  plan.unmanaged = listed.filter(
    (r) =>
      !declared.has(r.roleId) &&
      !deleted.has(r.roleId) &&
      !letGo.has(r.roleId) &&
      !managed.has(r.roleId) &&
      others.removable(r.roleId, r.name),
  );
  for (const [key, old] of Object.entries(state.roles)) {
    if (!old.retain || Object.hasOwn(inputs.roles, key) || movedFrom.has(key)) continue;
    const role = byId.get(old.roleId);
    if (role && !declared.has(role.roleId) && others.removable(role.roleId, role.name))
      plan.retainedOut.push({ key, role });
  }
}

/**
 * The name a listed role has now: the list's, unless another resource's update in this deployment has
 * since renamed it. A Diff plans from the deployment's one list of the group
 * (../shared/preview-listing), which predates the updates of resources registered earlier (a
 * `dependsOn` makes this one wait for them).
 */
function nameNow(role: RoleSummary, others: OtherResources): string {
  const kept = others.holder(role.roleId)?.keeps;
  return kept?.settled === true && kept.currentName !== undefined ? kept.currentName : role.name;
}

/**
 * Why a name is held by a role the plan cannot take: an earlier registration frees it in its step
 * (`wait`: renames it away, or, for a rename here, deletes it), or lets it go for an added entry to take
 * over (`released`: with adoptExisting it would), a later registration or the deletes after every step
 * free it (`later`: too late for this step), another resource keeps it (`program`), or nobody here
 * knows the holder (`outside`).
 */
function kindOf(other: Holder | undefined, added: boolean): NameConflict["kind"] {
  if (!other) return "outside";
  if (other.frees) return added && other.by === "delete" ? "released" : "wait";
  if (other.deferred) return added ? "released" : "later";
  return other.later ? "later" : "program";
}

function update(
  key: string,
  entry: EntryInputs,
  current: RoleSummary,
  previouslyDeclared: Record<string, boolean> | null,
  readSettings: boolean,
  known?: EntryState,
): PlannedUpdate {
  return {
    key,
    roleId: current.roleId,
    currentName: current.name,
    finalName: entry.name,
    current: textNow(current, known),
    entry,
    previouslyDeclared,
    // A role taken over is read only when the program declares settings for it.
    readSettings: previouslyDeclared === null ? Object.keys(entry.settings ?? {}).length > 0 : readSettings,
  };
}
