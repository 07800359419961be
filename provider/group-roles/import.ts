/**
 * A GroupRoles read that knows only the group (`pulumi import grouproles:index:GroupRoles <name> 42`,
 * the `import` option, `GroupRoles.get`): every role of the group becomes an entry, keyed by its name
 * in lower camel case (`"Support Agents"` → `supportAgents`; a clash gets `2`, `3`... in role ID
 * order). The state holds every setting each role holds; the inputs (the program `pulumi import`
 * writes) declare none, so the program manages only the settings it lists and the others stay as they
 * are (../plugin/declared-settings). Afterwards the keys are the program's to rename (a key change
 * with the same name is the same role).
 */
import type { GroupRolesClient } from "../../client";
import { setTextFields, textFromReplies } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import { inContext } from "../shared/errors";
import { heldSettings } from "../shared/settings";
import { userCountOf } from "../shared/user-count";
import { formatGroupId, type EntryInputs, type EntryState, type GroupRolesInputs, type GroupRolesState } from "./types";

/** An entry key for a role name: its words in lower camel case, `role` when it has none. */
export function keyForName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const key = words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
  return key === "" ? "role" : /^\d/.test(key) ? `role${key}` : key;
}

/** Keys for the roles, unique: the second `supportAgents` (by role ID) is `supportAgents2`. */
export function keysFor(roles: readonly RoleSummary[]): Map<number, string> {
  const keys = new Map<number, string>();
  const used = new Set<string>();
  // Per base, the suffix to try next: the ones below it are taken (and stay so), so that names with no
  // letters of A-Z (`role`, `role2`, ... for a catalogue in Japanese) do not each try every earlier one.
  const nextSuffix = new Map<string, number>();
  for (const role of [...roles].sort((a, b) => a.roleId - b.roleId)) {
    const base = keyForName(role.name);
    let key = base;
    if (used.has(key)) {
      let n = nextSuffix.get(base) ?? 2;
      while (used.has(`${base}${n}`)) n++;
      key = `${base}${n}`;
      nextSuffix.set(base, n + 1);
    }
    used.add(key);
    keys.set(role.roleId, key);
  }
  return keys;
}

export async function readWholeGroup(
  client: GroupRolesClient,
  groupId: number,
  listed: readonly RoleSummary[],
  what: string,
): Promise<{ id: string; props: GroupRolesState; inputs: GroupRolesInputs }> {
  const keys = keysFor(listed);
  const roles: Record<string, EntryState> = {};
  const declared: Record<string, EntryInputs> = {};
  await Promise.all(
    listed.map(async (listedRole) => {
      const key = keys.get(listedRole.roleId)!;
      const details = await client.roles.get(groupId, listedRole.roleId).catch((error: unknown) => {
        throw inContext(error, `${what}: role ${listedRole.roleId} ("${listedRole.name}")`);
      });
      const settings = heldSettings(details.settings);
      const text = textFromReplies(details, listedRole);
      roles[key] = {
        ...text,
        roleId: listedRole.roleId,
        name: details.name,
        settings,
        inUse: listedRole.inUse,
        userCount: userCountOf(listedRole),
      };
      declared[key] = { name: details.name, ...setTextFields(text) };
    }),
  );
  // Entries in the group's order, as the list gave them.
  const ordered = <T>(m: Record<string, T>) =>
    Object.fromEntries(listed.map((r) => keys.get(r.roleId)!).map((k) => [k, m[k]!]));
  return {
    id: formatGroupId(groupId),
    props: { groupId, roles: ordered(roles) },
    inputs: { groupId, roles: ordered(declared), adoptExisting: false, exclusive: false },
  };
}
