/**
 * Roles and user assignments, in memory. Every batch operation checks all its items before touching
 * anything, so a refused request changes nothing (the real service's arrays behave as one unit).
 */
import type { RoleCreate, RoleDetails, RoleListItem, RoleUpdate, Settings } from "./service-rules";
import { ApiError, notFound } from "./errors";

/** One role as the emulator keeps it. */
export interface StoredRole {
  roleId: number;
  name: string;
  /** `""` when never set: the spec types description as a string. */
  description: string;
  /** Only booleans: a `null` value on the wire means "unset" and removes the key. */
  settings: Record<string, boolean>;
  /** Users holding the role; `inUse` is `userCount > 0`. */
  userCount: number;
}

/** Everything the store holds, in the form the state file keeps. */
export interface StoreSnapshot {
  nextRoleId: number;
  groups: Record<string, StoredRole[]>;
}

interface Group {
  roles: Map<number, StoredRole>;
}

/** Drops `null` values: the newer API version accepts them as "no value". */
function cleanSettings(settings: Settings): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(settings)) if (v !== null) out[k] = v;
  return out;
}

const quote = (s: string): string => JSON.stringify(s);

/**
 * What an update does with the settings keys its `settings` map does not hold. The service does not
 * document it, so the emulator can play either: `replace` (the map sent becomes the role's settings)
 * or `merge` (the keys sent are applied, `null` removes one, the others are kept).
 */
export type SettingsUpdateMode = "replace" | "merge";

/** Roles of every group, plus the id counter. */
export class RoleStore {
  private groups = new Map<number, Group>();
  /** Role IDs are global and never reused, even after reset, so a stale ID can never hit a new role. */
  private nextRoleId = 1;

  /**
   * @param knownGroups when given, only these groups exist (others are 404); else every positive id.
   * @param settingsUpdate how an update's `settings` map is applied.
   */
  constructor(
    private readonly knownGroups?: ReadonlySet<number>,
    private readonly settingsUpdate: SettingsUpdateMode = "replace",
  ) {}

  /** 404 for a group that does not exist. */
  assertGroup(groupId: number): void {
    if (this.knownGroups && !this.knownGroups.has(groupId))
      throw new ApiError(404, "group_not_found", `group ${groupId} not found`);
  }

  private group(groupId: number): Group {
    this.assertGroup(groupId);
    let g = this.groups.get(groupId);
    if (!g) {
      g = { roles: new Map() };
      this.groups.set(groupId, g);
    }
    return g;
  }

  private role(groupId: number, roleId: number, index?: number): StoredRole {
    const role = this.group(groupId).roles.get(roleId);
    if (!role) {
      const at = index === undefined ? "" : `[${index}].roleId: `;
      throw notFound(`${at}role ${roleId} not found in group ${groupId}`, index);
    }
    return role;
  }

  list(groupId: number): RoleListItem[] {
    return [...this.group(groupId).roles.values()].map((r) => ({
      roleId: r.roleId,
      name: r.name,
      inUse: r.userCount > 0,
      description: r.description,
      userCount: r.userCount,
    }));
  }

  details(groupId: number, roleId: number): RoleDetails {
    const r = this.role(groupId, roleId);
    return { roleId: r.roleId, name: r.name, settings: { ...r.settings }, description: r.description };
  }

  /** Creates all roles or none; names must be unique in the group and within the request. */
  create(groupId: number, items: readonly RoleCreate[]): StoredRole[] {
    const g = this.group(groupId);
    const taken = new Map<string, string>();
    for (const r of g.roles.values()) taken.set(r.name, `role ${r.roleId}`);
    items.forEach((item, i) => {
      const holder = taken.get(item.name);
      if (holder) {
        throw new ApiError(
          409,
          "name_conflict",
          `[${i}].name: ${quote(item.name)} is already used by ${holder} in group ${groupId}`,
          { index: i },
        );
      }
      taken.set(item.name, `item [${i}] of this request`);
    });
    return items.map((item) => {
      const role: StoredRole = {
        roleId: this.nextRoleId++,
        name: item.name,
        description: item.description ?? "",
        settings: cleanSettings(item.settings ?? {}),
        userCount: 0,
      };
      g.roles.set(role.roleId, role);
      return role;
    });
  }

