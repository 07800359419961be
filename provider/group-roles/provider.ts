/**
 * The GroupRoles dynamic provider: a group's roles as one resource. Check and diff in ./check and
 * ./diff; create and update list the group once, plan (./plan) and apply at the array endpoints
 * (./apply); refresh in ./read, delete in ./delete. It shares the Role provider's settings (../../config/stack-config)
 * and client, and none of its per-role machinery: one resource sees the whole set, so it needs no
 * batching window. What it shares with every other resource of the deployment is the ledger
 * (../shared/deployment-ledger): roles it keeps, lets go, takes over and renames, so that a role moved between
 * resources is never deleted and names freed elsewhere are waited for.
 */
import type { dynamic } from "@pulumi/pulumi";
import { previewListing } from "../shared/preview-listing";
import { dynamicConfigSource } from "../shared/config-check";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { allRefusals } from "../shared/registration-order";
import { checkRegistration, runDelete, runStep } from "../shared/resource-protocol";
import { type CheckFailure, isUnknown } from "../shared/fields";
import { programName } from "../shared/structure";
import {
  batchOptions,
  clientFromConfig,
  resolveConfig,
  setStackConfig,
  type ConfigSource,
} from "../../config/stack-config";
import { DEFAULT_BATCH_OPTIONS } from "../../config/batch-options";
import { inContext } from "../shared/errors";
import { describeCatalogue, describeEntries } from "./describe";
import { removedInUse, retainedOutOfExclusive, twoExclusive, unmanagedInUse, unmanagedReport } from "./errors";
import { forcedReplacementHint, namesTaken } from "./name-errors";
import { engineLog } from "../shared/engine-log";
import { apply } from "./apply";
import { decideRemovals, declareNewCatalogue } from "./declaration";
import { checkGroupRolesInputs } from "./check";
import { deleteGroupRoles } from "./delete";
import { diff } from "./diff";
import { otherResources } from "./others";
import { planApply } from "./plan";
import { notePlan } from "./plan-notes";
import { read } from "./read";
import { withoutHandedOver } from "./handed-over";
import { listCoveringState } from "./listing";
import {
  formatGroupId,
  hasUnknowns,
  parseGroupId,
  toInputs,
  toState,
  type GroupRolesInputs,
  type GroupRolesState,
  type Props,
  type GroupRolesProps,
  type GroupRolesStateProps,
} from "./types";

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(dynamicConfigSource(req.config));
}

export async function check(olds: GroupRolesProps, news: GroupRolesProps) {
  return checkRegistration(olds, news, {
    what: "check of a GroupRoles",
    described: describeCatalogue(news.groupId, news.roles, programName(news)),
    inputFailures: checkGroupRolesInputs,
    declareCreate: checkCreateNames,
  });
}

/**
 * A create's names, in the preview: the names it declares (in the ledger), and held ones it cannot
 * take, from the preview's list of the group (the credential check's: no extra request).
 */
async function checkCreateNames(news: GroupRolesProps, reg: Registration): Promise<CheckFailure[]> {
  const groupId = news.groupId;
  if (typeof groupId !== "number") return [];
  const ledger = deploymentLedger();
  if (hasUnknowns(news.roles) || isUnknown(news.adoptExisting)) return [];
  const inputs = toInputs(news);
  // Not the group's exclusive catalogue: one registered before it cannot see these entries.
  const refused = declareNewCatalogue(ledger, inputs, inputs.exclusive, reg);
  // The first entry's path, not `roles`: the engine prints a failure's property value, here the whole map.
  if (refused.length)
    return [{ property: refused[0]!.property!, reason: allRefusals(refused.map((r) => r.error))!.message }];
  const { roles } = await previewListing(groupId);
  if (!roles) return []; // not listed: the create meets it, with its retries and messages
  const plan = planApply({ groupId, roles: {} }, inputs, roles, otherResources(ledger, groupId, reg, "diff"));
  const taken = plan.conflicts.filter((c) => c.kind !== "wait");
  // The first entry's path, not `roles`: the engine prints a failure's property value, here the whole map.
  if (taken.length)
    return [
      {
        property: `roles.${taken[0]!.key}`,
        reason:
          namesTaken(groupId, taken, { adopts: inputs.adoptExisting }).message +
          forcedReplacementHint(taken, inputs.adoptExisting),
      },
    ];
  if (!inputs.exclusive) {
    await notePlan(plan, { groupId, roles: {} }, roles, { urn: reg.structure.urn });
    return [];
  }
  const other = ledger.claimExclusive(
    groupId,
    `new:${Object.keys(inputs.roles).join(",")}`,
    describeEntries(news.roles as Props),
    reg,
  );
  if (other) return [{ property: "exclusive", reason: twoExclusive(groupId, other).message }];
  const held = plan.unmanaged.filter((r) => r.inUse);
  if (held.length) return [{ property: "exclusive", reason: unmanagedInUse(groupId, held).message }];
  await notePlan(plan, { groupId, roles: {} }, roles, { urn: reg.structure.urn });
  await decideRemovals(ledger, groupId, plan, reg);
  return [];
}

