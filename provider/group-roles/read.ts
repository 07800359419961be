/**
 * `read` of GroupRoles (`pulumi refresh`): one list of the group, then one detail GET per managed
 * role, all at once within the client's request budget. A role gone from the service (its details
 * answer 404) leaves the state (the next `up` creates it again); a role the list leaves out but the
 * service still has fails the refresh; a hand edit shows as drift.
 */
import { NotFoundError } from "../../client/status-errors";
import { textFromReplies } from "../../client/role-fields";
import type { RoleDetails } from "../../client/types";
import { clientFromConfig } from "../../config/stack-config";
import { inContext } from "../shared/errors";
import { heldSettings } from "../shared/settings";
import { userCountOf } from "../shared/user-count";
import { confirmRoleGone } from "../shared/gone";
import { confirmAbsentRoleGone } from "../shared/absent-role";
import { listGroup } from "./listing";
import { readWholeGroup } from "./import";
import {
  formatGroupId,
  parseGroupId,
  toState,
  type EntryState,
  type GroupRolesInputs,
  type GroupRolesState,
  type GroupRolesStateProps,
} from "./types";

/** The declared keys of `declared` with the values `details` holds. */
function declaredValues(details: RoleDetails, declared: Record<string, boolean>): Record<string, boolean> {
  const held = heldSettings(details.settings);
  return Object.fromEntries(
    Object.keys(declared)
      .filter((k) => Object.hasOwn(held, k))
      .map((k) => [k, held[k]!]),
  );
}

export async function read(
  id: string,
  props: GroupRolesStateProps = {},
): Promise<{ id: string; props?: GroupRolesState; inputs?: GroupRolesInputs }> {
  const groupId = parseGroupId(id);
  const client = clientFromConfig();
  const what = `reading the roles of group ${groupId}`;
  const listed = await listGroup(client, groupId, what);
  if (!listed) return { id: "" }; // the group is gone: drop the resource
  // An import (`pulumi import`, the `import` option) or a `get` knows only the ID: the whole group.
  if (props.roles === undefined) return readWholeGroup(client, groupId, listed, what);
  const state = toState({ ...props, groupId });
  const byId = new Map(listed.map((r) => [r.roleId, r]));
  const byName = new Map(listed.map((r) => [r.name, r]));
  const managed = new Set(Object.values(state.roles).map((r) => r.roleId));
  // An unconfirmed create (a lost reply): the role holding the name it sent is the one it made.
  const wanted: Array<[string, Pick<EntryState, "roleId" | "settings" | "retain">]> = Object.entries(state.roles);
  for (const [key, sent] of Object.entries(state.unconfirmed ?? {})) {
    const made = byName.get(sent);
    if (made && !managed.has(made.roleId)) wanted.push([key, { roleId: made.roleId, settings: {} }]);
  }
  const read = await Promise.all(
    wanted.map(async ([key, known]): Promise<[string, EntryState] | undefined> => {
      const listedRole = byId.get(known.roleId);
      if (!listedRole) {
        // Left out of the list: gone only if its own detail read says so (../shared/absent-role).
        await confirmAbsentRoleGone(client, groupId, known.roleId, `${what}: roles.${key}`);
        return undefined;
      }
      let details: RoleDetails;
      try {
        details = await client.roles.get(groupId, known.roleId);
      } catch (error) {
        const at = `${what}: role ${known.roleId} (roles.${key})`;
        // Deleted since the list, if a fresh list says so (../shared/gone); a 404 alone proves nothing.
        if (error instanceof NotFoundError && (await confirmRoleGone(client, groupId, known.roleId, error, at)))
          return undefined;
        throw inContext(error, at);
      }
      const role: EntryState = {
        ...textFromReplies(details, listedRole),
        roleId: known.roleId,
        name: details.name,
        settings: declaredValues(details, known.settings ?? {}),
        inUse: listedRole.inUse,
        userCount: userCountOf(listedRole),
      };
      if (known.retain) role.retain = true;
      return [key, role];
    }),
  );
  const roles = Object.fromEntries(read.filter((r): r is [string, EntryState] => r !== undefined));
  const appliedNames = renamedOutside(state, roles);
  // What the service cannot tell (the program's `exclusive`) stays as the state had it: dropped, a refresh
  // of an unchanged exclusive catalogue read as drift, and `preview --refresh --expect-no-changes` failed.
  return {
    id: formatGroupId(groupId),
    props: {
      groupId,
      roles,
      ...(Object.keys(appliedNames).length ? { appliedNames } : {}),
      ...(state.exclusive ? { exclusive: true as const } : {}),
    },
  };
}

/**
 * The entries whose role the service now names otherwise than this resource last named it (a rename
 * outside the program): key to that last name, which the state would otherwise lose (./renamed-keys).
 */
function renamedOutside(state: GroupRolesState, read: Record<string, EntryState>): Record<string, string> {
  const applied: Record<string, string> = {};
  for (const [key, role] of Object.entries(read)) {
    const last = state.appliedNames?.[key] ?? state.roles[key]?.name;
    if (last !== undefined && last !== role.name) applied[key] = last;
  }
  return applied;
}
