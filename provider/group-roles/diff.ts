/**
 * `diff` of GroupRoles: per entry, settings compared as maps, a changed key with the same name the same
 * role (./plan `renamedKeys`), and no request for a no-op. A change runs the apply's own plan (./plan)
 * on the preview's one list of the group (shared with the credential check), so that what `up` would
 * refuse fails here: removed roles that users hold (Pulumi never asks a provider about a resource that
 * left the program, but this resource sees its whole catalogue), and names held by roles it cannot
 * take. It also tells the deployment's ledger which roles this resource keeps, lets go and wants, so
 * that other resources neither delete nor duplicate them.
 */
import type { NameTakenError } from "../../client/status-errors";
import type { RoleSummary } from "../../client/types";
import { credentialRefusal, previewListing } from "../shared/preview-listing";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import {
  allRefusals,
  lateDeclare,
  lateFreeing,
  lateKeep,
  absentTaker,
  lateTakeover,
  unorderedTakeover,
} from "../shared/registration-order";
import { diffRegistration } from "../shared/resource-protocol";
import { isGroupGone } from "../shared/gone";
import { inContext } from "../shared/errors";
import { isUnknown } from "../shared/fields";
import { programName } from "../shared/structure";
import { engineLog } from "../shared/engine-log";
import {
  heldRole,
  namesTaken,
  removedInUse,
  retainedOutOfExclusive,
  replaceInUse,
  twoExclusive,
  unmanagedInUse,
  unmanagedReport,
} from "./errors";
import { noteHeldBack, noteKept, notePlan } from "./plan-notes";
import { describeCatalogue, describeEntries } from "./describe";
import { entryChanged, reportChanges, type EntryChange } from "./changed-keys";
import { otherResources } from "./others";
import { planApply, type Plan } from "./plan";
import { renamedKeys } from "./renamed-keys";
import {
  catalogueOwner,
  hasUnknowns,
  parseGroupId,
  toInputs,
  toState,
  type GroupRolesState,
  type Props,
} from "./types";

export interface GroupRolesDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The top-level inputs that change (the engine matches `replaceOnChanges` against these). */
  diffs?: string[];
  /** Per entry (`roles.<key>`): what happens to it; the plugin sends it, the dynamic host cannot. */
  detailedDiff?: Record<string, EntryChange>;
}

/**
 * The group's roles as the preview sees them ([] when the service says the group is gone and nothing is
 * to be written there; when `writes`, that group refuses the change, as the `up` would meet its 404).
 */
async function listedForPreview(groupId: number, what: string, writes: boolean): Promise<RoleSummary[]> {
  // A refused credential, or an address that cannot work (a 404 that proves nothing among them).
  const refusal = await credentialRefusal(groupId, what, writes);
  if (refusal) throw refusal;
  const { roles, error } = await previewListing(groupId);
  if (roles) return roles;
  if (isGroupGone(error)) return [];
  throw inContext(error, what);
}

/** What turning `exclusive` on or off does, for the preview beside its `[diff: ~exclusive]`. */
const exclusiveNote = (groupId: number, on: boolean): string =>
  on
    ? `GroupRoles of group ${groupId}: \`exclusive\` turns on: from this change on, this catalogue removes the roles ` +
      "of its group that no resource of the program declares (those it would remove now are listed with the plan)."
    : `GroupRoles of group ${groupId}: \`exclusive\` turns off: this catalogue no longer removes roles of its group ` +
      "that no resource declares; nothing is removed by this change.";

/** What `up` would refuse in this plan, first the names, then the roles users hold. */
function refusalOf(plan: Plan): Error | undefined {
  const taken = plan.conflicts.filter((c) => c.kind !== "wait");
  if (taken.length) return namesTaken(plan.groupId, taken, { adopts: plan.adoptExisting });
  if (plan.held.length) return removedInUse(plan.groupId, plan.held, plan.creates, plan.exclusive);
  if (plan.retainedOut.length) return retainedOutOfExclusive(plan.groupId, plan.retainedOut);
  return undefined;
}

/**
 * Tells the ledger what this resource does with its group's roles: keeps (with the name it plans),
 * lets go (removed entries, deleted in its update unless an earlier registration takes them over),
 * and declares for roles it does not hold yet (entries added: created, or with adoptExisting taken
 * over). Refuses what only the registration order could settle (../shared/registration-order).
 */
