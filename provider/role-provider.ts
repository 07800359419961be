/**
 * The Role dynamic provider: Pulumi's ResourceProvider methods for one role of a group. Runs in the
 * dynamic-provider host; reads settings at call time (see ./config) and writes through a RoleWriter.
 */
import {
  ConnectionError,
  GroupRolesError,
  NotFoundError,
  ConflictError,
  ServerError,
  TimeoutError,
  UnexpectedReplyError,
  type GroupRolesClient,
} from "./client";
import type { CreatedRole, RoleSummary, RoleUpdateInput } from "./client/types";
import { clientFromConfig, setStackConfig, type ConfigSource } from "./config";
import {
  checkRoleInputs,
  formatRoleId,
  isUnknown,
  parseRoleId,
  toRoleInputs,
  type CheckFailure,
  type RoleInputs,
  type RoleOutputs,
} from "./role-inputs";
import { directWriter, type RoleWriter } from "./role-writes";
import { sameSettings, settingsForUpdate } from "./role-settings";

type Props = Record<string, unknown>;

/** Pulumi's results, by operation (structurally those of `pulumi.dynamic`). */
export interface CheckResult { inputs: Props; failures: CheckFailure[] }
export interface DiffResult { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }
export interface CreateResult { id: string; outs: RoleOutputs }
export interface ReadResult { id: string; props?: RoleOutputs; inputs?: RoleInputs }
export interface UpdateResult { outs: RoleOutputs }

/** An operation on a role failed; the message names the operation and the role. */
export class RoleOperationError extends GroupRolesError {
  constructor(code: string, message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}

/** A create whose outputs could not be confirmed: Pulumi keeps `id` in state as a partial create. */
class RoleInitError extends RoleOperationError {
  constructor(message: string, readonly id: string, readonly properties: RoleOutputs, readonly reasons: string[]) {
    super("ERR_ROLE_NOT_APPLIED", message);
  }
}

let writerFactory: (client: GroupRolesClient) => RoleWriter = directWriter;
const writers = new WeakMap<GroupRolesClient, RoleWriter>();

/** Lets the batching layer take over the write path. */
export function setWriterFactory(factory: (client: GroupRolesClient) => RoleWriter): void {
  writerFactory = factory;
}

function services(): { client: GroupRolesClient; writer: RoleWriter } {
  const client = clientFromConfig();
  let writer = writers.get(client);
  if (!writer) {
    writer = writerFactory(client);
    writers.set(client, writer);
  }
  return { client, writer };
}

function wrap(error: unknown, what: string): Error {
  if (!(error instanceof GroupRolesError)) return error instanceof Error ? error : new Error(String(error));
  return new RoleOperationError(error.code, `${what}: ${error.message}`, error);
}

/** The message for a role that cannot be deleted or replaced because users hold it. */
export function inUseMessage(role: { name: string; groupId: number; roleId: number; userCount?: number }, action: "delete" | "replace"): string {
  const users = role.userCount === undefined ? "users" : `${role.userCount} user${role.userCount === 1 ? "" : "s"}`;
  const verb = action === "delete" ? "deleted" : "replaced (replacing deletes it)";
  return (
    `role "${role.name}" (id ${formatRoleId(role.groupId, role.roleId)}) is in use by ${users} and cannot be ${verb}; nothing was changed. ` +
    `To proceed, unassign its users in the service first, or set the resource option \`retainOnDelete: true\` ` +
    `so Pulumi forgets the role without deleting it, or \`protect: true\` to keep it.`
  );
}

// ---- configure / check / diff ----------------------------------------------------------------------

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(req.config);
}

