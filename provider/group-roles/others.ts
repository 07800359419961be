/** What the other resources of this deployment do with the roles of one group, as the plan asks it. */
import type { DeploymentLedger } from "../shared/deployment-ledger";
import { orderedBefore, type Registration } from "../shared/registrations";
import { absentDependencies, dependencyDeclaring } from "../shared/structure";
import type { OtherResources } from "./plan-types";

/**
 * The ledger's view for one GroupRoles Diff (`at: "diff"`) or apply, by registration `self`. `own`
 * holds the roles this apply claimed (taken over), which are not another resource's.
 */
export function otherResources(
  ledger: DeploymentLedger,
  groupId: number,
  self: Registration,
  at: "diff" | "apply",
  own: ReadonlySet<number> = new Set(),
): OtherResources {
  const isOther = (reg: Registration | undefined) => reg !== undefined && reg !== self;
  // A `Role` or `GroupRoles` of this one's `dependsOn` that does not run in this deployment: its state may
  // record a role of the group under a group or name the program no longer declares (history 10385: a Role
  // moving to another group, left out by `--exclude`, lost its role to an exclusive catalogue).
  const dependencyLeftOut = absentDependencies(self.structure, (urn) => ledger.registrations.has(urn)).length > 0;
  const view = ledger.view(groupId, self);
  const kept = (roleId: number) => {
    const declared = view.declared(roleId);
    return declared && isOther(declared.reg) ? declared : undefined;
  };
  const taken = (roleId: number) => {
    const release = view.released(roleId);
    return (
      view.claimed(roleId) || (release !== undefined && release.handedTo !== undefined && release.handedTo !== self)
    );
  };
  return {
    holder: (roleId) => {
      if (own.has(roleId)) return undefined;
      const release = view.released(roleId);
      if (release && isOther(release.reg) && !release.handedTo && !kept(roleId)) {
        // Deleted after every other step (a replaced catalogue): it may be taken over, but its name stays held.
        if (release.deferred) return { deferred: true };
        // Deleted in the update of a resource in this one's `dependsOn`: its step freed the name before
        // this one registered. Any other's may run after this one: refused (./plan).
        return orderedBefore(self, release.reg) ? { frees: release.reg, by: "delete" } : { later: true };
      }
      // Taken over or made by another resource in this deployment: it keeps the name it has.
      if (view.ofThisDeployment(roleId) || taken(roleId)) return { keeps: {} };
      const declared = kept(roleId);
      if (!declared) return undefined;
      const renamedAway = declared.currentName !== declared.plannedName && !declared.settled;
      if (!renamedAway) return { keeps: declared };
      // Renamed away by a resource in this one's `dependsOn`: its step freed the name. By any other: refused.
      return orderedBefore(self, declared.reg!)
        ? { keeps: declared, frees: declared.reg!, by: "rename" }
        : { keeps: declared, later: true };
    },
    takes: (roleId) => !own.has(roleId) && (taken(roleId) || kept(roleId) !== undefined),
    removable: (roleId, name) => {
      if (own.has(roleId) || taken(roleId) || kept(roleId) || view.mayBeTakenOver(roleId, name)) return false;
      // Declared by a resource in this one's `dependsOn`, as the program's structure says: holds under
      // `--target` too, where that resource sends the provider nothing (step_generator.go
      // `NewUntargetedSameStep`).
      if (dependencyDeclaring(self.structure, groupId, { roleId, name })) return false;
      // One of them does not run in this deployment: left until a run that includes it.
      if (dependencyLeftOut) return false;
      const release = view.released(roleId);
      // An exclusive catalogue removes, at apply, only what its Diff (or Check) let go: decided once.
      const decided = at === "apply" && view.decidedRemovals();
      return decided ? release?.reg === self : release === undefined || release.reg === self;
    },
  };
}
