/**
 * The order of one apply's updates (PUTs), so that no request meets a name another role still holds.
 *
 * The service checks names on the result of a request (the emulator does; we assume the service
 * does), so updates that fit in one PUT go together, whatever they swap. When they do not fit, names
 * are a graph: each renamed role wants at most one name another renamed role holds (final names are
 * unique), so renames form chains and cycles. A chain goes holder first (the role that frees the name
 * in the same or an earlier PUT than the role that takes it); a cycle (a swap, a rotation) goes whole
 * into one PUT when it fits in one, else one of its roles first steps aside to a temporary name
 * (../shared/temporary-names `temporaryName`), which turns the cycle into a chain.
 */

/** One role to update: its name now (in the service) and the name the apply gives it. */
export interface Renamable {
  roleId: number;
  currentName: string;
  finalName: string;
}

export interface PutOrder<T> {
  /** Roles to rename to a temporary name first, before any of `chunks`. */
  asides: T[];
  /** PUTs to send in this order, each of at most `max` roles. */
  chunks: T[][];
}

/** A unit of the order: one role, or a cycle that must travel in one PUT. */
type Unit<T> = { block: T[] };

/** Splits `items` into PUTs of at most `max` roles that never meet a held name (see the file comment). */
export function orderPuts<T extends Renamable>(items: readonly T[], max: number): PutOrder<T> {
  if (items.length <= max) return { asides: [], chunks: items.length ? [[...items]] : [] };
  const holderOf = new Map<string, T>();
  for (const item of items) if (item.currentName !== item.finalName) holderOf.set(item.currentName, item);
  const next = (item: T): T | undefined => {
    if (item.currentName === item.finalName) return undefined;
    const holder = holderOf.get(item.finalName);
    return holder === item ? undefined : holder;
  };

  const asides: T[] = [];
  const units: Unit<T>[] = [];
  const state = new Map<T, "visiting" | "done">();
  const broken = new Set<T>(); // stepped aside: its current name is free before any chunk

  /** Emits `item` after the role holding its final name (a chain), or its whole cycle as a block. */
  const emit = (item: T): void => {
    if (state.get(item) === "done") return;
    const path: T[] = [];
    let at: T | undefined = item;
    while (at && !state.has(at)) {
      state.set(at, "visiting");
      path.push(at);
      const following: T | undefined = next(at);
      at = following && broken.has(following) ? undefined : following;
    }
    const cycleStart = at && state.get(at) === "visiting" ? path.indexOf(at) : -1;
    const cycle = cycleStart >= 0 ? path.slice(cycleStart) : [];
    const chain = cycleStart >= 0 ? path.slice(0, cycleStart) : path;
    if (cycle.length && cycle.length <= max) {
      for (const c of cycle) state.set(c, "done");
      units.push({ block: cycle });
    } else if (cycle.length) {
      // Too long for one PUT: its first role steps aside, and the rest follows it as a chain whose
      // last role takes the name the first gave up.
      asides.push(cycle[0]!);
      broken.add(cycle[0]!);
      for (let i = cycle.length - 1; i >= 0; i--) {
        state.set(cycle[i]!, "done");
        units.push({ block: [cycle[i]!] });
      }
    }
    // The chain's tail (nearest the free name, or the cycle it meets) goes first.
    for (let i = chain.length - 1; i >= 0; i--) {
      state.set(chain[i]!, "done");
      units.push({ block: [chain[i]!] });
    }
  };
  for (const item of items) emit(item);

  const chunks: T[][] = [];
  let current: T[] = [];
  for (const { block } of units) {
    if (current.length + block.length > max) {
      chunks.push(current);
      current = [];
    }
    current.push(...block);
  }
  if (current.length) chunks.push(current);
  return { asides, chunks };
}
