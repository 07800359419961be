/**
 * Create of the Role provider: a new role, or the one an import names, or the one a lost reply or an
 * unconfirmed earlier create made (see ./adoption). Once the role exists, every failure keeps
 * its ID in state as a partial create, so nothing is orphaned.
 */
import { type ConflictError, NameTakenError } from "../../client/status-errors";
import { textFieldsOf } from "../../client/role-fields";
import type { CreatedRole, RoleSummary } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { nameTaken, writeWithName } from "./name-conflicts";
import { isAmbiguous } from "../shared/lost-replies";
import { adoptAfterLostReply, adoptImported, findUnconfirmed } from "./adoption";
import { inContext } from "../shared/errors";
import { RoleInitError } from "./errors";
import { formatRoleId, toRoleInputs, type RoleInputs, type RoleOutputs } from "./inputs";
import { afterWrite, createdOutputs, notApplied, readBack } from "./readback";
import { services } from "./services";
import { sendUpdate } from "./update";
import type { Props } from "../shared/props";

/** The create of a role, as the step of registration `reg` (see the ledger). */
export async function create(props: Props, reg: Registration): Promise<{ id: string; outs: RoleOutputs }> {
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
  if (!created)
    try {
      created = await writeWithName({
        groupId,
        wanted: name,
        what,
        reg,
        list: () => writer.list(groupId),
        write: () => writer.create(groupId, createBody(inputs)),
        undeclared: (holder, conflict) => nameTakenError(inputs, holder, conflict, what),
      });
    } catch (error) {
      if (isAmbiguous(error)) {
        created = await adoptAfterLostReply(inputs, error, what, props.__provider);
        adopted = true;
      } else {
        throw error instanceof NameTakenError ? error : inContext(error, what);
      }
    }
  const made = created;
  // A role taken over rather than made may be another resource's (a renamed resource adopting the role
  // of its old name): that resource's delete, later in this deployment, must leave it alone.
  if (adopted) deploymentLedger().noteClaimed(groupId, made.roleId);
  else deploymentLedger().noteMade(groupId, made.roleId);
  const id = formatRoleId(groupId, made.roleId);
  // From here on the role exists: every failure must keep its ID in state (a partial create), never orphan it.
  const partial = (message: string, outs?: RoleOutputs) => {
    const full = `${what}: created as ${id}, but ${message}`;
    const properties = {
      ...(outs ?? { ...inputs, roleId: made.roleId, inUse: false, userCount: 0 }),
      __provider: props.__provider,
    };
    return new RoleInitError(full, id, properties, [full]);
  };
  // An adopted role is read in full: nobody knows which of its settings the lost request applied. A
  // role the reply says nobody holds needs no read at all: the confirmed create holds what was sent.
  const readOuts = async () => {
    if (adopted) return readBack(groupId, made.roleId, inputs);
    return made.inUse === false ? createdOutputs(inputs, made.roleId) : afterWrite(groupId, made.roleId, inputs);
  };
  let outs = await readOuts().catch((e) => {
    throw partial(`reading it back failed: ${(e as Error).message}`);
  });
  let missing = notApplied(inputs, outs);
  if (missing.length) {
    // An adopted role, or a service that ignored part of the create: converge with an update.
    const before = outs;
    await sendUpdate(groupId, made.roleId, inputs, null, reg).catch((e) => {
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
  ...textFieldsOf(inputs),
  ...(inputs.settings !== undefined ? { settings: inputs.settings } : {}),
});

/** A create refused because the name is taken by a role this deployment does not rename away. */
function nameTakenError(inputs: RoleInputs, holder: RoleSummary, error: ConflictError, what: string): Error {
  const id = formatRoleId(inputs.groupId, holder.roleId);
  const view = deploymentLedger().view(inputs.groupId);
  if (view.ofThisProgram(holder.roleId)) {
    // Importing it would put one role under two resources of this program.
    return nameTaken(
      `${what}: ${error.message}. Group ${inputs.groupId} already has a role named "${inputs.name}" (id ${id}), ` +
        `which another resource of this program (a GroupRoles entry or a Role) declares. Role names are unique ` +
        `within a group: declare each role in one resource only. To move that role to this Role, remove it from ` +
        `the other resource in the same change, declare it here with the resource option \`import\` (its ID is ` +
        `${id}), and make that resource register after this Role (\`dependsOn\`).`,
      error,
    );
  }
  return nameTaken(
    `${what}: ${error.message}. Group ${inputs.groupId} already has a role named "${inputs.name}" (id ${id}). ` +
      `If it belongs to a resource of this program that you renamed or moved (Pulumi is about to delete the old ` +
      `resource), keep the role with the resource option \`aliases: [{ name: "<old resource name>" }]\` on the ` +
      `renamed resource. If it was made outside this program, declare it as it is with the resource option ` +
      `\`import: "${id}"\` to manage it. Or choose another name.`,
    error,
  );
}
