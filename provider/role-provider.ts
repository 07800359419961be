/**
 * The Role dynamic provider: Pulumi's ResourceProvider methods for one role of a group. Runs in the
 * dynamic-provider host; reads settings at call time (see ./config) and writes through the writer of
 * ./role-services, which batches the writes of every resource of the deployment.
 */
import {
  ConflictError,
  ConnectionError,
  GroupRolesError,
  NameTakenError,
  NotFoundError,
  RoleInUseError,
  RoleNotAppliedError,
  ServerError,
  TimeoutError,
  UnexpectedReplyError,
} from "../client/errors";
import type { CreatedRole, RoleSummary, RoleUpdateInput } from "../client/types";
import type { dynamic } from "@pulumi/pulumi";
import { setStackConfig, type ConfigSource } from "./config";
import { deploymentLedger } from "./deployment-ledger";
import { nameTaken, writeWithName } from "./name-conflicts";
import { adoptAfterLostReply, adoptImported, findUnconfirmed } from "./role-adoption";
import { RoleInitError, inContext, inUseDeleteMessage, inUseReplaceMessage } from "./role-errors";
import {
  checkRoleInputs,
  formatRoleId,
  isUnknown,
  parseRoleId,
  toRoleInputs,
  unconfirmedGroup,
  type RoleInputs,
  type RoleOutputs,
} from "./role-inputs";
import { afterWrite, listedEntry, notApplied, readBack } from "./role-readback";
import { services } from "./role-services";
import { sameSettings, settingsForUpdate } from "./role-settings";

type Props = Record<string, unknown>;


// ---- configure / check / diff ----------------------------------------------------------------------

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(req.config);
}

export async function check(_olds: Props, news: Props) {
  return { inputs: news, failures: checkRoleInputs(news) };
}

/** Which inputs differ. Cheap: no request, except to refuse replacing an in-use role. */
export function changedProperties(olds: Props, news: Props): string[] {
  const changed: string[] = [];
  if (isUnknown(news.groupId) || olds.groupId !== news.groupId) changed.push("groupId");
  if (isUnknown(news.name) || olds.name !== news.name) changed.push("name");
  if (isUnknown(news.description) || (olds.description ?? "") !== (news.description ?? "")) changed.push("description");
  if (!sameSettings(olds.settings, news.settings)) changed.push("settings");
  return changed;
}

export async function diff(id: string, olds: Props, news: Props) {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) {
    // A create of an earlier run that was never confirmed: replace the record with a create that
    // adopts the role if that run made it (see findUnconfirmed), and deletes it otherwise.
    if (typeof news.groupId === "number" && typeof news.name === "string") {
      deploymentLedger().noteUnconfirmed(news.groupId, news.name, { groupId: unconfirmed, name: String(olds.name) });
    }
    return { changes: true, replaces: ["roleId"], deleteBeforeReplace: false };
  }
  const changed = changedProperties(olds, news);
  const replaces = changed.filter((p) => p === "groupId");
  if (replaces.length && !isUnknown(news.groupId)) await refuseReplaceIfInUse(id, olds, news.groupId);
  if (!replaces.length && typeof olds.name === "string" && typeof news.name === "string") {
    // Every existing role of the program is diffed as it registers: what a rename elsewhere can wait for.
    const { groupId, roleId } = parseRoleId(id);
    deploymentLedger().declare(groupId, roleId, { currentName: olds.name, plannedName: news.name });
  }
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

async function refuseReplaceIfInUse(id: string, olds: Props, newGroupId: unknown): Promise<void> {
  const { groupId, roleId } = parseRoleId(id);
  const entry = await findInList(groupId, roleId, `replacing role "${String(olds.name)}" (id ${id}): checking whether it is in use`);
  if (entry?.inUse) {
    throw new RoleInUseError(inUseReplaceMessage({ ...entry, groupId }, newGroupId));
  }
}