function record(
  groupId: number,
  state: GroupRolesState,
  roles: Props,
  adopts: boolean,
  reg: Registration,
): Map<string, string> {
  const ledger = deploymentLedger();
  const moved = renamedKeys(state, roles);
  // Once per diff: it sorts every role ID of the catalogue.
  const owner = catalogueOwner(state);
  const kept = new Set<string>();
  const refusals: Array<NameTakenError | undefined> = [];
  const refuse = (refusal: NameTakenError | undefined) => void refusals.push(refusal);
  for (const [key, entry] of Object.entries(roles)) {
    const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
    const name = entry && typeof entry === "object" ? (entry as Props).name : undefined;
    const what = `group ${groupId}: roles.${key}`;
    if (old) {
      kept.add(state.roles[key] ? key : moved.get(key)!);
      refuse(lateKeep(ledger, groupId, old, reg, what));
      if (typeof name !== "string") continue;
      if (name !== old.name)
        refuse(lateFreeing(ledger, groupId, { name: old.name, roleId: old.roleId, plannedName: name }, reg, what));
      ledger.declarations.declare(groupId, old.roleId, {
        currentName: old.name,
        plannedName: name,
        by: "catalogue",
        owner,
        reg,
      });
    } else if (typeof name === "string") {
      refuse(lateDeclare(ledger, groupId, name, reg, what));
      if (adopts) refuse(lateTakeover(ledger, groupId, { name }, reg, what));
      ledger.wants.addName(groupId, name, reg, adopts);
    }
  }
  /** Removed keys another resource takes over, and how that resource is named. */
  const handovers = new Map<string, string>();
  for (const [key, old] of Object.entries(state.roles)) {
    if (kept.has(key) || old.retain) continue; // kept, or forgotten (never deleted)
    ledger.declarations.undeclare(groupId, old.roleId, owner, reg);
    const release = ledger.names.release(groupId, old.roleId, old.name, reg, false);
    if (release.handedTo) handovers.set(key, release.handedTo.described);
    else {
      const what = `group ${groupId}: roles.${key}`;
      const unordered = unorderedTakeover(ledger, groupId, release, reg, what);
      refuse(unordered);
      refuse(absentTaker(ledger, groupId, release, reg, what));
      // A role another resource takes over is not its name taken "for another role": one refusal, one advice.
      if (!unordered) refuse(lateFreeing(ledger, groupId, { name: old.name, roleId: old.roleId }, reg, what));
    }
  }
  const refused = allRefusals(refusals);
  if (refused) throw refused;
  return handovers;
}

/** A groupId change replaces the resource: roles are created in the new group and deleted from the old. */
async function diffReplacement(groupId: number, state: GroupRolesState, news: Props, reg: Registration): Promise<void> {
  const ledger = deploymentLedger();
  // The replaced resource's delete runs after every other step and leaves what another resource took
  // over since: these roles may move to a resource registered before or after this one.
  const late: Array<NameTakenError | undefined> = [];
  for (const [key, old] of Object.entries(state.roles)) {
    if (old.retain) continue;
    const release = ledger.names.release(groupId, old.roleId, old.name, reg, !reg.deleteBeforeReplace);
    late.push(unorderedTakeover(ledger, groupId, release, reg, `group ${groupId}: roles.${key}`));
  }
  const deleted = Object.entries(state.roles).filter(([, r]) => !r.retain);
  if (deleted.length) {
    const listed = await listedForPreview(
      groupId,
      `moving the roles of group ${groupId}: checking whether they are in use`,
      false,
    );
    const byId = new Map(listed.map((r) => [r.roleId, r]));
    const held = deleted.flatMap(([key, r]) => (byId.get(r.roleId)?.inUse ? [heldRole(key, byId.get(r.roleId)!)] : []));
    if (held.length) throw replaceInUse(groupId, news.groupId, held);
  }
  const newGroup = news.groupId as number;
  const roles = news.roles;
  if (isUnknown(roles) || hasUnknowns(roles) || !roles || typeof roles !== "object") {
    const refusal = await credentialRefusal(newGroup);
    if (refusal) throw refusal;
    return;
  }
  for (const [key, entry] of Object.entries(roles as Props)) {
    const name = (entry as Props | undefined)?.name;
    if (typeof name !== "string") continue;
    if (news.adoptExisting === true)
      late.push(lateTakeover(ledger, newGroup, { name }, reg, `group ${newGroup}: roles.${key}`));
    ledger.wants.addName(newGroup, name, reg, news.adoptExisting === true);
  }
  const lateRefusal = allRefusals(late);
  if (lateRefusal) throw lateRefusal;
  const listed = await listedForPreview(newGroup, `moving the roles to group ${newGroup}: listing it`, true);
  const inputs = toInputs({ ...news, groupId: newGroup });
  const refusal = refusalOf(
    planApply({ groupId: newGroup, roles: {} }, inputs, listed, otherResources(ledger, newGroup, reg, "diff")),
  );
  if (refusal) throw refusal;
}

const CHANGED: GroupRolesDiff = { changes: true, replaces: [], deleteBeforeReplace: false };

export async function diff(id: string, olds: Props, news: Props): Promise<GroupRolesDiff> {
  const groupId = parseGroupId(id);
  const state = toState(olds);
  const result = await diffRegistration(
    `diff of the GroupRoles of group ${groupId}`,
    describeCatalogue(groupId, news.roles, programName(news)),
    `catalogue:${catalogueOwner(state)}`,
    (reg) => diffOf(groupId, state, news, reg),
    CHANGED,
  );
  return result.changes ? { ...result, ...reportChanges(state, news, result.replaces.length > 0) } : result;
}

