/**
 * Update of the Role provider: settings read first when they change (so keys the program does not
 * list survive), a name another resource frees first waited for (./name-conflicts).
 */
import { NameTakenError, NotFoundError } from "../../client/status-errors";
import { RoleNotAppliedError, inContext } from "../shared/errors";
import { heldTextFields } from "../../client/role-fields";
import type { RoleUpdateInput } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { writeWithName } from "./name-conflicts";
import { RoleInitError } from "./errors";
import { formatRoleId, parseRoleId, toRoleInputs, unconfirmedGroup, type RoleInputs, type RoleOutputs } from "./inputs";
import { afterWrite, notApplied } from "./readback";
import { isAmbiguous, updateApplied } from "../shared/lost-replies";
import { services } from "./services";
import { heldSettings, sameSettings, settingsForUpdate } from "../shared/settings";
import type { Props } from "../shared/props";
import { record } from "../shared/intent";

/**
 * Sends one update of a role to `inputs`. The settings map is sent only when the declared settings
 * change (`previouslyDeclared` differs, or is null for a role this program has never written), and
 * then in full: the role's current settings are read first, so keys the program does not list survive
 * a service that replaces the whole map. An update that leaves settings alone sends none. A name held
 * by a role this deployment renames away is waited for (see ./name-conflicts).
 */
export async function sendUpdate(
  groupId: number,
  roleId: number,
  inputs: RoleInputs,
  previouslyDeclared: Record<string, unknown> | undefined | null,
  reg: Registration,
  currentName?: string,
): Promise<void> {
  const { client, writer } = services();
  const body: RoleUpdateInput = { roleId, name: inputs.name, ...heldTextFields(inputs) };
  const changing = previouslyDeclared === null || !sameSettings(previouslyDeclared, inputs.settings);
  if (changing && (inputs.settings !== undefined || previouslyDeclared)) {
    const current = await client.roles.get(groupId, roleId);
    body.settings = settingsForUpdate(heldSettings(current.settings), inputs.settings, previouslyDeclared ?? undefined);
  }
  const ledger = deploymentLedger();
  const from = currentName ?? inputs.name;
  const what = `updating role "${inputs.name}" (id ${formatRoleId(groupId, roleId)})`;
  // An update no Diff announced (a provider called directly) declares the role as its Diff would.
  if (!ledger.view(groupId).declared(roleId))
    record(ledger, reg, {
      groupId,
      by: "role",
      declares: [{ kind: "keep", at: what, roleId, name: from, plannedName: inputs.name }],
    });
  let nameNow = from;
  try {
    await writeWithName({
      groupId,
      wanted: inputs.name,
      what,
      list: () => writer.list(groupId),
      write: () =>
        writer.update(groupId, body).catch(async (error: unknown) => {
          // Every reply lost: done if the role reads back as sent (state must say what the service holds).
          if (isAmbiguous(error) && (await updateApplied(client, groupId, [body]))) return;
          throw error;
        }),
      self: { roleId },
      reg,
    });
    nameNow = inputs.name;
  } finally {
    ledger.noteName(groupId, roleId, nameNow, true);
  }
}

/** The update of role `id`, as the step of registration `reg` (see the ledger). */
export async function update(id: string, olds: Props, news: Props, reg: Registration) {
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
    await sendUpdate(
      groupId,
      roleId,
      inputs,
      (olds.settings ?? undefined) as Record<string, unknown> | undefined,
      reg,
      String(olds.name),
    );
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw error.rephrase(
        `${what}: the service answered 404 (${error.message}). If the role was deleted in the service, ` +
          `\`pulumi refresh\` drops it from state and \`pulumi up\` then creates it again; if every request answers ` +
          `404, check grouproles:baseUrl`,
      );
    }
    throw error instanceof NameTakenError ? error : inContext(error, what);
  }
  const outs = await afterWrite(groupId, roleId, inputs).catch((e) => {
    // The service accepted the update (arrays apply as a whole): state must record it, so this is a
    // partial update (Pulumi's init error) holding what was sent, with the users last known.
    const message = `${what}: the update was applied, but reading the role back failed: ${(e as Error).message}`;
    const sent: RoleOutputs = {
      ...inputs,
      roleId,
      inUse: olds.inUse === true,
      userCount: typeof olds.userCount === "number" ? olds.userCount : 0,
    };
    throw new RoleInitError(message, id, { ...sent, __provider: news.__provider ?? olds.__provider }, [message]);
  });
  const missing = notApplied(inputs, outs);
  if (missing.length) {
    throw new RoleNotAppliedError(`${what}: the service accepted the update but did not apply ${missing.join(", ")}`);
  }
  return { outs };
}