/** The role's list entry, or undefined when it is certainly gone (absent from the list, and 404). */
async function findInList(groupId: number, roleId: number, what: string): Promise<RoleSummary | undefined> {
  try {
    const { client, writer } = services();
    const entry = (await writer.list(groupId)).find((r) => r.roleId === roleId);
    if (entry) return entry;
    // Absent from the list. Callers act on "gone" (a delete drops the role from state), so confirm it:
    // a truncated list must not make a role that still exists look deleted.
    try {
      await client.roles.get(groupId, roleId);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
    return await listedEntry(groupId, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw inContext(error, what);
  }
}

// ---- create ------------------------------------------------------------------------------------------

/** True when the request may have been applied although no usable reply came back. */
function isAmbiguous(error: unknown): boolean {
  return (
    (error instanceof ConnectionError && error.requestSent) ||
    (error instanceof TimeoutError && error.phase !== "connect") ||
    error instanceof ServerError ||
    error instanceof UnexpectedReplyError
  );
}

export async function create(props: Props): Promise<{ id: string; outs: RoleOutputs }> {
  const inputs = toRoleInputs(props);
  if (typeof props.importId === "string") return adoptImported(props.importId, inputs);
  const { groupId, name } = inputs;
  const what = `creating role "${name}" in group ${groupId}`;
  const { writer } = services();
  // An earlier run's unconfirmed create that this create replaces: adopt the role it made, if any.
  let created: CreatedRole | undefined = await findUnconfirmed(inputs).catch((e) => {
    throw inContext(e, `${what}: looking for the role an earlier, unconfirmed create may have made`);
  });
  let adopted = created !== undefined;
  if (!created) try {
    created = await writeWithName({
      groupId,
      wanted: name,
      what,
      list: () => writer.list(groupId),
      write: () => writer.create(groupId, createBody(inputs)),
      undeclared: (holder, conflict) => nameTakenError(inputs, holder, conflict, what),
    });
  } catch (error) {
    if (error instanceof GroupRolesError && isAmbiguous(error)) {
      created = await adoptAfterLostReply(inputs, error, what, props.__provider);
      adopted = true;
    } else {
      throw error instanceof NameTakenError ? error : inContext(error, what);
    }
  }
  const made = created;
  // A role taken over rather than made may be another resource's (a renamed resource adopting the role
  // of its old name): that resource's delete, later in this deployment, must leave it alone.
  if (adopted) deploymentLedger().claim(groupId, made.roleId);
  else deploymentLedger().noteMade(groupId, made.roleId);
  const id = formatRoleId(groupId, made.roleId);
  // From here on the role exists: every failure must keep its ID in state (a partial create), never orphan it.
  const partial = (message: string, outs?: RoleOutputs) => {
    const full = `${what}: created as ${id}, but ${message}`;
    const properties = { ...(outs ?? { ...inputs, roleId: made.roleId, inUse: false, userCount: 0 }), __provider: props.__provider };
    return new RoleInitError(full, id, properties, [full]);
  };
  // An adopted role is read in full: nobody knows which of its settings the lost request applied.
  let outs = await (adopted ? readBack(groupId, made.roleId, inputs) : afterWrite(groupId, made.roleId, inputs)).catch((e) => {
    throw partial(`reading it back failed: ${(e as Error).message}`);
  });
  let missing = notApplied(inputs, outs);
  if (missing.length) {
    // An adopted role, or a service that ignored part of the create: converge with an update.
    const before = outs;
    await sendUpdate(groupId, made.roleId, inputs, null).catch((e) => {
      throw partial(`applying ${missing.join(", ")} failed: ${(e as Error).message}`, before);
    });
    outs = await readBack(groupId, made.roleId, inputs).catch((e) => {
      throw partial(`reading it back failed: ${(e as Error).message}`, before);
    });
    missing = notApplied(inputs, outs);
  }
  if (missing.length) throw partial(`the service did not apply ${missing.join(", ")}`, outs);
  return { id, outs };
}

const createBody = (inputs: RoleInputs) => ({
  name: inputs.name,
  ...(inputs.description !== undefined ? { description: inputs.description } : {}),
  ...(inputs.settings !== undefined ? { settings: inputs.settings } : {}),
});

/** A create refused because the name is taken by a role this deployment does not rename away. */
function nameTakenError(inputs: RoleInputs, holder: RoleSummary, error: ConflictError, what: string): Error {
  const id = formatRoleId(inputs.groupId, holder.roleId);
  return nameTaken(
    `${what}: ${error.message}. Group ${inputs.groupId} already has a role named "${inputs.name}" (id ${id}). ` +
      `If it belongs to a resource of this program that you renamed or moved (Pulumi is about to delete the old ` +
      `resource), keep the role with the resource option \`aliases: [{ name: "<old resource name>" }]\` on the ` +
      `renamed resource. If it was made outside this program, declare it as it is with the resource option ` +
      `\`import: "${id}"\` to manage it. Or choose another name.`,
    error,
  );
}

// ---- read --------------------------------------------------------------------------------------------

export async function read(id: string, props: Props = {}): Promise<{ id: string; props?: RoleOutputs; inputs?: RoleInputs }> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return readUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A refresh knows the managed inputs; import and Role.get know only the ID.
  const known = typeof props.name === "string";
  let outs: RoleOutputs;
  try {
    outs = await readBack(groupId, roleId, known ? toRoleInputs({ ...props, groupId }) : undefined);
  } catch (error) {
    // Gone from the service (role or group): an empty ID tells the engine to drop it from state.
    if (error instanceof NotFoundError) return { id: "" };
    throw inContext(error, `reading role ${typeof props.name === "string" ? `"${props.name}" (id ${id})` : id}`);
  }
  if (known) return { id, props: outs };
  const inputs: RoleInputs = { groupId, name: outs.name };
  if (outs.description !== undefined) inputs.description = outs.description;
  if (outs.settings !== undefined) inputs.settings = outs.settings;
  return { id, props: outs, inputs };
}

/** `pulumi refresh` settles an unconfirmed create: the role it made, under its real ID, or gone. */
async function readUnconfirmed(groupId: number, props: Props) {
  const what = `reading role "${String(props.name)}" (create unconfirmed)`;
  const made = await services()
    .writer.list(groupId)
    .then((roles) => roles.find((r) => r.name === props.name))
    .catch((e) => {
      throw inContext(e, what);
    });
  if (!made) return { id: "" };
  return read(formatRoleId(groupId, made.roleId), props);
}

// ---- update ------------------------------------------------------------------------------------------

/** The settings a details reply holds (the newer API version may carry `null` for "no value"). */
function held(settings: Readonly<Record<string, boolean | null>>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(settings).filter((e): e is [string, boolean] => typeof e[1] === "boolean"));
}

