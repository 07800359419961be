/**
 * The Role's Read: `pulumi refresh`, `pulumi import` and `Role.get` (the role as the service holds it,
 * or gone), and the settling of a create an earlier run never confirmed.
 */
import { NotFoundError } from "../../client/status-errors";
import { setTextFields } from "../../client/role-fields";
import { inContext } from "../shared/errors";
import { confirmRoleGone } from "../shared/gone";
import {
  formatRoleId,
  parseRoleId,
  toRoleInputs,
  unconfirmedGroup,
  type RoleInputs,
  type RoleOutputs,
  type RoleStateProps,
} from "./inputs";
import { readBack } from "./readback";
import { services } from "./services";
import type { Props } from "../shared/props";

export async function read(
  id: string,
  props: RoleStateProps = {},
): Promise<{ id: string; props?: RoleOutputs; inputs?: RoleInputs }> {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) return readUnconfirmed(unconfirmed, props);
  const { groupId, roleId } = parseRoleId(id);
  // A refresh knows the managed inputs; import and Role.get know only the ID.
  const known = typeof props.name === "string";
  let outs: RoleOutputs;
  const what = `reading role ${typeof props.name === "string" ? `"${props.name}" (id ${id})` : id}`;
  try {
    outs = await readBack(groupId, roleId, known ? toRoleInputs({ ...props, groupId }) : undefined);
  } catch (error) {
    // Gone from the service (role or group), as the service shows it (../shared/gone): an empty ID tells the
    // engine to drop it from state. A 404 that proves nothing (a wrong URL) is an error.
    if (error instanceof NotFoundError && (await confirmRoleGone(services().client, groupId, roleId, error, what)))
      return { id: "" };
    throw inContext(error, what);
  }
  if (known) return { id, props: outs };
  // An import: the outputs hold every setting; the inputs (what `pulumi import` writes) declare none,
  // so the program manages only the settings it lists (see ../plugin/declared-settings).
  const inputs: RoleInputs = { groupId, name: outs.name, ...setTextFields(outs) };
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
