/**
 * The GroupRoles dynamic provider: a group's roles as one resource. Check and diff in ./check and
 * ./diff; create and update list the group once, plan (./plan) and apply at the array endpoints
 * (./apply); refresh in ./read, delete in ./delete. It shares the Role provider's settings (./../config)
 * and client, and none of its per-role machinery: one resource sees the whole set, so it needs no
 * batching window. What it shares with every other resource of the deployment is the ledger
 * (../deployment-ledger): roles it keeps, lets go, takes over and renames, so that a role moved between
 * resources is never deleted and names freed elsewhere are waited for.
 */
import type { dynamic } from "@pulumi/pulumi";
import { checkCreateCredentials, previewListing } from "../shared/preview-listing";
import { deploymentLedger } from "../shared/deployment-ledger";
import { NAME_WAIT } from "../shared/temporary-names";
import { isUnknown } from "../shared/fields";
import {
  batchOptions,
  clientFromConfig,
  resolveConfig,
  setStackConfig,
  type ConfigSource,
} from "../../config/stack-config";
import { DEFAULT_BATCH_OPTIONS } from "../../config/batch-options";
import { inContext } from "../shared/errors";
import { describeEntries } from "./diff";
import {
  moveFailed,
  namesTaken,
  notAppliedAfterFailure,
  removedInUse,
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
import { planApply, renamedKeys } from "./plan";
import { read } from "./read";
import {
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
  setStackConfig(req.config);
}

export async function check(olds: Props, news: Props) {
  const ledger = deploymentLedger();
  ledger.noteRegistration();
  let failures = await checkCreateCredentials(olds, news, checkGroupRolesInputs(news));
  if (!failures.length && Object.keys(olds).length === 0 && typeof news.groupId === "number")
    failures = await checkCreateNames(news);
  if (failures.length) ledger.noteFailure("check of a GroupRoles");
  return { inputs: news, failures };
}

/**
 * A create's names, in the preview: the names it declares (wanted, in the ledger), and held ones it
 * cannot take, from the preview's list of the group (the credential check's: no extra request).
 */
async function checkCreateNames(news: Props) {
  const groupId = news.groupId as number;
  const ledger = deploymentLedger();
  if (hasUnknowns(news.roles) || isUnknown(news.adoptExisting)) return [];
  const inputs = toInputs(news);
  if (inputs.adoptExisting) for (const entry of Object.values(inputs.roles)) ledger.wantName(groupId, entry.name);
  const { roles } = await previewListing(groupId);
  if (!roles) return []; // not listed: the create meets it, with its retries and messages
  const plan = planApply({ groupId, roles: {} }, inputs, roles, otherResources(ledger, groupId));
  const taken = plan.conflicts.filter((c) => c.kind !== "wait");
  if (taken.length) return [{ property: "roles", reason: namesTaken(groupId, taken).message }];
  if (!inputs.exclusive || isUnknown(news.exclusive)) return [];
  const other = ledger.claimExclusive(
    groupId,
    `new:${Object.keys(inputs.roles).join(",")}`,
    describeEntries(news.roles as Props),
  );
  if (other) return [{ property: "exclusive", reason: twoExclusive(groupId, other).message }];
  const held = plan.unmanaged.filter((r) => r.inUse);
  if (held.length) return [{ property: "exclusive", reason: unmanagedInUse(groupId, held).message }];
  if (plan.unmanaged.length) await engineLog("info", unmanagedReport(groupId, plan.unmanaged, false));
  return [];
}

/** Most roles per array request: `grouproles:maxBatchSize`, default 100. */
const maxBatchSize = (): number => batchOptions(resolveConfig()).maxBatchSize ?? DEFAULT_BATCH_OPTIONS.maxBatchSize;

/**
 * How long an apply that lets roles go waits for the program to stop registering resources (see
 * ../deployment-ledger `quiet`) before it decides which of them to delete, and at most how long.
 */
export const LET_GO_WAIT = { quietMs: 1_000, maxMs: 120_000 };

/** True when the change removes entries (or unconfirmed creates) whose roles would be deleted. */
function removesRoles(state: GroupRolesState, inputs: GroupRolesInputs): boolean {
  const moved = new Set(renamedKeys(state, inputs.roles).values());
  return (
    Object.entries(state.roles).some(([k, r]) => !Object.hasOwn(inputs.roles, k) && !moved.has(k) && !r.retain) ||
    Object.keys(state.unconfirmed ?? {}).some((k) => !Object.hasOwn(inputs.roles, k))
  );
}

/**
 * Lists the group, plans (refusing what would fail half-way) and applies. Roles this change lets go
 * are decided once the program has registered every resource, so that one another resource takes
 * over is left to it; names another resource of the deployment frees are waited for.
 */
async function converge(
  what: string,
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  providerRef: unknown,
): Promise<GroupRolesState> {
  const ledger = deploymentLedger();
  const { groupId } = inputs;
  const released = releasedBy(state, inputs);
  ledger.startReleases(groupId, released);
  try {
    return await plannedApply(what, state, inputs, providerRef, released);
  } catch (error) {
    // Before it committed (see plannedApply), the roles it lets go stay with it; after, no effect.
    ledger.settleReleases(groupId, released, false);
    throw error;
  }
}

/** The roles of `state` that `inputs` no longer declare (moved keys aside): what this change lets go. */
function releasedBy(state: GroupRolesState, inputs: GroupRolesInputs): number[] {
  const moved = new Set(renamedKeys(state, inputs.roles).values());
  return Object.entries(state.roles)
    .filter(([k]) => !Object.hasOwn(inputs.roles, k) && !moved.has(k))
    .map(([, r]) => r.roleId);
}

async function plannedApply(
  what: string,
  state: GroupRolesState,
  inputs: GroupRolesInputs,
  providerRef: unknown,
  released: readonly number[],
): Promise<GroupRolesState> {
  const client = clientFromConfig();
  const ledger = deploymentLedger();
  const { groupId } = inputs;
  const own = new Set<number>();
  // An exclusive catalogue removes what no resource of the program declares: decided, like any removal,
  // once the program has registered every resource.
  if (removesRoles(state, inputs) || inputs.exclusive) {
    await ledger.quiet(LET_GO_WAIT.quietMs, LET_GO_WAIT.maxMs);
    // The deployment is failing: a role another resource was to take over must be neither deleted
    // nor lost, so this change, which removes roles, waits for the next run.
    if (ledger.failure) throw notAppliedAfterFailure(what, ledger.failure);
  }
  const deadline = Date.now() + NAME_WAIT.deadlineMs;
  for (;;) {
    const listed = await client.roles.list(groupId).catch((e) => {
      throw inContext(e, `${what}: listing the group (nothing was changed)`);
    });
    const plan = planApply(state, inputs, listed, otherResources(ledger, groupId, own));
    const taken = plan.conflicts.filter((c) => c.kind !== "wait");
    if (taken.length) throw namesTaken(groupId, taken);
    if (plan.held.length) throw removedInUse(groupId, plan.held);
    const unmanagedHeld = plan.unmanaged.filter((r) => r.inUse);
    if (unmanagedHeld.length) throw unmanagedInUse(groupId, unmanagedHeld);
    // Committed: the roles this change lets go may be taken over now (before waiting on others, so
    // that two catalogues exchanging roles do not wait on each other).
    ledger.settleReleases(groupId, released, true);
    // A role another resource lets go is this one's only once that resource committed; then plan again.
    const moving = plan.takeovers.filter((roleId) => !own.has(roleId));
    const refused = moving.filter((roleId) => ledger.releaseCommitted(groupId, roleId) === false);
    if (refused.length) throw moveFailed(what, refused, "failed");
    const undecided = moving.filter((roleId) => ledger.releaseCommitted(groupId, roleId) === undefined);
    if (undecided.length) {
      for (const roleId of undecided) {
        const outcome = await ledger.awaitRelease(groupId, roleId, LET_GO_WAIT.quietMs, LET_GO_WAIT.maxMs);
        if (outcome !== "taken") throw moveFailed(what, undecided, outcome);
      }
      continue;
    }
    const waits = plan.conflicts;
    const deleting = plan.takeovers.filter((roleId) => ledger.isDeleting(groupId, roleId));
    if (!waits.length && !deleting.length) {
      // Claimed before any write, in the same turn as the plan: a resource letting them go sees it.
      for (const roleId of plan.takeovers) {
        ledger.claim(groupId, roleId);
        own.add(roleId);
      }
      const outs = await apply({ client, maxBatchSize: maxBatchSize(), providerRef, what, listed }, plan);
      if (plan.unmanaged.length) await engineLog("info", unmanagedReport(groupId, plan.unmanaged, true));
      return outs;
    }
    if (Date.now() > deadline) throw namesTaken(groupId, waits);
    await ledger.waitingOn(async () => {
      if (deleting.length) await Promise.all(deleting.map((roleId) => ledger.deleteSettled(groupId, roleId)));
      else await ledger.nextChange(500);
    });
  }
}

export async function create(props: Props): Promise<{ id: string; outs: GroupRolesState }> {
  const inputs = toInputs(props);
  const outs = await deploymentLedger().track(() =>
    converge(
      `creating the roles of group ${inputs.groupId}`,
      { groupId: inputs.groupId, roles: {} },
      inputs,
      props.__provider,
    ),
  );
  return { id: formatGroupId(inputs.groupId), outs };
}

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: GroupRolesState }> {
  const groupId = parseGroupId(id);
  const inputs = toInputs({ ...news, groupId });
  const outs = await deploymentLedger().track(() =>
    converge(`updating the roles of group ${groupId}`, toState(olds), inputs, news.__provider),
  );
  return { outs };
}

async function deleteRoles(id: string, props: Props): Promise<void> {
  await deploymentLedger().track(() => deleteGroupRoles(id, props, maxBatchSize()));
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
