/** The exclusive catalogue of each group (`exclusive: true`), and the roles it decided to remove. */
import type { Registration } from "./registrations";

export class Exclusives {
  /** The exclusive catalogue of each group: its identity and how to name it in a message. */
  private readonly claims = new Map<number, { owner: string; described: string; reg?: Registration }>();
  /** Registrations whose Check or Diff decided what their exclusive catalogue removes (see {@link decideRemovals}). */
  private readonly decided = new WeakSet<Registration>();

  /**
   * A catalogue with `exclusive: true` claims its group; returns how the other one is described when
   * another catalogue (another `owner`) claimed it first in this deployment.
   */
  claim(groupId: number, owner: string, described: string, reg?: Registration): string | undefined {
    const first = this.claims.get(groupId);
    if (first && first.owner !== owner) return first.described;
    this.claims.set(groupId, { owner, described, ...(reg ? { reg } : {}) });
    return undefined;
  }

  /**
   * The registration of the group's exclusive catalogue when it came before `reg` (and is not `reg`):
   * its Check or Diff could not see what `reg` declares.
   */
  before(groupId: number, reg: Registration): Registration | undefined {
    const claim = this.claims.get(groupId)?.reg;
    return claim && claim !== reg && claim.seq < reg.seq ? claim : undefined;
  }

  /**
   * An exclusive catalogue's Check or Diff decided which roles it removes (released by `reg`): its apply
   * removes no other. A catalogue whose step was announced by no Check or Diff decides at apply.
   */
  decideRemovals(reg: Registration): void {
    this.decided.add(reg);
  }

  hasDecidedRemovals(reg: Registration): boolean {
    return this.decided.has(reg);
  }

  /** Forgets the claims a refresh's Diffs made; decisions of removals stay. */
  forget(): void {
    this.claims.clear();
  }
}
