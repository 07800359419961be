/**
 * A GroupRoles step that fails before it writes anything (its list fails, a refusal at apply) leaves
 * its old state, which still records the entries it lets go. When another resource of the deployment
 * has already taken one of them over (a move: the receiver registered first, `adoptExisting`), both
 * states would record that role (found by the simulation: the giver's own list failed, and its plain
 * error kept the moved entry in its state). So such a failure becomes a partial update (Pulumi's init
 * error) holding the old state without those entries; every other failure keeps its own error.
 *
 * The receiver is in this resource's `dependsOn` (a handover needs it: ../shared/registration-order),
 * so its step ended before this one registered: its outcome is known, nothing is waited for.
 */
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { entries } from "./apply";
import { GroupRolesInitError } from "./errors";
import { formatGroupId, type GroupRolesState } from "./types";

export async function withoutHandedOver(
  error: unknown,
  state: GroupRolesState,
  reg: Registration,
  providerRef: unknown,
): Promise<unknown> {
  if (error instanceof GroupRolesInitError) return error;
  const { groupId } = state;
  const view = deploymentLedger().view(groupId);
  const gone: string[] = [];
  for (const [key, role] of Object.entries(state.roles)) {
    const release = view.released(role.roleId);
    if (!release?.handedTo || release.reg !== reg || !view.claimed(role.roleId)) continue;
    if (release.handedTo.succeeded) gone.push(key);
  }
  if (!gone.length) return error;
  const roles = Object.fromEntries(Object.entries(state.roles).filter(([key]) => !gone.includes(key)));
  const message =
    `${(error as Error).message}; ${entries(gone)}, taken over by another resource of this deployment, ` +
    `${gone.length === 1 ? "leaves" : "leave"} this resource's state (the role keeps its ID and users)`;
  return new GroupRolesInitError(
    message,
    formatGroupId(groupId),
    { ...state, roles, __provider: providerRef },
    [message],
    error,
  );
}
