/**
 * What the registrations of a deployment declare of a group's roles, as data: the roles they keep
 * (and rename), the roles they let go, and the names and roles they want before they hold them. The
 * decisions over these records are ./name-rules.
 */
import type { Registration } from "./registrations";

/** A role, by group and ID. */
export const roleKey = (groupId: number, roleId: number) => `${groupId}/${roleId}`;
/** A name, by group. */
export const nameKey = (groupId: number, name: string) => `${groupId}\u0000${name}`;

/** How a role of this deployment is declared: its name now, and the name the program gives it. */
export interface DeclaredRole {
  currentName: string;
  plannedName: string;
  /** Its update has run (and succeeded or failed): its name will not change again in this deployment. */
  settled?: boolean;
  /** Which kind of resource declares it: a resource never deletes a role the other kind keeps. */
  by?: "role" | "catalogue";
  /** For a catalogue: which one (see `catalogueOwner`), so that it does not mistake its own declaration. */
  owner?: string;
  /** The registration that declared it. */
  reg?: Registration;
}

/** A role a resource lets go: removed from its catalogue, and deleted unless another resource takes it. */
export interface Release {
  roleId: number;
  name: string;
  reg: Registration;
  /**
   * Deleted only after every other step of the deployment (a replaced catalogue's delete): a resource
   * that registers later may still take it over. Otherwise the resource's own update deletes it.
   */
  deferred: boolean;
  /** The earlier registration that takes it over (decided when it was released, never after). */
  handedTo?: Registration;
}

/** A name or role a registration declares before it holds it. */
export interface Want {
  reg: Registration;
  /** It takes over an existing role of that name or ID (adoptExisting, import); else it creates one. */
  adopts: boolean;
}

/** Roles kept and renamed: the existing roles of this deployment (a Diff or Update saw them). */
export class Declarations {
  /** By `groupId/roleId`. */
  private readonly declared = new Map<string, DeclaredRole>();
  /** The same, by group and the name the program gives them: `groupId/roleId`s. */
  private readonly byPlannedName = new Map<string, Set<string>>();

  /** Diff or Update of an existing role: the program declares it, renamed or not. */
  declare(groupId: number, roleId: number, role: DeclaredRole): void {
    const k = roleKey(groupId, roleId);
    const before = this.declared.get(k);
    if (before) this.byPlannedName.get(nameKey(groupId, before.plannedName))?.delete(k);
    this.declared.set(k, role);
    const byName = nameKey(groupId, role.plannedName);
    let ids = this.byPlannedName.get(byName);
    if (!ids) {
      ids = new Set();
      this.byPlannedName.set(byName, ids);
    }
    ids.add(k);
  }

  /**
   * A catalogue (`owner`) lets this role go: what it declared of the role in another Diff of this
   * deployment (the Diff the engine runs for a refresh, before the program's registrations, in
   * `up --refresh`) no longer holds, and must not read as another resource keeping the role.
   */
  undeclare(groupId: number, roleId: number, owner: string, reg: Registration): void {
    const d = this.declared.get(roleKey(groupId, roleId));
    if (d?.by !== "catalogue" || d.owner !== owner || d.reg === reg) return;
    this.drop(groupId, roleId, d);
  }

  of(groupId: number, roleId: number): DeclaredRole | undefined {
    return this.declared.get(roleKey(groupId, roleId));
  }

  /** A role stepped aside to a temporary name, or its update settled (`settled`): names may be free. */
  renamed(groupId: number, roleId: number, currentName: string, settled = false): void {
    const k = roleKey(groupId, roleId);
    const role = this.declared.get(k);
    if (role) this.declared.set(k, { ...role, currentName, settled });
  }

  /** The roles declared with `name` as the name the program gives them, in the order declared. */
  plannedAs(groupId: number, name: string): Array<{ roleId: number; role: DeclaredRole }> {
    const found: Array<{ roleId: number; role: DeclaredRole }> = [];
    for (const k of this.byPlannedName.get(nameKey(groupId, name)) ?? []) {
      const role = this.declared.get(k);
      if (role) found.push({ roleId: Number(k.split("/")[1]), role });
    }
    return found;
  }

  /** Forgets what `reg` declared, and returns it (in the order declared): its resource is replaced. */
  dropAllOf(reg: Registration): Array<{ groupId: number; roleId: number; role: DeclaredRole }> {
    const dropped: Array<{ groupId: number; roleId: number; role: DeclaredRole }> = [];
    for (const [k, role] of [...this.declared]) {
      if (role.reg !== reg) continue;
      const [groupId, roleId] = k.split("/").map(Number) as [number, number];
      this.drop(groupId, roleId, role);
      dropped.push({ groupId, roleId, role });
    }
    return dropped;
  }

  forget(): void {
    this.declared.clear();
    this.byPlannedName.clear();
  }

  private drop(groupId: number, roleId: number, role: DeclaredRole): void {
    const k = roleKey(groupId, roleId);
    this.byPlannedName.get(nameKey(groupId, role.plannedName))?.delete(k);
    this.declared.delete(k);
  }
}

/** Roles let go: removed from a resource, deleted unless another resource takes them (./name-rules `release`). */
export class Releases {
  /** By `groupId/roleId`. */
  private readonly byRole = new Map<string, Release>();
  /** The same, by group and the name the role had. */
  private readonly byName = new Map<string, Release>();

  add(groupId: number, release: Release): void {
    this.byRole.set(roleKey(groupId, release.roleId), release);
    this.byName.set(nameKey(groupId, release.name), release);
  }

  of(groupId: number, roleId: number): Release | undefined {
    return this.byRole.get(roleKey(groupId, roleId));
  }

  /** The release of the role that had `name` in the group, if a registration let one go. */
  named(groupId: number, name: string): Release | undefined {
    return this.byName.get(nameKey(groupId, name));
  }

  /** True when some resource lets this role go in this deployment. */
  has(groupId: number, roleId: number): boolean {
    return this.byRole.has(roleKey(groupId, roleId));
  }

  forget(): void {
    this.byRole.clear();
    this.byName.clear();
  }
}

/** Names and roles registrations declare before they hold them: the first registration to declare one keeps it. */
export class Wants {
  /** Names declared for roles a registration does not hold yet, by group and name: the first one. */
  private readonly names = new Map<string, Want>();
  /** Roles a registration will take over by ID (an import), by `groupId/roleId`. */
  private readonly roles = new Map<string, Want>();

  /**
   * `reg` declares `name` for a role it does not hold yet: it creates it, or (`adopts`) takes over a role
   * of that name (an entry added to a GroupRoles with adoptExisting). The first registration to
   * declare a name keeps it.
   */
  addName(groupId: number, name: string, reg: Registration, adopts: boolean): void {
    const k = nameKey(groupId, name);
    if (!this.names.has(k)) this.names.set(k, { reg, adopts });
  }

  /** `reg` will take this role over by its ID (an import). */
  addRole(groupId: number, roleId: number, reg: Registration): void {
    const k = roleKey(groupId, roleId);
    if (!this.roles.has(k)) this.roles.set(k, { reg, adopts: true });
  }

  /** Who declared `name` before holding it (see {@link addName}). */
  byName(groupId: number, name: string): Want | undefined {
    return this.names.get(nameKey(groupId, name));
  }

  /** Who takes this role over by its ID (see {@link addRole}). */
  byRole(groupId: number, roleId: number): Want | undefined {
    return this.roles.get(roleKey(groupId, roleId));
  }

  forget(): void {
    this.names.clear();
    this.roles.clear();
  }
}