  /**
   * Updates all roles or none. `description` is replaced when given and kept when omitted; `settings`
   * is applied as {@link SettingsUpdateMode} says when given, and kept when omitted. Names are checked against the group as it will be after the update, so two roles can
   * swap names in one request.
   */
  update(groupId: number, items: readonly RoleUpdate[]): void {
    const g = this.group(groupId);
    const seen = new Set<number>();
    items.forEach((item, i) => {
      this.role(groupId, item.roleId, i);
      if (seen.has(item.roleId)) {
        throw new ApiError(
          400,
          "validation_failed",
          `[${i}].roleId: role ${item.roleId} appears more than once in this request`,
          { index: i },
        );
      }
      seen.add(item.roleId);
    });
    const finalNames = new Map<string, number>();
    for (const r of g.roles.values()) if (!seen.has(r.roleId)) finalNames.set(r.name, r.roleId);
    items.forEach((item, i) => {
      const holder = finalNames.get(item.name);
      if (holder !== undefined) {
        throw new ApiError(
          409,
          "name_conflict",
          `[${i}].name: ${quote(item.name)} is already used by role ${holder} in group ${groupId}`,
          { index: i },
        );
      }
      finalNames.set(item.name, item.roleId);
    });
    for (const item of items) {
      const r = this.role(groupId, item.roleId);
      r.name = item.name;
      if (item.description !== undefined) r.description = item.description;
      if (item.settings !== undefined) {
        r.settings = cleanSettings(
          this.settingsUpdate === "merge" ? { ...r.settings, ...item.settings } : item.settings,
        );
      }
    }
  }

  /** Deletes all or none: an unknown id is 404, a role in use 409; the first failing item decides. */
  delete(groupId: number, roleIds: readonly number[]): void {
    const g = this.group(groupId);
    roleIds.forEach((id, i) => {
      const r = g.roles.get(id);
      if (!r) throw notFound(`[${i}]: role ${id} not found in group ${groupId}; nothing was deleted`, i);
      if (r.userCount > 0) {
        throw new ApiError(
          409,
          "role_in_use",
          `[${i}]: role ${quote(r.name)} (roleId ${id}) is assigned to ${r.userCount} user(s) and cannot be deleted; unassign its users first. Nothing was deleted`,
          { index: i },
        );
      }
    });
    for (const id of roleIds) g.roles.delete(id);
  }

  /** Admin: sets how many users hold a role (this is what drives `inUse`). */
  setUserCount(groupId: number, roleId: number, userCount: number): StoredRole {
    const r = this.role(groupId, roleId);
    r.userCount = userCount;
    return r;
  }

  /** Drops every role and assignment; the id counter keeps counting (see {@link nextRoleId}). */
  reset(): void {
    this.groups.clear();
  }

  snapshot(): StoreSnapshot {
    const groups: Record<string, StoredRole[]> = {};
    for (const [id, g] of this.groups) {
      if (g.roles.size) groups[String(id)] = [...g.roles.values()].map((r) => ({ ...r, settings: { ...r.settings } }));
    }
    return { nextRoleId: this.nextRoleId, groups };
  }

  restore(s: StoreSnapshot): void {
    this.groups.clear();
    let maxId = 0;
    for (const [id, roles] of Object.entries(s.groups)) {
      const g: Group = { roles: new Map() };
      for (const r of roles) {
        g.roles.set(r.roleId, { ...r, settings: { ...r.settings } });
        maxId = Math.max(maxId, r.roleId);
      }
      this.groups.set(Number(id), g);
    }
    // Never trust a counter below an existing id: a hand-edited file must not cause duplicate ids.
    this.nextRoleId = Math.max(s.nextRoleId, maxId + 1);
  }
}
