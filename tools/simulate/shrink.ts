// TEST INFRASTRUCTURE (simulation): makes a failing history small. A candidate is kept when it still
// shows a violation of the same kind: fewer steps first (halves, then one step at a time), then
// simpler steps (no faults, no `--parallel`, batch size or refresh), then smaller programs (a resource,
// or a catalogue entry, removed from every step). A run is not fully deterministic (the engine's
// workers, the batch windows), so a candidate that passes once is simply not taken.

import type { History, Program, Step } from "./model";

export interface ShrinkOptions {
  /** Histories run at most. @default 40 (the simulation passes 25) */
  attempts?: number;
  /** Time spent at most, in ms. @default 10 minutes */
  ms?: number;
  /** Called with each smaller history found. */
  onProgress?: (h: History) => void;
}

export async function shrink(
  failing: History,
  reproduces: (h: History) => Promise<boolean>,
  o: ShrinkOptions = {},
): Promise<History> {
  const deadline = Date.now() + (o.ms ?? 600_000);
  let attempts = o.attempts ?? 40;
  let best = failing;
  const tryIt = async (candidate: History): Promise<boolean> => {
    if (attempts <= 0 || Date.now() > deadline) return false;
    if (JSON.stringify(candidate) === JSON.stringify(best)) return false;
    attempts--;
    if (!(await reproduces(candidate))) return false;
    best = candidate;
    o.onProgress?.(best);
    return true;
  };
  const withSteps = (steps: Step[]): History => ({ ...best, steps });

  for (let progress = true; progress && attempts > 0 && Date.now() < deadline; ) {
    progress = false;
    // Fewer steps: chunks of half, a quarter, ..., one step; from the end, so earlier steps stay.
    for (let size = Math.max(1, Math.floor(best.steps.length / 2)); size >= 1; size = Math.floor(size / 2)) {
      for (let at = best.steps.length - size; at >= 0; at--) {
        if (at + size > best.steps.length) continue;
        const steps = [...best.steps.slice(0, at), ...best.steps.slice(at + size)];
        if (steps.length && (await tryIt(withSteps(steps)))) progress = true;
      }
      if (size === 1) break;
    }
    // Simpler steps.
    for (let i = 0; i < best.steps.length; i++) {
      for (const simpler of simplerSteps(best.steps[i]!)) {
        const steps = best.steps.map((s, j) => (j === i ? simpler : s));
        if (await tryIt(withSteps(steps))) progress = true;
      }
    }
    // Smaller programs: a resource, then an entry, gone from every step.
    for (const cut of programCuts(best)) {
      const steps = best.steps.map((s) => (s.op === "deploy" ? { ...s, program: cut(s.program) } : s));
      if (await tryIt(withSteps(steps))) progress = true;
    }
  }
  return best;
}

function simplerSteps(s: Step): Step[] {
  const out: Step[] = [];
  if (s.op === "refresh" || s.op === "destroy") {
    if (s.faults?.length) {
      const { faults: _faults, ...rest } = s;
      out.push(rest as Step);
    }
    return out;
  }
  if (s.op !== "deploy") return out;
  const without = (k: "faults" | "parallel" | "batch" | "refresh" | "checkNoChanges") => {
    if (s[k] === undefined) return;
    const copy = { ...s };
    delete copy[k];
    out.push(copy);
  };
  without("faults");
  if ((s.faults?.length ?? 0) > 1)
    for (let i = 0; i < s.faults!.length; i++) out.push({ ...s, faults: s.faults!.filter((_, j) => j !== i) });
  without("parallel");
  without("batch");
  without("refresh");
  without("checkNoChanges");
  return out;
}

function programCuts(h: History): Array<(p: Program) => Program> {
  const programs = h.steps.flatMap((s) => (s.op === "deploy" ? [s.program] : []));
  const resources = new Set(programs.flatMap((p) => [...p.roles.map((r) => r.res), ...p.catalogues.map((c) => c.res)]));
  const entries = new Set(
    programs.flatMap((p) => p.catalogues.flatMap((c) => Object.keys(c.roles).map((k) => `${c.res}\u0000${k}`))),
  );
  const cuts: Array<(p: Program) => Program> = [];
  for (const res of resources)
    cuts.push((p) => ({
      ...p,
      roles: p.roles.filter((r) => r.res !== res),
      catalogues: p.catalogues.filter((c) => c.res !== res),
    }));
  for (const e of entries) {
    const [res, key] = e.split("\u0000") as [string, string];
    cuts.push((p) => ({
      ...p,
      catalogues: p.catalogues.map((c) =>
        c.res === res ? { ...c, roles: Object.fromEntries(Object.entries(c.roles).filter(([k]) => k !== key)) } : c,
      ),
    }));
  }
  return cuts;
}
