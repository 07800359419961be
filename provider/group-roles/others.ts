/** What the other resources of this deployment do with the roles of one group, as the plan asks it. */
import type { DeploymentLedger } from "../shared/deployment-ledger";
import type { OtherResources } from "./plan";

/**
 * The ledger's view for one GroupRoles operation. `own` holds the roles this operation claimed
 * (taken over), which are not another resource's.
 */
export function otherResources(
  ledger: DeploymentLedger,
  groupId: number,
  own: ReadonlySet<number> = new Set(),
): OtherResources {
  return {
    releases: (roleId) => ledger.isReleased(groupId, roleId),
    keeps: (roleId) => {
      if (own.has(roleId)) return undefined;
      // Taken over or made by another resource in this deployment: it keeps the name it has.
      if (ledger.isOfThisDeployment(groupId, roleId)) return {};
      return ledger.declaration(groupId, roleId);
    },
    takes: (roleId, name) => !own.has(roleId) && ledger.mayBeTakenOver(groupId, roleId, name),
  };
}
