/**
 * The key of a catalogue entry is its identity, except where only the key changed: an entry under a new
 * key with the name a removed key held is that same role (invariant 8, docs/design/invariants.md).
 */
import type { GroupRolesState } from "./types";

/**
 * Entries whose key changed but whose name stayed (invariant 8, docs/design/invariants.md): new key to the
 * removed key that held that name. Such an entry is the same role, moved to its new key. A removed key
 * held both the name its state shows and, when a refresh found its role renamed outside the program, the
 * name this resource last gave it (`appliedNames`): after `pulumi up --refresh` the state shows the
 * service's name, and the program still declares its own (simulation history 56827).
 */
export function renamedKeys(
  state: Pick<GroupRolesState, "roles" | "appliedNames">,
  roles: Record<string, unknown>,
): Map<string, string> {
  const removedByName = new Map<string, string>();
  const namesOf = (key: string): string[] => {
    const applied = state.appliedNames?.[key];
    const held = state.roles[key]!.name;
    return applied === undefined || applied === held ? [held] : [held, applied];
  };
  const removed = Object.keys(state.roles).filter((key) => !Object.hasOwn(roles, key));
  // The name a role holds wins over a name another role was last given (two roles renamed into each other's).
  for (const key of removed)
    if (state.appliedNames?.[key] !== undefined) removedByName.set(state.appliedNames[key]!, key);
  for (const key of removed) removedByName.set(state.roles[key]!.name, key);
  const moved = new Map<string, string>();
  for (const [key, entry] of Object.entries(roles)) {
    if (Object.hasOwn(state.roles, key) || !entry || typeof entry !== "object") continue;
    const name = (entry as { name?: unknown }).name;
    const from = typeof name === "string" ? removedByName.get(name) : undefined;
    if (from !== undefined) {
      moved.set(key, from);
      for (const held of namesOf(from)) if (removedByName.get(held) === from) removedByName.delete(held);
    }
  }
  return moved;
}
