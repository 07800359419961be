/**
 * Carries out a plan (./plan) at the array endpoints: settings read first (concurrently, before any
 * write), then deletes (freeing names), updates in the order of ./ordering, creates last, each in
 * arrays of at most `grouproles:maxBatchSize`. A step that fails after others succeeded returns the
 * state reached (Pulumi's init error), so state records what the service now holds.
 */
import type { GroupRolesClient } from "../../client";
import { ConflictError, NotFoundError, RoleInUseError } from "../../client/status-errors";
import { changedTextFields, heldTextFields } from "../../client/role-fields";
import type { RoleSummary, RoleUpdateInput } from "../../client/types";
import { deploymentLedger, type DeploymentLedger } from "../shared/deployment-ledger";
import { temporaryName } from "../shared/temporary-names";
import { deleteApplied, isAmbiguous, updateApplied } from "../shared/lost-replies";
import { inContext } from "../shared/errors";
import { heldSettings, settingsForUpdate } from "../shared/settings";
import { createChunk } from "./create-chunk";
import { GroupRolesInitError, roleCount } from "./errors";
import { orderPuts } from "./ordering";
import type { Plan, PlannedUpdate } from "./plan-types";
import { Progress } from "./progress";
import { formatGroupId, type GroupRolesState } from "./types";

export interface ApplyContext {
  client: GroupRolesClient;
  maxBatchSize: number;
  /** `__provider`, which the init error's properties must carry. */
  providerRef: unknown;
  /** What the operation is, e.g. `updating the roles of group 42`; leads every message. */
  what: string;
  /** The group's roles as listed before the plan was made. */
  listed: readonly RoleSummary[];
}

/** An update ready to send: its body, and the declared settings the role holds once it is applied. */
interface Put extends PlannedUpdate {
  settings?: Record<string, boolean | null>;
  after?: Record<string, boolean>;
}

export const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** `roles.a, roles.b and 3 more`: which entries a step concerns, short enough for a message. */
export function entries(keys: readonly string[]): string {
  const shown = keys
    .slice(0, 3)
    .map((k) => `roles.${k}`)
    .join(", ");
  return keys.length > 3 ? `${shown} and ${keys.length - 3} more` : shown;
}

/** Reads the settings of the roles whose settings are sent, and drops updates with nothing to send. */
async function prepare(ctx: ApplyContext, plan: Plan, progress: Progress): Promise<Put[]> {
  const puts = await Promise.all(
    plan.updates.map(async (u): Promise<Put | undefined> => {
      const put: Put = { ...u };
      const declared = u.entry.settings ?? {};
      if (u.readSettings) {
        const held = heldSettings((await ctx.client.roles.get(plan.groupId, u.roleId)).settings);
        if (u.previouslyDeclared === null) {
          // A role taken over: state shows what it holds of the declared keys; send only what differs.
          progress.settingsHeld(
            u.key,
            Object.fromEntries(
              Object.keys(declared)
                .filter((k) => Object.hasOwn(held, k))
                .map((k) => [k, held[k]!]),
            ),
          );
          if (Object.entries(declared).some(([k, v]) => held[k] !== v))
            put.settings = settingsForUpdate(held, declared, undefined);
        } else {
          put.settings = settingsForUpdate(held, declared, u.previouslyDeclared);
        }
        if (put.settings) put.after = { ...declared };
      }
      const same = u.currentName === u.finalName && changedTextFields(u.current, u.entry).length === 0;
      return same && !put.settings ? undefined : put;
    }),
  );
  return puts.filter((p): p is Put => p !== undefined);
}