async function diffOf(
  groupId: number,
  state: GroupRolesState,
  news: Props,
  reg: Registration,
): Promise<GroupRolesDiff> {
  if (isUnknown(news.groupId) || news.groupId !== groupId) {
    if (!isUnknown(news.groupId)) await diffReplacement(groupId, state, news, reg);
    return { changes: true, replaces: ["groupId"], deleteBeforeReplace: false };
  }
  const roles = news.roles;
  // Not known until apply (preview): which entries go cannot be told; `up` checks again.
  if (isUnknown(roles) || !roles || typeof roles !== "object") {
    const refusal = await credentialRefusal(groupId);
    if (refusal) throw refusal;
    return { changes: true, replaces: [], deleteBeforeReplace: false };
  }
  const declared = roles as Props;
  const ledger = deploymentLedger();
  if (news.exclusive === true) {
    // First: a second exclusive catalogue's roles are all "removed" by the first, which says less.
    const other = ledger.exclusives.claim(groupId, catalogueOwner(state), describeEntries(declared), reg);
    if (other) throw twoExclusive(groupId, other);
  }
  // A removed entry another resource takes over shows in the plan as a removal: its plan says it is a move.
  const handedTo = record(groupId, state, declared, news.adoptExisting === true, reg);
  const moved = renamedKeys(state, declared);
  const movedFrom = new Set(moved.values());
  const removed = Object.keys(state.roles).filter((key) => !Object.hasOwn(declared, key) && !movedFrom.has(key));
  const retained = removed.filter((key) => state.roles[key]!.retain);
  const writes =
    removed.some((key) => !state.roles[key]!.retain) ||
    Object.keys(state.unconfirmed ?? {}).length > 0 ||
    hasUnknowns(roles) ||
    moved.size > 0 ||
    Object.entries(declared).some(([key, entry]) => {
      const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
      return !old || entryChanged(old, entry);
    });
  const exclusive = news.exclusive === true;
  // Turning `exclusive` on or off is an update of the state, never a replacement; off removes nothing.
  const flagChanged = isUnknown(news.exclusive) || exclusive !== (state.exclusive === true);
  // The plan shows `[diff: ~exclusive]` only: say what the flag now does (a user trial, issue 53).
  if (flagChanged && !isUnknown(news.exclusive))
    await engineLog("info", exclusiveNote(groupId, exclusive), reg.structure.urn);
  // Entries removed with `retain: true` only leave the state: a change that writes nothing, sends nothing.
  // An exclusive catalogue lists its group every time: roles made outside the program are drift.
  if (!writes && !exclusive) {
    // Nothing to write, but a drift check (`pulumi preview --expect-no-changes`) must find a revoked
    // credential before the next change does (issue 53): the group's one list of this deployment.
    const refusal = await credentialRefusal(groupId, `group ${groupId}: checking the credentials`, false);
    if (refusal) throw refusal;
    await noteKept(reg.structure.urn, groupId, state, moved, removed); // no plan to report: the entries that only leave the state
    return { changes: removed.length > 0 || flagChanged, replaces: [], deleteBeforeReplace: false };
  }
  const what = `group ${groupId}: checking the change against the group's roles`;
  const listed = await listedForPreview(groupId, what, writes);
  if (!hasUnknowns(roles)) {
    const plan = planApply(state, toInputs({ ...news, groupId }), listed, otherResources(ledger, groupId, reg, "diff"));
    const refusal = refusalOf(plan);
    if (refusal) throw refusal;
    const heldUnmanaged = exclusive ? plan.unmanaged.filter((r) => r.inUse) : [];
    if (heldUnmanaged.length) throw unmanagedInUse(groupId, heldUnmanaged);
    await notePlan(plan, state, listed, { moved, retained, handedTo, urn: reg.structure.urn });
    if (exclusive) {
      await noteHeldBack(groupId, reg, ledger);
      // Let go now, once: the apply removes only these (a role made since is never one of them), and a
      // resource that registers later and keeps one of them is refused in its own Diff.
      for (const r of plan.unmanaged) ledger.names.release(groupId, r.roleId, r.name, reg, false);
      ledger.exclusives.decideRemovals(reg);
      if (plan.unmanaged.length)
        await engineLog("info", unmanagedReport(groupId, plan.unmanaged, false), reg.structure.urn);
      return {
        changes: writes || flagChanged || removed.length > 0 || plan.unmanaged.length > 0,
        replaces: [],
        deleteBeforeReplace: false,
      };
    }
  } else {
    // Some entries are not known yet: names wait for `up`, but removed roles that users hold fail now.
    const byId = new Map(listed.map((r) => [r.roleId, r]));
    const held = Object.entries(state.roles)
      .filter(([key, r]) => !Object.hasOwn(declared, key) && !movedFrom.has(key) && !r.retain)
      .flatMap(([key, r]) => (byId.get(r.roleId)?.inUse ? [heldRole(key, byId.get(r.roleId)!)] : []));
    if (held.length) throw removedInUse(groupId, held, [], exclusive);
  }
  return { changes: true, replaces: [], deleteBeforeReplace: false };
}
