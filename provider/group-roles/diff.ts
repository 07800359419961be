/**
 * `diff` of GroupRoles: per entry, settings compared as maps, a changed key with the same name the same
 * role (./plan `renamedKeys`), and no request for a no-op. A change runs the apply's own plan (./plan)
 * on the preview's one list of the group (shared with the credential check), so that what `up` would
 * refuse fails here: removed roles that users hold (Pulumi never asks a provider about a resource that
 * left the program, but this resource sees its whole catalogue), and names held by roles it cannot
 * take. It also tells the deployment's ledger which roles this resource keeps, lets go and wants, so
 * that other resources neither delete nor duplicate them.
 */
import type { RoleSummary } from "../../client/types";
import { credentialRefusal, previewListing } from "../shared/preview-listing";
import { deploymentLedger, type DeploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { allRefusals } from "../shared/registration-order";
import { diffRegistration } from "../shared/resource-protocol";
import { declareCatalogue, decideRemovals, releaseReplaced, wantInNewGroup } from "./declaration";
import { isGroupGone } from "../shared/gone";
import { inContext } from "../shared/errors";
import { isUnknown } from "../shared/fields";
import { programName } from "../shared/structure";
import { engineLog } from "../shared/engine-log";
import { heldRole, removedInUse, retainedOutOfExclusive, replaceInUse, twoExclusive, unmanagedInUse } from "./errors";
import { namesTaken } from "./name-errors";
import { noteKept, notePlan } from "./plan-notes";
import { describeCatalogue, describeEntries } from "./describe";
import { entryChanged, reportChanges, type EntryChange } from "./changed-keys";
import { otherResources } from "./others";
import { planApply } from "./plan";
import type { Plan } from "./plan-types";
import { renamedKeys } from "./renamed-keys";
import {
  catalogueOwner,
  hasUnknowns,
  parseGroupId,
  toInputs,
  toState,
  type GroupRolesState,
  type Props,
  type GroupRolesProps,
  type GroupRolesStateProps,
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

/** A groupId change replaces the resource: roles are created in the new group and deleted from the old. */
async function diffReplacement(
  groupId: number,
  state: GroupRolesState,
  news: GroupRolesProps,
  reg: Registration,
): Promise<void> {
  const ledger = deploymentLedger();
  // The replaced resource's delete runs after every other step and leaves what another resource took
  // over since: these roles may move to a resource registered before or after this one.
  const late = releaseReplaced(ledger, groupId, state, reg);
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
  const entries = Object.entries(roles as Props).flatMap(([key, entry]) => {
    const name = (entry as Props | undefined)?.name;
    return typeof name === "string" ? [[key, name] as const] : [];
  });
  late.push(...wantInNewGroup(ledger, newGroup, entries, news.adoptExisting === true, reg));
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

export async function diff(id: string, olds: GroupRolesStateProps, news: GroupRolesProps): Promise<GroupRolesDiff> {
  const groupId = parseGroupId(id);
  const state = toState(olds);
  // The entries when the map is known (a preview may not know it, or some entries), and the keys only
  // renamed (./renamed-keys): computed once for the whole Diff.
  const roles = news.roles;
  const declared = !isUnknown(roles) && roles && typeof roles === "object" ? (roles as Props) : undefined;
  const entries: Entries | undefined = declared && { declared, moved: renamedKeys(state, declared) };
  const result = await diffRegistration(
    `diff of the GroupRoles of group ${groupId}`,
    describeCatalogue(groupId, news.roles, programName(news)),
    (reg) => diffOf(groupId, state, news, entries, reg),
    CHANGED,
  );
  return result.changes
    ? { ...result, ...reportChanges(state, news, result.replaces.length > 0, entries?.moved) }
    : result;
}

/** A catalogue's new entries, and those only moved to a new key: new key to old key. */
interface Entries {
  declared: Props;
  moved: ReadonlyMap<string, string>;
}

async function diffOf(
  groupId: number,
  state: GroupRolesState,
  news: GroupRolesProps,
  entries: Entries | undefined,
  reg: Registration,
): Promise<GroupRolesDiff> {
  if (isUnknown(news.groupId) || news.groupId !== groupId) {
    if (!isUnknown(news.groupId)) await diffReplacement(groupId, state, news, reg);
    return { changes: true, replaces: ["groupId"], deleteBeforeReplace: false };
  }
  // Not known until apply (preview): which entries go cannot be told; `up` checks again.
  if (!entries) {
    const refusal = await credentialRefusal(groupId);
    if (refusal) throw refusal;
    return { ...CHANGED };
  }
  const { declared, moved } = entries;
  const ledger = deploymentLedger();
  const handedTo = declare(ledger, groupId, state, news, entries, reg);
  const removed = removedKeys(state, entries);
  const writes = writesAny(state, entries, removed);
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
  if (hasUnknowns(declared)) {
    // Some entries are not known yet: names wait for `up`, but removed roles that users hold fail now.
    const byId = new Map(listed.map((r) => [r.roleId, r]));
    const held = removed.flatMap((key) => {
      const role = state.roles[key]!.retain ? undefined : byId.get(state.roles[key]!.roleId);
      return role?.inUse ? [heldRole(key, role)] : [];
    });
    if (held.length) throw removedInUse(groupId, held, [], exclusive);
    return { ...CHANGED };
  }
  const plan = planApply(
    state,
    toInputs({ ...news, groupId }),
    listed,
    otherResources(ledger, groupId, reg, "diff"),
    moved,
  );
  const refusal = refusalOf(plan);
  if (refusal) throw refusal;
  const heldUnmanaged = exclusive ? plan.unmanaged.filter((r) => r.inUse) : [];
  if (heldUnmanaged.length) throw unmanagedInUse(groupId, heldUnmanaged);
  const retained = removed.filter((key) => state.roles[key]!.retain);
  await notePlan(plan, state, listed, { moved, retained, handedTo, urn: reg.structure.urn });
  if (!exclusive) return { ...CHANGED };
  await decideRemovals(ledger, groupId, plan, reg);
  return {
    changes: writes || flagChanged || removed.length > 0 || plan.unmanaged.length > 0,
    replaces: [],
    deleteBeforeReplace: false,
  };
}

/**
 * What this catalogue declares, told to the deployment (the intent, ./declaration), or its refusal: a
 * second exclusive catalogue of the group first (its roles are all "removed" by the first, which says
 * less). Returns the removed entries another resource takes over (the plan shows them as moves).
 */
function declare(
  ledger: DeploymentLedger,
  groupId: number,
  state: GroupRolesState,
  news: GroupRolesProps,
  { declared, moved }: Entries,
  reg: Registration,
): Map<string, string> {
  if (news.exclusive === true) {
    const other = ledger.claimExclusive(groupId, catalogueOwner(state), describeEntries(declared), reg);
    if (other) throw twoExclusive(groupId, other);
  }
  const adopts = news.adoptExisting === true;
  const { refusals, handovers } = declareCatalogue(ledger, groupId, state, declared, moved, adopts, reg);
  const refused = allRefusals(refusals);
  if (refused) throw refused;
  return handovers;
}

/** The state's keys the program no longer declares (a key only moved to a new key is declared). */
function removedKeys(state: GroupRolesState, { declared, moved }: Entries): string[] {
  const movedFrom = new Set(moved.values());
  return Object.keys(state.roles).filter((key) => !Object.hasOwn(declared, key) && !movedFrom.has(key));
}

/** Whether the change writes to the service (a removal with `retain` only leaves the state). */
function writesAny(state: GroupRolesState, { declared, moved }: Entries, removed: readonly string[]): boolean {
  return (
    removed.some((key) => !state.roles[key]!.retain) ||
    Object.keys(state.unconfirmed ?? {}).length > 0 ||
    hasUnknowns(declared) ||
    moved.size > 0 ||
    Object.entries(declared).some(([key, entry]) => {
      const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
      return !old || entryChanged(old, entry);
    })
  );
}
