/**
 * The key of a catalogue entry is its identity, except where only the key changed: an entry under a new
 * key with the name a removed key held is that same role (invariant 8, docs/design/invariants.md).
 */
import type { GroupRolesState } from "./types";

/**
 * Entries whose key changed but whose name stayed (invariant 8, docs/design/invariants.md): new key to the removed key
 * whose state holds that name. Such an entry is the same role, moved to its new key.
 */
export function renamedKeys(
  state: Pick<GroupRolesState, "roles">,
  roles: Record<string, unknown>,
): Map<string, string> {
  const removedByName = new Map<string, string>();
  for (const [key, old] of Object.entries(state.roles))
    if (!Object.hasOwn(roles, key)) removedByName.set(old.name, key);
  const moved = new Map<string, string>();
  for (const [key, entry] of Object.entries(roles)) {
    if (Object.hasOwn(state.roles, key) || !entry || typeof entry !== "object") continue;
    const name = (entry as { name?: unknown }).name;
    const from = typeof name === "string" ? removedByName.get(name) : undefined;
    if (from !== undefined) {
      moved.set(key, from);
      removedByName.delete(name as string);
    }
  }
  return moved;
}