/**
 * Sends one update of a role to `inputs`. The settings map is sent only when the declared settings
 * change (`previouslyDeclared` differs, or is null for a role this program has never written), and
 * then in full: the role's current settings are read first, so keys the program does not list survive
 * a service that replaces the whole map. An update that leaves settings alone sends none. A name held
 * by a role this deployment renames away is waited for (see ./name-conflicts).
 */
async function sendUpdate(
  groupId: number,
  roleId: number,
  inputs: RoleInputs,
  previouslyDeclared: Record<string, unknown> | undefined | null,
  currentName?: string,
): Promise<void> {
  const { client, writer } = services();
  const body: RoleUpdateInput = { roleId, name: inputs.name, description: inputs.description ?? "" };
  const changing = previouslyDeclared === null || !sameSettings(previouslyDeclared, inputs.settings);
  if (changing && (inputs.settings !== undefined || previouslyDeclared)) {
    const current = await client.roles.get(groupId, roleId);
    body.settings = settingsForUpdate(held(current.settings), inputs.settings, previouslyDeclared ?? undefined);
  }
  const ledger = deploymentLedger();
  const from = currentName ?? inputs.name;
  ledger.declare(groupId, roleId, { currentName: from, plannedName: inputs.name });
  let nameNow = from;
  try {
    await writeWithName({
      groupId,
      wanted: inputs.name,
      what: `updating role "${inputs.name}" (id ${formatRoleId(groupId, roleId)})`,
      list: () => writer.list(groupId),
      write: () => writer.update(groupId, body),
      self: {
        roleId,
        currentName: from,
        stepAside: async (temporary) => {
          await client.roles.update(groupId, [{ roleId, name: temporary, description: body.description ?? "" }]);
          nameNow = temporary;
        },
      },
    });
    nameNow = inputs.name;
  } catch (error) {
    if (nameNow !== from) nameNow = await restoreName(groupId, roleId, from, body.description ?? "", nameNow);
    throw error;
  } finally {
    ledger.renamed(groupId, roleId, nameNow, true);
  }
}

