/**
 * What a GroupRoles declares in its Check or Diff, as intents (../shared/intent) built from its inputs
 * and its state: the roles it keeps (with the name it plans), lets go, and wants before it holds them,
 * and for an exclusive catalogue the roles no resource declares, which it removes. ../shared/intent runs
 * the refusals of ../shared/registration-order over each and records it; the refusals come back for the
 * caller to throw (a Diff) or report on a property (a Check).
 */
import type { NameTakenError } from "../../client/status-errors";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import { engineLog } from "../shared/engine-log";
import { type Intent, type Refused, type Released, type Wanted, record, refusalsOf } from "../shared/intent";
import type { Props } from "../shared/props";
import type { Registration } from "../shared/registrations";
import { unmanagedReport } from "./errors";
import type { Plan } from "./plan-types";
import { noteHeldBack } from "./plan-notes";
import { catalogueOwner, type GroupRolesInputs, type GroupRolesState } from "./types";

const entryAt = (groupId: number, key: string) => ({ at: `group ${groupId}: roles.${key}`, property: `roles.${key}` });

/** The entries of a new catalogue (`[key, name]`), wanted: created, or with `adopts` taken over by name. */
const wanted = (groupId: number, entries: ReadonlyArray<readonly [string, string]>, adopts: boolean, seen: boolean) =>
  entries.map(
    ([key, name]): Wanted => ({ kind: "want", ...entryAt(groupId, key), name, adopts, seenByExclusive: seen }),
  );

/** Wants these entries in `groupId` (see {@link wanted}): the refusals, and recorded even when refused. */
function declareWanted(
  ledger: DeploymentLedger,
  groupId: number,
  entries: ReadonlyArray<readonly [string, string]>,
  adopts: boolean,
  seen: boolean,
  reg: Registration,
): Refused[] {
  const intent: Intent = { groupId, by: "catalogue", declares: wanted(groupId, entries, adopts, seen) };
  const refused = refusalsOf(ledger, reg, intent);
  record(ledger, reg, intent);
  return refused;
}

/** A role of the catalogue's state (under `key`) that it lets go: see ../shared/intent `Released`. */
const released = (
  groupId: number,
  [key, old]: [string, GroupRolesState["roles"][string]],
  deferred: boolean,
  checks: Released["checks"],
): Released => ({ ...entryAt(groupId, key), key, roleId: old.roleId, name: old.name, deferred, checks });

/**
 * A create's Check: its entries, wanted in its group. Unless it is the group's exclusive catalogue
 * (`exclusive`), one registered before it cannot see them: refused. Recorded even when refused (the
 * Check fails the deployment), so that this catalogue's own plan counts its names as its own.
 */
export function declareNewCatalogue(
  ledger: DeploymentLedger,
  inputs: GroupRolesInputs,
  exclusive: boolean,
  reg: Registration,
): Refused[] {
  const entries = Object.entries(inputs.roles).map(([key, entry]) => [key, entry.name] as const);
  return declareWanted(ledger, inputs.groupId, entries, inputs.adoptExisting, !exclusive, reg);
}

/**
 * A catalogue's Diff, its group unchanged: keeps the entries still declared (`moved`: new key to old key,
 * ./renamed-keys), lets go the removed ones (deleted in its update unless an earlier registration takes
 * them over; an entry removed with `retain` is only forgotten), and wants the added ones. Returns the
 * refusals and the removed keys another resource takes over, with how that resource is named.
 */
export function declareCatalogue(
  ledger: DeploymentLedger,
  groupId: number,
  state: GroupRolesState,
  roles: Props,
  moved: ReadonlyMap<string, string>,
  adopts: boolean,
  reg: Registration,
): { refusals: NameTakenError[]; handovers: Map<string, string> } {
  const kept = new Set<string>();
  const declares: Intent["declares"][number][] = [];
  for (const [key, entry] of Object.entries(roles)) {
    const oldKey = state.roles[key] ? key : moved.get(key);
    const old = oldKey === undefined ? undefined : state.roles[oldKey];
    const name = entry && typeof entry === "object" ? (entry as Props).name : undefined;
    if (old) {
      kept.add(oldKey!);
      const plannedName = typeof name === "string" ? name : undefined;
      declares.push({ kind: "keep", ...entryAt(groupId, key), roleId: old.roleId, name: old.name, plannedName });
    } else if (typeof name === "string") declares.push(...wanted(groupId, [[key, name]], adopts, true));
  }
  const releases = Object.entries(state.roles)
    .filter(([key, old]) => !kept.has(key) && !old.retain)
    .map((entry) => released(groupId, entry, false, "all"));
  // Once per diff: it sorts every role ID of the catalogue.
  const intent: Intent = { groupId, by: "catalogue", owner: catalogueOwner(state), declares, releases };
  const refused = refusalsOf(ledger, reg, intent);
  const recorded = record(ledger, reg, intent);
  return { refusals: [...refused, ...recorded.refused].map((r) => r.error), handovers: recorded.handovers };
}

/**
 * A catalogue replaced (its group changes): its roles go with the old resource, deleted after every
 * other step, or first with `deleteBeforeReplace`; they may move meanwhile to a resource registered
 * before or after this one, unless nothing orders a takeover. Returns the refusals.
 */
export function releaseReplaced(
  ledger: DeploymentLedger,
  groupId: number,
  state: GroupRolesState,
  reg: Registration,
): NameTakenError[] {
  const releases = Object.entries(state.roles)
    .filter(([, old]) => !old.retain)
    .map((entry) => released(groupId, entry, !reg.deleteBeforeReplace, "ordered"));
  return record(ledger, reg, { groupId, by: "catalogue", declares: [], releases }).refused.map((r) => r.error);
}

/** A replaced catalogue's entries (`[key, name]`), wanted in its new group. Returns the refusals. */
export function wantInNewGroup(
  ledger: DeploymentLedger,
  groupId: number,
  entries: ReadonlyArray<readonly [string, string]>,
  adopts: boolean,
  reg: Registration,
): NameTakenError[] {
  return declareWanted(ledger, groupId, entries, adopts, false, reg).map((r) => r.error);
}

/**
 * An exclusive catalogue's Check or Diff decides, once, what it removes: the roles of its group no
 * resource declares (`plan.unmanaged`), let go now, so that the apply removes only these (a role made
 * since is never one of them) and a resource that registers later and keeps one is refused in its own
 * Diff. Says so beside the plan, and which of its `dependsOn` this run leaves out (it then removes none).
 */
export async function decideRemovals(
  ledger: DeploymentLedger,
  groupId: number,
  plan: Plan,
  reg: Registration,
): Promise<void> {
  await noteHeldBack(groupId, reg, ledger);
  const releases = plan.unmanaged.map((r) => ({
    at: `group ${groupId}: role "${r.name}"`,
    key: r.name,
    roleId: r.roleId,
    name: r.name,
    deferred: false,
    checks: "none" as const,
  }));
  record(ledger, reg, { groupId, by: "catalogue", declares: [], releases, decidesRemovals: true });
  if (plan.unmanaged.length)
    await engineLog("info", unmanagedReport(groupId, plan.unmanaged, false), reg.structure.urn);
}