export async function check(_olds: Props, news: Props): Promise<CheckResult> {
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

export async function diff(id: string, olds: Props, news: Props): Promise<DiffResult> {
  const changed = changedProperties(olds, news);
  const replaces = changed.filter((p) => p === "groupId");
  if (replaces.length && !isUnknown(news.groupId)) await refuseIfInUse(id, olds, "replace");
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

async function refuseIfInUse(id: string, olds: Props, action: "delete" | "replace"): Promise<RoleSummary | undefined> {
  const { groupId, roleId } = parseRoleId(id);
  const entry = await findInList(groupId, roleId, `${action === "delete" ? "deleting" : "replacing"} role "${String(olds.name)}" (id ${id}): checking whether it is in use`);
  if (entry?.inUse) {
    throw new RoleOperationError("ERR_ROLE_IN_USE", inUseMessage({ name: entry.name, groupId, roleId, userCount: entry.userCount }, action));
  }
  return entry;
}

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
    const fresh = (await client.roles.list(groupId)).find((r) => r.roleId === roleId);
    if (fresh) return fresh;
    throw new UnexpectedReplyError(`role ${roleId} has details but is missing from the list of group ${groupId}`, undefined, {
      request: { method: "GET", path: `/api/v0/groups/${groupId}/roles` },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw wrap(error, what);
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

export async function create(props: Props): Promise<CreateResult> {
  const inputs = toRoleInputs(props);
  if (typeof props.importId === "string") return adoptExisting(props.importId, inputs);
  const { groupId, name } = inputs;
  const what = `creating role "${name}" in group ${groupId}`;
  const { writer } = services();
  let created: CreatedRole;
  let adopted = false;
  try {
    created = await writer.create(groupId, {
      name,
      ...(inputs.description !== undefined ? { description: inputs.description } : {}),
      ...(inputs.settings !== undefined ? { settings: inputs.settings } : {}),
    });
  } catch (error) {
    if (error instanceof ConflictError) throw await nameTakenError(inputs, error, what);
    if (!isAmbiguous(error)) throw wrap(error, what);
    created = await adoptAfterLostReply(inputs, error as GroupRolesError, what);
    adopted = true;
  }
  const id = formatRoleId(groupId, created.roleId);
  // From here on the role exists: every failure must keep its ID in state (a partial create), never orphan it.
  const partial = (e: unknown, outs?: RoleOutputs) =>
    new RoleInitError(`${what}: created as ${id}, but ${(e as Error).message}`, id, outs ?? { ...inputs, roleId: created.roleId, inUse: false, userCount: 0 }, [(e as Error).message]);
  // An adopted role is read in full: nobody knows which of its settings the lost request applied.
  let outs = await (adopted ? readBack(groupId, created.roleId, inputs) : afterWrite(groupId, created.roleId, inputs)).catch((e) => {
    throw partial(new Error(`reading it back failed: ${(e as Error).message}`));
  });
  let missing = notApplied(inputs, outs);
  if (missing.length) {
    // An adopted role, or a service that ignored part of the create: converge with an update.
    const before = outs;
    await sendUpdate(groupId, created.roleId, inputs, null).catch((e) => {
      throw partial(new Error(`applying ${missing.join(", ")} failed: ${(e as Error).message}`), before);
    });
    outs = await readBack(groupId, created.roleId, inputs).catch((e) => {
      throw partial(new Error(`reading it back failed: ${(e as Error).message}`), before);
    });
    missing = notApplied(inputs, outs);
  }
  if (missing.length) {
    throw new RoleInitError(`${what}: created as ${id}, but the service did not apply ${missing.join(", ")}`, id, outs, missing);
  }
  return { id, outs };
}

/**
 * The create request may have been applied but its reply was lost. Role names are unique within a
 * group, so the role we made is the one with our name: adopt it rather than create a duplicate.
 */
async function adoptAfterLostReply(inputs: RoleInputs, original: GroupRolesError, what: string): Promise<CreatedRole> {
  let roles: RoleSummary[];
  try {
    roles = await services().writer.list(inputs.groupId);
  } catch (listError) {
    throw new RoleOperationError(
      original.code,
      `${what}: no reply (${original.message}), and listing the group to find out whether it was created failed too ` +
        `(${(listError as Error).message}). Run \`pulumi refresh\` and \`pulumi up\` again; a role named "${inputs.name}" that exists then will be reported, not duplicated.`,
      original,
    );
  }
  let match = roles.find((r) => r.name === inputs.name);
  let waitedMs = 0;
  if (!match && original instanceof TimeoutError && original.phase !== "connect") {
    // A request that timed out may still be in the service's hands and be applied after our list:
    // concluding "nothing was created" now would orphan it, and the re-run would then meet a name
    // conflict. Watch the group for a while before concluding.
    const windowMs = Math.min(Math.max(2 * original.timeoutMs, ADOPTION_WINDOW_FLOOR_MS), ADOPTION_WINDOW_CAP_MS);
    const stepMs = Math.max(50, Math.min(original.timeoutMs / 2, 5_000));
    while (!match && waitedMs < windowMs) {
      await new Promise((r) => setTimeout(r, stepMs));
      waitedMs += stepMs;
      const again = await services().writer.list(inputs.groupId).catch(() => undefined);
      match = again?.find((r) => r.name === inputs.name);
    }
    if (!match) {
      throw new RoleOperationError(
        original.code,
        `${what}: no reply (${original.message}), and ${Math.round(waitedMs)} ms later the group still holds no role named "${inputs.name}". ` +
          `The service may still create it: before running \`pulumi up\` again, check group ${inputs.groupId} (getRoles); if "${inputs.name}" appears, ` +
          `declare it with the resource option \`import: "${inputs.groupId}/<roleId>"\` or delete it.`,
        original,
      );
    }
  }
  if (!match) {
    throw new RoleOperationError(
      original.code,
      `${what}: no reply (${original.message}); the group holds no role named "${inputs.name}", so nothing was created. Run \`pulumi up\` again.`,
      original,
    );
  }
  return { roleId: match.roleId, name: match.name, inUse: match.inUse };
}

/**
 * How long a create that timed out is watched for, after the timeout: twice the timeout, at least 3 s
 * (undici's timers fire up to about a second late, so a short timeout says little), at most 60 s.
 */
const ADOPTION_WINDOW_FLOOR_MS = 3_000;
const ADOPTION_WINDOW_CAP_MS = 60_000;

/** A create refused because the name is taken: say which role holds it and how to adopt it. */
async function nameTakenError(inputs: RoleInputs, error: ConflictError, what: string): Promise<Error> {
  const holder = await services().writer.list(inputs.groupId).then(
    (roles) => roles.find((r) => r.name === inputs.name),
    () => undefined,
  );
  if (!holder) return wrap(error, what);
  const id = formatRoleId(inputs.groupId, holder.roleId);
  return new RoleOperationError(
    "ERR_NAME_TAKEN",
    `${what}: ${error.message}. Group ${inputs.groupId} already has a role named "${inputs.name}" (id ${id}). To manage it with this program, ` +
      `declare it as it is and add the resource option \`import: "${id}"\`; or choose another name.`,
    error,
  );
}

/**
 * The `import` resource option: take over a role created by hand. As Pulumi's import does, the
 * program must describe the role as it is; a difference fails instead of silently changing the role.
 */
async function adoptExisting(importId: string, inputs: RoleInputs): Promise<CreateResult> {
  const { groupId, roleId } = parseRoleId(importId);
  const what = `importing role ${importId}`;
  let outs: RoleOutputs;
  try {
    outs = await readBack(groupId, roleId, inputs);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new RoleOperationError("ERR_NOT_FOUND", `${what}: group ${groupId} has no role with id ${roleId}`, error);
    }
    throw wrap(error, what);
  }
  const differing = notApplied(inputs, outs);
  if (differing.length) {
    throw new RoleOperationError(
      "ERR_IMPORT_MISMATCH",
      `${what}: inputs to import do not match the existing role: ${differing.join(", ")}. Change the program to match the role, import, then change it.`,
    );
  }
  return { id: importId, outs };
}

// ---- read-back ----------------------------------------------------------------------------------------

/**
 * The role as the service holds it now. `declared` says which settings keys the program manages;
 * without it (import, `Role.get`) every setting the service reports is returned.
 */
async function readBack(groupId: number, roleId: number, declared: RoleInputs | undefined): Promise<RoleOutputs> {
  const { client, writer } = services();
  const [details, list] = await Promise.all([client.roles.get(groupId, roleId), writer.list(groupId)]);
  let entry = list.find((r) => r.roleId === roleId);
  if (!entry) {
    // The role exists (its details came back) but the list lacks it: a list taken before the role
    // existed, or a truncated reply. Guessing "not in use" would put a wrong inUse/userCount in state.
    entry = (await client.roles.list(groupId)).find((r) => r.roleId === roleId);
    if (!entry) {
      throw new UnexpectedReplyError(`role ${roleId} has details but is missing from the list of group ${groupId}`, undefined, {
        request: { method: "GET", path: `/api/v0/groups/${groupId}/roles` },
      });
    }
  }
  const outs: RoleOutputs = {
    groupId,
    roleId,
    name: details.name,
    inUse: entry?.inUse ?? false,
    userCount: entry?.userCount ?? (entry?.inUse ? 1 : 0),
  };
  const description = entry?.description ?? details.description;
  if (description !== undefined && (description !== "" || declared?.description !== undefined)) outs.description = description;
  const settings: Record<string, boolean> = {};
  const keys = declared ? Object.keys(declared.settings ?? {}) : Object.keys(details.settings);
  for (const key of keys) {
    const value = details.settings[key];
    if (typeof value === "boolean") settings[key] = value;
  }
  if (declared ? declared.settings !== undefined : keys.length > 0) outs.settings = settings;
  return outs;
}

/**
 * The role's outputs after a write the service confirmed (a 2xx reply, matched to this role). The
 * group's list, shared by every role of the batch (single flight), supplies name, description, inUse
 * and userCount; the managed settings are the ones sent. Arrays are validated and applied as a whole
 * and the service rejects settings it will not apply, so a confirmed write holds them; reading each
 * role's details instead would cost one request per role and undo what batching saves. Drift made
 * later is found by `pulumi refresh`, which reads the details.
 */
async function afterWrite(groupId: number, roleId: number, inputs: RoleInputs): Promise<RoleOutputs> {
  const entry = (await services().writer.list(groupId)).find((r) => r.roleId === roleId);
  // Not listed yet, or a list without descriptions: the details have what is missing.
  if (!entry || entry.description === undefined) return readBack(groupId, roleId, inputs);
  const outs: RoleOutputs = { groupId, roleId, name: entry.name, inUse: entry.inUse, userCount: entry.userCount ?? (entry.inUse ? 1 : 0) };
  if (entry.description !== "" || inputs.description !== undefined) outs.description = entry.description;
  if (inputs.settings !== undefined) outs.settings = { ...inputs.settings };
  return outs;
}

/** Fields the service does not hold as asked, e.g. `settings.viewVideo (sent true, service has false)`. */
function notApplied(inputs: RoleInputs, outs: RoleOutputs): string[] {
  const missing: string[] = [];
  if (outs.name !== inputs.name) missing.push(`name (sent "${inputs.name}", service has "${outs.name}")`);
  if ((inputs.description ?? "") !== (outs.description ?? "")) missing.push(`description`);
  for (const [key, value] of Object.entries(inputs.settings ?? {})) {
    const held = outs.settings?.[key];
    if (held !== value) missing.push(`settings.${key} (sent ${value}, service has ${held === undefined ? "nothing" : held})`);
  }
  return missing;
}

// ---- read --------------------------------------------------------------------------------------------

export async function read(id: string, props: Props): Promise<ReadResult> {
  const { groupId, roleId } = parseRoleId(id);
  // A refresh knows the managed inputs; import and Role.get know only the ID.
  const known = typeof props.name === "string";
  let outs: RoleOutputs;
  try {
    outs = await readBack(groupId, roleId, known ? toRoleInputs({ ...props, groupId }) : undefined);
  } catch (error) {
    // Gone from the service (role or group): an empty ID tells the engine to drop it from state.
    if (error instanceof NotFoundError) return { id: "" };
    throw wrap(error, `reading role ${typeof props.name === "string" ? `"${props.name}" (id ${id})` : id}`);
  }
  if (known) return { id, props: outs };
  const inputs: RoleInputs = { groupId, name: outs.name };
  if (outs.description !== undefined) inputs.description = outs.description;
  if (outs.settings !== undefined) inputs.settings = outs.settings;
  return { id, props: outs, inputs };
}

// ---- update ------------------------------------------------------------------------------------------

/** The settings a details reply holds (the newer API version may carry `null` for "no value"). */
function held(settings: Readonly<Record<string, boolean | null>>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(settings).filter((e): e is [string, boolean] => typeof e[1] === "boolean"));
}

/**
 * Sends one update of a role to `inputs`. The settings map is sent only when the declared settings
 * change (`previouslyDeclared` differs, or is absent for a role this program has never written), and
 * then in full: the role's current settings are read first, so keys the program does not list survive
 * a service that replaces the whole map. An update that leaves settings alone sends none.
 */
async function sendUpdate(
  groupId: number,
  roleId: number,
  inputs: RoleInputs,
  previouslyDeclared: Record<string, unknown> | undefined | null,
): Promise<void> {
  const { client, writer } = services();
  const body: RoleUpdateInput = { roleId, name: inputs.name, description: inputs.description ?? "" };
  const changing = previouslyDeclared === null || !sameSettings(previouslyDeclared, inputs.settings);
  if (changing && (inputs.settings !== undefined || previouslyDeclared)) {
    const current = await client.roles.get(groupId, roleId);
    body.settings = settingsForUpdate(held(current.settings), inputs.settings, previouslyDeclared ?? undefined);
  }
  await writer.update(groupId, body);
}

export async function update(id: string, olds: Props, news: Props): Promise<UpdateResult> {
  const { groupId, roleId } = parseRoleId(id);
  const inputs = toRoleInputs({ ...news, groupId });
  const what = `updating role "${inputs.name}" (id ${id})`;
  try {
    await sendUpdate(groupId, roleId, inputs, (olds.settings ?? undefined) as Record<string, unknown> | undefined);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new RoleOperationError("ERR_NOT_FOUND", `${what}: the role no longer exists in the service; run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again`, error);
    }
    throw wrap(error, what);
  }
  const outs = await afterWrite(groupId, roleId, inputs).catch((e) => {
    throw wrap(e, `${what}: the update was sent, but reading the role back failed (run \`pulumi refresh\`)`);
  });
  const missing = notApplied(inputs, outs);
  if (missing.length) {
    throw new RoleOperationError("ERR_ROLE_NOT_APPLIED", `${what}: the service accepted the update but did not apply ${missing.join(", ")}`);
  }
  return { outs };
}

// ---- delete ------------------------------------------------------------------------------------------

export async function deleteRole(id: string, props: Props): Promise<void> {
  const { groupId, roleId } = parseRoleId(id);
  const entry = await refuseIfInUse(id, props, "delete");
  if (!entry) return; // already gone: nothing to do
  try {
    await services().writer.delete(groupId, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    if (error instanceof ConflictError) {
      // Assigned between our check and the delete (the only conflict a delete can meet).
      throw new RoleOperationError("ERR_ROLE_IN_USE", inUseMessage({ name: entry.name, groupId, roleId }, "delete"), error);
    }
    throw wrap(error, `deleting role "${entry.name}" (id ${id})`);
  }
}