/** Gives back a role its name after it stepped aside for a swap that did not complete; best effort. */
async function restoreName(groupId: number, roleId: number, name: string, description: string, temporary: string): Promise<string> {
  try {
    await services().client.roles.update(groupId, [{ roleId, name, description }]);
    return name;
  } catch {
    return temporary; // the next `pulumi up` renames it from the state's name, as any drift
  }
}

export async function update(id: string, olds: Props, news: Props) {
  if (unconfirmedGroup(id) !== undefined) {
    throw new RoleNotAppliedError(
      `updating role "${String(news.name)}" (id ${id}): its create was never confirmed; run \`pulumi up\` without ` +
        `ignoreChanges on it (the create is settled by a replacement) or \`pulumi refresh\``,
    );
  }
  const { groupId, roleId } = parseRoleId(id);
  const inputs = toRoleInputs({ ...news, groupId });
  const what = `updating role "${inputs.name}" (id ${id})`;
  try {
    await sendUpdate(groupId, roleId, inputs, (olds.settings ?? undefined) as Record<string, unknown> | undefined, String(olds.name));
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw error.rephrase(
        `${what}: the role no longer exists in the service; run \`pulumi refresh\` to drop it from state, then ` +
          `\`pulumi up\` to create it again`,
      );
    }
    throw error instanceof NameTakenError ? error : inContext(error, what);
  }
  const outs = await afterWrite(groupId, roleId, inputs).catch((e) => {
    throw inContext(e, `${what}: the update was sent, but reading the role back failed (run \`pulumi refresh\`)`);
  });
  const missing = notApplied(inputs, outs);
  if (missing.length) {
    throw new RoleNotAppliedError(`${what}: the service accepted the update but did not apply ${missing.join(", ")}`);
  }
  return { outs };
}

// ---- delete ------------------------------------------------------------------------------------------

export async function deleteRole(id: string, props: Props): Promise<void> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return deleteUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A resource of this deployment adopted this role (a renamed resource with `import`, an unconfirmed
  // create settled by its replacement): it is theirs now, not this resource's to delete.
  if (deploymentLedger().isClaimed(groupId, roleId)) return;
  const entry = await findInList(groupId, roleId, `deleting role "${String(props.name)}" (id ${id}): checking whether it is in use`);
  if (!entry) return; // already gone: nothing to do
  if (entry.inUse) throw new RoleInUseError(inUseDeleteMessage({ ...entry, groupId }));
  try {
    await services().writer.delete(groupId, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    if (error instanceof ConflictError) {
      // Assigned between our check and the delete (the only conflict a delete can meet).
      throw new RoleInUseError(inUseDeleteMessage({ name: entry.name, groupId, roleId }), { cause: error, status: 409 });
    }
    throw inContext(error, `deleting role "${entry.name}" (id ${id})`);
  }
}

/**
 * The record of an unconfirmed create goes: with the role that create made, if it made one. Found by
 * name, so a role a create of this deployment made or adopted (its replacement's) is never taken.
 */
async function deleteUnconfirmed(groupId: number, props: Props): Promise<void> {
  const ledger = deploymentLedger();
  const made = await services()
    .writer.list(groupId)
    .then((roles) => roles.find((r) => r.name === props.name && !ledger.isOfThisDeployment(groupId, r.roleId)))
    .catch((e) => {
      throw inContext(e, `deleting role "${String(props.name)}" (create unconfirmed)`);
    });
  if (made) await deleteRole(formatRoleId(groupId, made.roleId), props);
}

/**
 * The Role resource's dynamic provider, as the dynamic-provider host calls it. `satisfies` proves the
 * methods fit Pulumi's `ResourceProvider` while keeping their precise result types.
 */
export const roleProvider = {
  configure,
  check,
  diff,
  create,
  read,
  update,
  delete: deleteRole,
} satisfies dynamic.ResourceProvider<Props, Props>;