/** Most roles per array request: `grouproles:maxBatchSize`, default 100. */
const maxBatchSize = (): number => batchOptions(resolveConfig()).maxBatchSize ?? DEFAULT_BATCH_OPTIONS.maxBatchSize;

/**
 * Lists the group, plans (refusing what would fail half-way) and applies. A name that a resource in
 * this one's `dependsOn` frees in its step (a rename away, a delete) is free by now: its step ended
 * before this one registered. Nothing waits for another resource's step.
 */
/** A create's or update's work: its words for messages, the state it starts from, the inputs it applies. */
interface StepWork {
  what: string;
  state: GroupRolesState;
  inputs: GroupRolesInputs;
  providerRef: unknown;
  reg: Registration;
}

async function converge(work: StepWork): Promise<GroupRolesState> {
  try {
    return await planAndApply(work);
  } catch (error) {
    // Failed before writing: entries another resource took over must not stay in this state (./handed-over).
    throw await withoutHandedOver(error, work.state, work.reg, work.providerRef);
  }
}

async function planAndApply({ what, state, inputs, providerRef, reg }: StepWork): Promise<GroupRolesState> {
  const client = clientFromConfig();
  const ledger = deploymentLedger();
  const { groupId } = inputs;
  const own = new Set<number>();
  const recorded = Object.values(state.roles).map((r) => r.roleId);
  const listed = await listCoveringState(client, groupId, recorded, "the roles the state records").catch((e) => {
    throw inContext(e, `${what}: listing the group (nothing was changed)`);
  });
  const plan = planApply(state, inputs, listed, otherResources(ledger, groupId, reg, "apply", own));
  // A name a resource in this one's `dependsOn` frees is free by now (its step ended before this one
  // registered): still held, it is not freed in this deployment. Nothing waits for another step.
  if (plan.conflicts.length) throw namesTaken(groupId, plan.conflicts, { adopts: inputs.adoptExisting });
  if (plan.held.length) throw removedInUse(groupId, plan.held, plan.creates, plan.exclusive);
  if (plan.retainedOut.length) throw retainedOutOfExclusive(groupId, plan.retainedOut);
  const unmanagedHeld = plan.unmanaged.filter((r) => r.inUse);
  if (unmanagedHeld.length) throw unmanagedInUse(groupId, unmanagedHeld);
  // Claimed before any write, in the same turn as the plan: a resource letting them go sees it.
  for (const roleId of plan.takeovers) {
    ledger.noteClaimed(groupId, roleId);
    own.add(roleId);
  }
  const outs = await apply({ client, maxBatchSize: maxBatchSize(), providerRef, what, listed }, plan);
  if (plan.unmanaged.length) await engineLog("info", unmanagedReport(groupId, plan.unmanaged, true), reg.structure.urn);
  return outs;
}

export async function create(props: GroupRolesProps): Promise<{ id: string; outs: GroupRolesState }> {
  const inputs = toInputs(props);
  const what = `creating the roles of group ${inputs.groupId}`;
  const outs = await runStep(props, describeCatalogue(inputs.groupId, inputs.roles), (reg) =>
    converge({ what, state: { groupId: inputs.groupId, roles: {} }, inputs, providerRef: props.__provider, reg }),
  );
  return { id: formatGroupId(inputs.groupId), outs };
}

export async function update(
  id: string,
  olds: GroupRolesStateProps,
  news: GroupRolesProps,
): Promise<{ outs: GroupRolesState }> {
  const groupId = parseGroupId(id);
  const inputs = toInputs({ ...news, groupId });
  const state = toState(olds);
  const what = `updating the roles of group ${groupId}`;
  const outs = await runStep(news, describeCatalogue(groupId, inputs.roles), (reg) =>
    converge({ what, state, inputs, providerRef: news.__provider, reg }),
  );
  return { outs };
}

async function deleteRoles(id: string, props: GroupRolesStateProps, urn?: string): Promise<void> {
  await runDelete(() => deleteGroupRoles(id, props, maxBatchSize()), urn);
}

/**
 * The GroupRoles resource's dynamic provider, as the dynamic-provider host calls it. `satisfies`
 * proves the methods fit Pulumi's `ResourceProvider` while keeping their precise result types.
 */
export const groupRolesProvider = {
  configure,
  check,
  diff,
  create,
  read,
  update,
  delete: deleteRoles,
} satisfies dynamic.ResourceProvider<GroupRolesProps, GroupRolesStateProps>;