/** Applies `plan`; resolves with the state the service holds afterwards. */
export async function apply(ctx: ApplyContext, plan: Plan): Promise<GroupRolesState> {
  const ledger = deploymentLedger();
  const run: Applying = {
    ctx,
    plan,
    ledger,
    progress: new Progress(plan.groupId, plan.start, plan.order, plan.exclusive),
    step: "reading the settings of the roles whose settings change",
    letGo: plan.letGo.map((l) => l.key),
    unconverged: new Set<string>(),
  };
  const { progress, letGo, unconverged } = run;
  // Roles taken over (adoptExisting) that still differ from the program: theirs until their PUT is
  // confirmed, see the catch below.
  const takenOver = new Set(plan.takeovers);
  try {
    const puts = await prepare(ctx, plan, progress);
    for (const p of puts) if (takenOver.has(p.roleId)) unconverged.add(p.key);
    await removeRoles(run);
    await updateRoles(run, puts);
    await createRoles(run);
    // Done: the roles let go leave this resource's state (another resource takes them over).
    for (const key of letGo) progress.letGo(key);
  } catch (error) {
    // Roles let go to another resource are theirs, whatever happened here: that resource takes them over
    // in its own step, or, if its step fails, in the next `pulumi up` (they are never deleted).
    for (const key of letGo) progress.letGo(key);
    // A role taken over whose PUT was not confirmed is left unchanged and not recorded: the resource that
    // let it go may have forgotten it too, and then the next `pulumi up` takes it over again. Never is
    // one role in two resources' states (a later deployment could then delete it under the other). One
    // renamed to a temporary name was changed: recorded, with that name.
    const aside = new Set(progress.temporarilyNamed().map((a) => a.key));
    for (const key of unconverged) if (!aside.has(key)) progress.letGo(key);
    throw await failed(ctx, progress, run.step, error, plan.takeovers.length > 0 || plan.letGo.length > 0);
  } finally {
    // Every role this apply touched has the name it will keep in this deployment (see the ledger).
    for (const role of Object.values(progress.snapshot().roles))
      ledger.noteName(plan.groupId, role.roleId, role.name, true);
  }
  return progress.snapshot();
}

/** An apply under way: what each phase reads, and what the failure path needs (`step`, `letGo`, `unconverged`). */
interface Applying {
  ctx: ApplyContext;
  plan: Plan;
  ledger: DeploymentLedger;
  progress: Progress;
  /** What is being sent now, for the error. */
  step: string;
  /** Keys whose roles another resource takes: they leave the state, done or failed. */
  letGo: string[];
  /** Keys of roles taken over whose update is not confirmed yet. */
  unconverged: Set<string>;
}

/** Removed entries, then (exclusive) the roles no resource of the program declares: no state key. */
async function removeRoles(run: Applying): Promise<void> {
  const { ctx, plan, progress, letGo } = run;
  const view = run.ledger.view(plan.groupId);
  const removals: Array<{ key?: string; roleId: number; name: string }> = [
    ...plan.deletes,
    ...plan.unmanaged.map((r) => ({ roleId: r.roleId, name: r.name })),
  ];
  for (const planned of chunksOf(removals, ctx.maxBatchSize)) {
    // Checked again right before sending, in the same turn: a role another resource has taken over
    // since the plan (an import reads and claims it in its own step) is let go, not deleted.
    const chunk = planned.filter((d) => {
      if (!view.claimed(d.roleId)) return true;
      if (d.key !== undefined) letGo.push(d.key);
      return false;
    });
    if (!chunk.length) continue;
    const keyed = chunk.filter((d) => d.key !== undefined).map((d) => d.key!);
    const others = chunk.length - keyed.length;
    run.step = `deleting ${[keyed.length ? entries(keyed) : "", others ? `${roleCount(others)} the program does not declare` : ""].filter(Boolean).join(" and ")}`;
    await deleteChunk(
      ctx.client,
      plan.groupId,
      chunk.map((d) => d.roleId),
    );
    for (const d of chunk) progress.deleted(d.key);
  }
}

/** Renames to temporary names where names swap, then the updates, in the order of ./ordering. */
async function updateRoles(run: Applying, puts: Put[]): Promise<void> {
  const { ctx, plan, progress, ledger, unconverged } = run;
  const { client, maxBatchSize: max } = ctx;
  const groupId = plan.groupId;
  const order = orderPuts(puts, max);
  for (const chunk of chunksOf(order.asides, max)) {
    run.step = `renaming ${entries(chunk.map((p) => p.key))} to temporary names (to break a swap of names)`;
    await updateChunk(
      client,
      groupId,
      chunk.map((p) => ({ roleId: p.roleId, name: temporaryName(p.roleId), ...p.current })),
    );
    for (const p of chunk) {
      progress.steppedAside(p.key, temporaryName(p.roleId));
      ledger.noteName(groupId, p.roleId, temporaryName(p.roleId));
    }
  }
  for (const chunk of order.chunks) {
    run.step = `updating ${entries(chunk.map((p) => p.key))}`;
    await updateChunk(client, groupId, chunk.map(updateBody));
    for (const p of chunk) {
      unconverged.delete(p.key);
      progress.updated(p.key, p.finalName, heldTextFields(p.entry), p.after);
      ledger.noteName(groupId, p.roleId, p.finalName, true);
    }
  }
}

