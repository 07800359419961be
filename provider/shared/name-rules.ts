/**
 * The rules over what registrations declare (./declarations) and what creates did (./role-creates):
 * who frees a name, who takes it, who takes over a role let go. Each rests on the engine's guarantees
 * listed in ./deployment-ledger: another registration counts only when it came earlier, and only when
 * the program's structure orders it first ({@link orderedBefore}) when a step would have to wait for it.
 */
import type { Declarations, Release, Releases, Want, Wants } from "./declarations";
import { orderedBefore, type Registration, renamesAway } from "./registrations";
import type { Creates } from "./role-creates";

export class NameRules {
  constructor(
    private readonly declarations: Declarations,
    private readonly releases: Releases,
    private readonly wants: Wants,
    private readonly creates: Creates,
  ) {}

  /**
   * `reg` lets this role go. Whether another resource takes it over is decided now, once: by an earlier
   * registration that wants it (by ID, or by its name with the means to take it over). A later one is
   * refused in its own Check or Diff when the role is deleted before it could run (not `deferred`).
   */
  release(groupId: number, roleId: number, name: string, reg: Registration, deferred: boolean): Release {
    const existing = this.releases.of(groupId, roleId);
    if (existing) return existing;
    const handedTo = this.adopter(groupId, roleId, name, reg);
    const release: Release = { roleId, name, reg, deferred, ...(handedTo ? { handedTo } : {}) };
    this.releases.add(groupId, release);
    return release;
  }

  /**
   * The engine replaces `reg`'s resource: the roles its Diff declared (kept, renamed) are not updated but
   * let go with the old resource, deleted after every other step, or first with `deleteBeforeReplace`.
   */
  replaced(reg: Registration): void {
    for (const { groupId, roleId, role } of this.declarations.dropAllOf(reg))
      this.release(groupId, roleId, role.currentName, reg, !reg.deleteBeforeReplace);
  }

  /**
   * The registration in `self`'s `dependsOn` whose step frees the name `name` that this role holds now: it
   * deletes the role in its update (let go, and not to another resource), or renames it away. Its step
   * ended before `self` registered: nothing waits for it.
   */
  freer(groupId: number, roleId: number, name: string, self: Registration): Registration | undefined {
    const release = this.releases.of(groupId, roleId);
    if (release && release.reg !== self && !release.deferred && !release.handedTo && orderedBefore(self, release.reg))
      return release.reg;
    const declared = this.declarations.of(groupId, roleId);
    if (!declared?.reg || !orderedBefore(self, declared.reg) || declared.settled || !renamesAway(declared.reg))
      return undefined;
    return declared.plannedName !== name ? declared.reg : undefined;
  }

  /**
   * A registration before `reg` that gives `name` to a role other than `roleId` in this deployment: a
   * rename onto it (`currentName`, the name that role has now), or a declaration of a role it does not
   * hold yet (`create`: a new role; else one it takes over by that name). A later one waits for `reg`'s
   * step, or is refused in its own Check.
   */
  takerOf(
    groupId: number,
    name: string,
    roleId: number,
    reg: Registration,
  ): { reg: Registration; currentName?: string; create: boolean } | undefined {
    for (const { roleId: other, role: d } of this.declarations.plannedAs(groupId, name)) {
      if (other === roleId || !d.reg || d.reg.seq >= reg.seq || d.currentName === name || d.settled) continue;
      return { reg: d.reg, currentName: d.currentName, create: false };
    }
    // A declarer whose step has ended wrote already: nothing of it can run before this one any more.
    const want = this.wants.byName(groupId, name);
    return want && want.reg.seq < reg.seq && !want.reg.settled ? { reg: want.reg, create: !want.adopts } : undefined;
  }

  /**
   * A registration other than `reg` that takes this role over (by its ID, or by its name with the means
   * to take it over) although `reg` does not hand it over: it is not in `reg`'s `dependsOn`, so its
   * step may run before or after `reg` deletes the role.
   */
  unorderedTaker(groupId: number, roleId: number, name: string, reg: Registration): Registration | undefined {
    const byId = this.wants.byRole(groupId, roleId);
    if (byId && byId.reg !== reg) return byId.reg;
    const byName = this.wants.byName(groupId, name);
    return byName?.adopts && byName.reg !== reg ? byName.reg : undefined;
  }

  /**
   * True when a resource of this deployment took this role over, declares it by ID, or declares its
   * name (to create or adopt a role): a resource that lets it go, or an exclusive catalogue, must not
   * delete it. Declarations of roles a resource already holds (Diff's) are no evidence here: the
   * resource being deleted may have made them itself (a refresh before a destroy).
   */
  mayBeTakenOver(groupId: number, roleId: number, name: string): boolean {
    return (
      this.creates.isClaimed(groupId, roleId) ||
      this.wants.byRole(groupId, roleId) !== undefined ||
      this.wants.byName(groupId, name) !== undefined
    );
  }

  /** The registration before `before` that takes this role over: by its ID, or by its name. */
  private adopter(groupId: number, roleId: number, name: string, before: Registration): Registration | undefined {
    const earlier = (want: Want | undefined) => (want && orderedBefore(before, want.reg) ? want.reg : undefined);
    const byName = this.wants.byName(groupId, name);
    return earlier(this.wants.byRole(groupId, roleId)) ?? (byName?.adopts ? earlier(byName) : undefined);
  }
}
