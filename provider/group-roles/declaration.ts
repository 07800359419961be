/**
 * What a GroupRoles tells the deployment's ledger (../shared/deployment-ledger) in its Check or Diff: the
 * roles it keeps (with the name it plans), lets go, and wants before it holds them, and for an exclusive
 * catalogue the roles no resource declares, which it removes. Each declaration first meets the refusals
 * of ../shared/registration-order (what only another order of registrations could settle), returned for
 * the caller to throw (a Diff) or report on a property (a Check).
 */
import type { NameTakenError } from "../../client/status-errors";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import { engineLog } from "../shared/engine-log";
import type { Props } from "../shared/props";
import {
  absentTaker,
  lateDeclare,
  lateFreeing,
  lateKeep,
  lateTakeover,
  unorderedTakeover,
} from "../shared/registration-order";
import type { Registration } from "../shared/registrations";
import { unmanagedReport } from "./errors";
import type { Plan } from "./plan";
import { noteHeldBack } from "./plan-notes";
import { catalogueOwner, type GroupRolesInputs, type GroupRolesState } from "./types";

type Refusals = Array<NameTakenError | undefined>;

/** What the step of a create finds its registration by (the ledger's `registrations.stepOf`). */
export const newCatalogueStep = (inputs: GroupRolesInputs) =>
  `new catalogue:${inputs.groupId}:${Object.keys(inputs.roles).join(",")}`;
/** What the step of an update finds its registration by: the catalogue's roles (./types `catalogueOwner`). */
export const existingCatalogueStep = (state: GroupRolesState) => `catalogue:${catalogueOwner(state)}`;

/**
 * Entries `reg` declares for roles it does not hold yet (`[key, name]`): created, or with `adopts`
 * (adoptExisting) taken over by name. The first registration to declare a name keeps it; one that takes
 * over a role an earlier one deletes in its own update is refused (`lateTakeover`). One refusal (or
 * undefined) per entry, in order.
 */
export function declareWanted(
  ledger: DeploymentLedger,
  groupId: number,
  entries: ReadonlyArray<readonly [string, string]>,
  adopts: boolean,
  reg: Registration,
): Refusals {
  return entries.map(([key, name]) => {
    const late = adopts ? lateTakeover(ledger, groupId, { name }, reg, `group ${groupId}: roles.${key}`) : undefined;
    ledger.wants.addName(groupId, name, reg, adopts);
    return late;
  });
}

/**
 * A catalogue's Diff, its group unchanged: keeps the entries still declared (`moved`: new key to old key,
 * ../group-roles/renamed-keys), lets go the removed ones (deleted in its update unless an earlier
 * registration takes them over), and wants the added ones. Returns the refusals and the removed keys
 * another resource takes over, with how that resource is named.
 */
export function declareCatalogue(
  ledger: DeploymentLedger,
  groupId: number,
  state: GroupRolesState,
  roles: Props,
  moved: ReadonlyMap<string, string>,
  adopts: boolean,
  reg: Registration,
): { refusals: Refusals; handovers: Map<string, string> } {
  // Once per diff: it sorts every role ID of the catalogue.
  const owner = catalogueOwner(state);
  const kept = new Set<string>();
  const refusals: Refusals = [];
  for (const [key, entry] of Object.entries(roles)) {
    const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
    const name = entry && typeof entry === "object" ? (entry as Props).name : undefined;
    const what = `group ${groupId}: roles.${key}`;
    if (old) {
      kept.add(state.roles[key] ? key : moved.get(key)!);
      refusals.push(lateKeep(ledger, groupId, old, reg, what));
      if (typeof name !== "string") continue;
      if (name !== old.name)
        refusals.push(
          lateFreeing(ledger, groupId, { name: old.name, roleId: old.roleId, plannedName: name }, reg, what),
        );
      ledger.declarations.declare(groupId, old.roleId, {
        currentName: old.name,
        plannedName: name,
        by: "catalogue",
        owner,
        reg,
      });
    } else if (typeof name === "string") {
      refusals.push(
        lateDeclare(ledger, groupId, name, reg, what),
        ...declareWanted(ledger, groupId, [[key, name]], adopts, reg),
      );
    }
  }
  const handovers = new Map<string, string>();
  for (const [key, old] of Object.entries(state.roles)) {
    if (kept.has(key) || old.retain) continue; // kept, or forgotten (never deleted)
    ledger.declarations.undeclare(groupId, old.roleId, owner, reg);
    const release = ledger.names.release(groupId, old.roleId, old.name, reg, false);
    if (release.handedTo) handovers.set(key, release.handedTo.described);
    else {
      const what = `group ${groupId}: roles.${key}`;
      const unordered = unorderedTakeover(ledger, groupId, release, reg, what);
      refusals.push(unordered);
      refusals.push(absentTaker(ledger, groupId, release, reg, what));
      // A role another resource takes over is not its name taken "for another role": one refusal, one advice.
      if (!unordered) refusals.push(lateFreeing(ledger, groupId, { name: old.name, roleId: old.roleId }, reg, what));
    }
  }
  return { refusals, handovers };
}

/**
 * A catalogue replaced (its group changes): its roles go with the old resource, deleted after every
 * other step, or first with `deleteBeforeReplace`; they may move meanwhile to a resource registered
 * before or after this one, unless nothing orders a takeover (`unorderedTakeover`).
 */
export function releaseReplaced(
  ledger: DeploymentLedger,
  groupId: number,
  state: GroupRolesState,
  reg: Registration,
): Refusals {
  return Object.entries(state.roles)
    .filter(([, old]) => !old.retain)
    .map(([key, old]) => {
      const release = ledger.names.release(groupId, old.roleId, old.name, reg, !reg.deleteBeforeReplace);
      return unorderedTakeover(ledger, groupId, release, reg, `group ${groupId}: roles.${key}`);
    });
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
  for (const r of plan.unmanaged) ledger.names.release(groupId, r.roleId, r.name, reg, false);
  ledger.exclusives.decideRemovals(reg);
  if (plan.unmanaged.length)
    await engineLog("info", unmanagedReport(groupId, plan.unmanaged, false), reg.structure.urn);
}
