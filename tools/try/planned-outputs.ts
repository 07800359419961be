/**
 * What a trial's preview tells the program a `Role` or `GroupRoles` step of the dynamic SDK will
 * produce, so that the stack outputs it prints are what `up` will give (the engine stand-in's
 * `plannedOutputs`).
 *
 * Pulumi itself cannot do this for the dynamic SDK: the dynamic-provider host does not plan (no
 * `supportsPreview`), so a preview hands the program each changing resource's new inputs as its outputs.
 * A role's ID, which an update never changes, is then unknown, and each GroupRoles entry lacks its
 * `roleId`, `inUse` and `userCount` (a stack output `Object.values(roles).map((e) => e.roleId)` reads
 * `[null, null]`). The resource plugin plans, with the same rules (provider/plugin/planned-outputs.ts),
 * which this trial applies to the dynamic SDK's steps too.
 */
import type { PreviewPlanner } from "../engine";
import type { Props } from "../engine/values";
import { plannedCatalogue, plannedRole } from "../../provider/plugin/planned-outputs";

const ROLE = /(^|:)Role$/;
const GROUP_ROLES = /(^|:)GroupRoles$/;
const OURS = /^(pulumi-nodejs:dynamic\/grouproles:|grouproles:index:)/;

export const plannedOutputs: PreviewPlanner = ({ type, op, inputs, old }) => {
  if (!OURS.test(type)) return undefined;
  const keeps = op === "update" && old ? old.outputs : undefined;
  if (ROLE.test(type)) return plannedRole(inputs, keeps) as Props;
  if (GROUP_ROLES.test(type)) return plannedCatalogue(inputs, keeps) as Props | undefined;
  return undefined;
};
