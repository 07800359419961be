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
import { allRefusals, lateDeclare, lateTakeover } from "../shared/registration-order";
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
import {
  forcedReplacementHint,
  namesTaken,
  removedInUse,
  retainedOutOfExclusive,
  twoExclusive,
  unmanagedInUse,
  unmanagedReport,
} from "./errors";
import { engineLog } from "../shared/engine-log";
import { apply } from "./apply";
import { checkGroupRolesInputs } from "./check";
import { deleteGroupRoles } from "./delete";
import { diff } from "./diff";
import { otherResources } from "./others";
import { planApply } from "./plan";
import { noteHeldBack, notePlan } from "./plan-notes";
import { read } from "./read";
import { withoutHandedOver } from "./handed-over";
import { listCoveringState } from "./listing";
import {
  catalogueOwner,
  formatGroupId,
  hasUnknowns,
  parseGroupId,
  toInputs,
  toState,
  type GroupRolesInputs,
  type GroupRolesState,
  type Props,
} from "./types";

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(dynamicConfigSource(req.config));
}

/**
 * The name a create's Check binds its registration to, for the create to find (the ledger's
 * `registrations.stepOf`).
 */
const newCatalogue = (inputs: GroupRolesInputs) =>
  `new catalogue:${inputs.groupId}:${Object.keys(inputs.roles).join(",")}`;

export async function check(olds: Props, news: Props) {
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
async function checkCreateNames(news: Props, reg: Registration): Promise<CheckFailure[]> {
  const groupId = news.groupId;
  if (typeof groupId !== "number") return [];
  const ledger = deploymentLedger();
  if (hasUnknowns(news.roles) || isUnknown(news.adoptExisting)) return [];
  const inputs = toInputs(news);
  ledger.registrations.bind(newCatalogue(inputs), reg);
  const lateOnes = Object.entries(inputs.roles).map(([key, entry]) => {
    const late = inputs.adoptExisting
      ? lateTakeover(ledger, groupId, { name: entry.name }, reg, `group ${groupId}: roles.${key}`)
      : undefined;
    ledger.wants.addName(groupId, entry.name, reg, inputs.adoptExisting);
    return late;
  });
  const late = allRefusals(lateOnes);
  if (late)
    return [{ property: `roles.${Object.keys(inputs.roles)[lateOnes.findIndex(Boolean)]}`, reason: late.message }];
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
  if (!inputs.exclusive || isUnknown(news.exclusive)) {
    // Not the group's exclusive catalogue: one registered before it cannot see these entries.
    for (const [key, entry] of Object.entries(inputs.roles)) {
      const unseen = lateDeclare(ledger, groupId, entry.name, reg, `group ${groupId}: roles.${key}`);
      if (unseen) return [{ property: "roles", reason: unseen.message }];
    }
    await notePlan(plan, { groupId, roles: {} }, roles, { urn: reg.structure.urn });
    return [];
  }
  const other = ledger.exclusives.claim(
    groupId,
    `new:${Object.keys(inputs.roles).join(",")}`,
    describeEntries(news.roles as Props),
    reg,
  );
  if (other) return [{ property: "exclusive", reason: twoExclusive(groupId, other).message }];
  const held = plan.unmanaged.filter((r) => r.inUse);
  if (held.length) return [{ property: "exclusive", reason: unmanagedInUse(groupId, held).message }];
  await noteHeldBack(groupId, reg, ledger);
  // Let go now, once: the create removes only these (see ./diff).
  for (const r of plan.unmanaged) ledger.names.release(groupId, r.roleId, r.name, reg, false);
  ledger.exclusives.decideRemovals(reg);
  await notePlan(plan, { groupId, roles: {} }, roles, { urn: reg.structure.urn });
  if (plan.unmanaged.length)
    await engineLog("info", unmanagedReport(groupId, plan.unmanaged, false), reg.structure.urn);
  return [];
}

/** Most roles per array request: `grouproles:maxBatchSize`, default 100. */
const maxBatchSize = (): number => batchOptions(resolveConfig()).maxBatchSize ?? DEFAULT_BATCH_OPTIONS.maxBatchSize;

/**
 * Lists the group, plans (refusing what would fail half-way) and applies. A name that a resource in
 * this one's `dependsOn` frees in its step (a rename away, a delete) is free by now: its step ended
 * before this one registered. Nothing waits for another resource's step.
 */
async function converge(
  what: string,
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  providerRef: unknown,
  reg: Registration,
): Promise<GroupRolesState> {
  try {
    return await planAndApply(what, state, inputs, providerRef, reg);
  } catch (error) {
    // Failed before writing: entries another resource took over must not stay in this state (./handed-over).
    throw await withoutHandedOver(error, state, reg, providerRef);
  }
}

async function planAndApply(
  what: string,
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  providerRef: unknown,
  reg: Registration,
): Promise<GroupRolesState> {
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
    ledger.creates.claim(groupId, roleId);
    own.add(roleId);
  }
  const outs = await apply({ client, maxBatchSize: maxBatchSize(), providerRef, what, listed }, plan);
  if (plan.unmanaged.length) await engineLog("info", unmanagedReport(groupId, plan.unmanaged, true), reg.structure.urn);
  return outs;
}

export async function create(props: Props): Promise<{ id: string; outs: GroupRolesState }> {
  const inputs = toInputs(props);
  const what = `creating the roles of group ${inputs.groupId}`;
  const outs = await runStep(newCatalogue(inputs), describeCatalogue(inputs.groupId, inputs.roles), (reg) =>
    converge(what, { groupId: inputs.groupId, roles: {} }, inputs, props.__provider, reg),
  );
  return { id: formatGroupId(inputs.groupId), outs };
}

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: GroupRolesState }> {
  const groupId = parseGroupId(id);
  const inputs = toInputs({ ...news, groupId });
  const state = toState(olds);
  const what = `updating the roles of group ${groupId}`;
  const outs = await runStep(`catalogue:${catalogueOwner(state)}`, describeCatalogue(groupId, inputs.roles), (reg) =>
    converge(what, state, inputs, news.__provider, reg),
  );
  return { outs };
}

async function deleteRoles(id: string, props: Props, urn?: string): Promise<void> {
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
} satisfies dynamic.ResourceProvider<Props, Props>;
