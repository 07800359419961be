/**
 * Taking over a role that exists instead of creating one: the role a create made when its reply was
 * lost, a role the `import` option names, and the role an unconfirmed create of an earlier run made.
 * Names are unique within a group, so the role we made is the one with the name we sent; a role is
 * adopted by name only with evidence that this stack sent that create.
 */
import type { GroupRolesError } from "../../client/errors";
import { NotFoundError } from "../../client/status-errors";
import { ImportMismatchError, inContext } from "../shared/errors";
import type { CreatedRole, RoleSummary } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import { engineLog } from "../shared/engine-log";
import type { CheckFailure } from "../shared/fields";
import { previewListing } from "../shared/preview-listing";
import { RoleInitError } from "./errors";
import { sentence } from "./held-names";
import { parseRoleId, unconfirmedId, type RoleInputs, type RoleOutputs } from "./inputs";
import { notApplied, readBack } from "./readback";
import { services } from "./services";
import { listSettlingCreate, stillPending } from "../shared/lost-replies";

/**
 * The create request may have been applied but its reply was lost: adopt the role with our name
 * rather than create a duplicate. When the group cannot even be listed, nobody knows whether the role
 * exists: the create is recorded as a partial create with an unconfirmed ID (and `__provider`), so the
 * next `pulumi up` settles it from that record instead of guessing.
 */
export async function adoptAfterLostReply(
  inputs: RoleInputs,
  original: GroupRolesError,
  what: string,
  providerRef: unknown,
): Promise<CreatedRole> {
  let roles: RoleSummary[];
  try {
    const named = (listed: readonly RoleSummary[]) => listed.some((r) => r.name === inputs.name);
    roles = await listSettlingCreate(() => services().writer.list(inputs.groupId), named, original);
  } catch (listError) {
    const message =
      `${what}: no reply (${original.message}), and listing the group to find out whether it was created failed too ` +
      `(${(listError as Error).message}). Pulumi keeps the role in state as unconfirmed; the next \`pulumi up\` ` +
      `adopts it if it was created, or creates it.`;
    const properties = { ...inputs, roleId: 0, inUse: false, userCount: 0, __provider: providerRef };
    throw new RoleInitError(message, unconfirmedId(inputs.groupId), properties, [message]);
  }
  const match = roles.find((r) => r.name === inputs.name);
  if (!match && stillPending(original)) {
    // A request that timed out may still be in the service's hands and be applied after our list:
    // concluding "nothing was created" would orphan it (and the re-run would meet a name conflict).
    // Nobody can know when it will be applied, so nothing is guessed: the create is kept unconfirmed.
    const message =
      `${what}: no reply (${original.message}), and the group holds no role named "${inputs.name}" yet; the service ` +
      "may still create it. Pulumi keeps the role in state as unconfirmed; the next `pulumi up` adopts it if it " +
      "was created, or creates it.";
    const properties = { ...inputs, roleId: 0, inUse: false, userCount: 0, __provider: providerRef };
    throw new RoleInitError(message, unconfirmedId(inputs.groupId), properties, [message]);
  }
  if (!match) {
    throw original.rephrase(
      `${what}: no reply (${original.message}); the group holds no role named "${inputs.name}", so nothing was created. ` +
        `Run \`pulumi up\` again.`,
    );
  }
  return { roleId: match.roleId, name: match.name, inUse: match.inUse };
}

/**
 * The role an unconfirmed create of an earlier run made, if it exists, for the create that replaces
 * that state record: the same group, the name that create sent. Undefined when it was not made.
 */
export async function findUnconfirmed(inputs: RoleInputs): Promise<CreatedRole | undefined> {
  const evidence = deploymentLedger().takeUnconfirmed(inputs.groupId, inputs.name);
  if (!evidence || evidence.groupId !== inputs.groupId) return undefined;
  const made = (await services().writer.list(evidence.groupId)).find((r) => r.name === evidence.name);
  return made && { roleId: made.roleId, name: made.name, inUse: made.inUse };
}

/**
 * The `import` resource option: take over a role created by hand. As Pulumi's import does, the
 * program must describe the role as it is; a difference fails instead of silently changing the role.
 */
export async function adoptImported(importId: string, inputs: RoleInputs): Promise<{ id: string; outs: RoleOutputs }> {
  const { groupId, roleId } = parseRoleId(importId);
  const what = `importing role ${importId}`;
  let outs: RoleOutputs;
  try {
    outs = await readBack(groupId, roleId, inputs);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw error.rephrase(`${what}: group ${groupId} has no role with id ${roleId}`);
    }
    throw inContext(error, what);
  }
  const differing = notApplied(inputs, outs);
  if (differing.length) {
    throw new ImportMismatchError(
      `${what}: inputs to import do not match the existing role: ${differing.join(", ")}. Change the program to match ` +
        `the role, import, then change it.`,
    );
  }
  deploymentLedger().noteClaimed(groupId, roleId);
  return { id: importId, outs };
}

/**
 * The `import` option in the preview (a create's Check): the plan can only show `+ create` with an
 * `importId` line (issue 53), so it says what the create does, from the group's list the Check takes
 * anyway (no extra request): the role taken over, its ID and users; and what the import would refuse at
 * `up` that the list shows (no such role, another name) fails the preview instead. Not listed (the
 * group cannot be read): left to the create, with its own messages.
 */
export async function importPreview(
  groupId: number,
  roleId: number,
  name: string,
  described: string,
  urn: string | undefined,
): Promise<CheckFailure[]> {
  const { roles } = await previewListing(groupId);
  if (!roles) return [];
  const what = `importing role ${groupId}/${roleId}`;
  const role = roles.find((r) => r.roleId === roleId);
  if (!role) return [{ property: "importId", reason: `${what}: group ${groupId} has no role with id ${roleId}` }];
  if (role.name !== name)
    return [
      {
        property: "name",
        reason:
          `${what}: inputs to import do not match the existing role: name ("${role.name}" in the service). ` +
          "Change the program to match the role, import, then change it.",
      },
    ];
  const users = !role.inUse ? "no users" : `${role.userCount ?? "some"} user${role.userCount === 1 ? "" : "s"}`;
  await engineLog(
    "info",
    `${sentence(described)} takes over role "${name}" (id ${groupId}/${roleId}, ${users}) from the service: the \`+ create\` ` +
      "of this plan creates nothing, and the role keeps its ID and users.",
    urn,
  );
  return [];
}