/** The creates, last; then one list of the group when a reply did not settle a new role's use. */
async function createRoles(run: Applying): Promise<void> {
  const { ctx, plan, progress, ledger } = run;
  const groupId = plan.groupId;
  const known = new Set(ctx.listed.map((r) => r.roleId));
  let unsettled = false;
  for (const chunk of chunksOf(plan.creates, ctx.maxBatchSize)) {
    run.step = `creating ${entries(chunk.map((c) => c.key))}`;
    const outcome = await createChunk(ctx.client, groupId, chunk, known);
    const byKey = new Map(chunk.map((c) => [c.key, c.entry]));
    for (const m of outcome.made) {
      const entry = byKey.get(m.key)!;
      known.add(m.roleId);
      ledger.noteMade(groupId, m.roleId);
      // A reply that says "not in use" settles userCount (0); any other answer needs a list.
      unsettled ||= m.inUse !== false && m.userCount === undefined;
      progress.created(m.key, entry, m.roleId, m.inUse ?? false, m.userCount ?? 0);
    }
    for (const key of outcome.unknown) progress.unknownOutcome(key, byKey.get(key)!.name);
    if (outcome.error) throw outcome.error;
  }
  run.step = "listing the group for the use of the roles just created";
  if (unsettled) progress.usage(await ctx.client.roles.list(groupId));
}

/**
 * Sends one array of updates. Every reply lost (retries included): done if each role reads back as
 * sent, else the error. State must say what the service holds: found by the simulation, an update
 * removing settings whose every reply had the wrong shape (applied) left the old settings in state.
 */
async function updateChunk(client: GroupRolesClient, groupId: number, roles: RoleUpdateInput[]): Promise<void> {
  try {
    await client.roles.update(groupId, roles);
  } catch (error) {
    if (isAmbiguous(error) && (await updateApplied(client, groupId, roles))) return;
    throw error;
  }
}

const updateBody = (p: Put): RoleUpdateInput => ({
  roleId: p.roleId,
  name: p.finalName,
  ...heldTextFields(p.entry),
  ...(p.settings ? { settings: p.settings } : {}),
});

/**
 * Deletes roles the plan checked are not in use. A role gone since the list (404: the array is
 * refused as a whole) is dropped and the rest sent again; a role assigned since then (409) is refused.
 */
export async function deleteChunk(client: GroupRolesClient, groupId: number, roleIds: number[]): Promise<void> {
  try {
    await client.roles.delete(groupId, roleIds);
  } catch (error) {
    // Every reply lost: applied if the roles are gone (state must not keep roles the service deleted).
    if (isAmbiguous(error) && (await deleteApplied(client, groupId, roleIds))) return;
    if (error instanceof ConflictError && !(error instanceof RoleInUseError)) {
      throw new RoleInUseError(`a role was assigned to users since the group was listed: ${error.message}`, {
        cause: error,
        status: error.status,
      });
    }
    if (!(error instanceof NotFoundError)) throw error;
    const present = new Set((await client.roles.list(groupId)).map((r) => r.roleId));
    const left = roleIds.filter((id) => present.has(id));
    if (left.length) await client.roles.delete(groupId, left);
  }
}

/**
 * The error of a failed step. Nothing written (and nothing that may have been): the step's own error,
 * in context. Otherwise the state reached, settled by a fresh list when the group can be listed, as
 * an init error, so that Pulumi records it and the next `pulumi up` finishes the job.
 */
async function failed(
  ctx: ApplyContext,
  progress: Progress,
  step: string,
  error: unknown,
  /** Roles were taken over or let go: the state must say whose they are now, even if nothing was written. */
  moved: boolean,
): Promise<Error> {
  if (!progress.changedService && !isAmbiguous(error) && !moved)
    return inContext(error, `${ctx.what}: ${step} (nothing was changed)`);
  await ctx.client.roles
    .list(progress.snapshot().groupId)
    .then((listed) => progress.settle(listed))
    .catch(() => undefined); // keep what the confirmed writes say
  const { deleted, updated, created } = progress.done;
  const aside = progress.temporarilyNamed();
  const asideText = aside.length
    ? ` ${entries(aside.map((a) => a.key))} ${aside.length === 1 ? "holds" : "hold"} a temporary name in the ` +
      `service (e.g. "${aside[0]!.name}"), recorded in the state;`
    : "";
  const message =
    `${ctx.what}: ${step} failed: ${(error as Error).message}. Before it, ${deleted} deleted, ${updated} updated and ` +
    `${created} created;${asideText} the state records what the service holds, and \`pulumi up\` again finishes ` +
    `the job (or, with the change reverted, undoes it).`;
  const properties = { ...progress.snapshot(), __provider: ctx.providerRef };
  return new GroupRolesInitError(message, formatGroupId(progress.snapshot().groupId), properties, [message], error);
}
