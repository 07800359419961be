// TEST INFRASTRUCTURE (simulation): many histories over a few lanes, each violation shrunk.

import { type GenerateOptions, generateHistory } from "./generate";
import { Lane, type SimulationEngine } from "./lane";
import type { History } from "./model";
import { type RunStats, type StepViolation, addStats, emptyStats, runHistory } from "./run";
import { shrink } from "./shrink";

export interface Found {
  seed: number;
  violations: StepViolation[];
  /** The history as generated, and the smallest one found that still fails the same way. */
  history: History;
  shrunk?: History;
  shrunkViolations?: StepViolation[];
  trace: string[];
  /** The violation did not show again when the history was run again (timing). */
  flaky?: boolean;
  /** Histories run to shrink it (not counted in the stats). */
  shrinkRuns?: number;
}

export interface SimulateOptions extends GenerateOptions {
  /** Seeds to run, or a first seed and a time limit. */
  seeds?: number[];
  firstSeed?: number;
  minutes?: number;
  /** Lanes side by side (each with its emulator and program host). @default 2 */
  lanes?: number;
  /** The engine the histories run through. @default "stand-in" */
  engine?: SimulationEngine;
  /** Shrink each failing history. @default true */
  shrink?: boolean;
  shrinkAttempts?: number;
  /** Histories given as they are instead of generated (regression tests, `--history`). */
  histories?: History[];
  onHistory?: (seed: number, r: { stats: RunStats; violations: StepViolation[] }) => void;
  onShrink?: (seed: number, h: History) => void;
}

export interface SimulateResult {
  stats: RunStats;
  found: Found[];
  ms: number;
}

const sameKind = (a: StepViolation[], b: StepViolation[]) => a.some((x) => b.some((y) => y.kind === x.kind));

export async function simulate(o: SimulateOptions): Promise<SimulateResult> {
  const started = Date.now();
  const stats = emptyStats();
  const found: Found[] = [];
  const given = o.histories ? [...o.histories] : undefined;
  const seeds = o.seeds ? [...o.seeds] : undefined;
  let next = o.firstSeed ?? 1;
  const deadline = o.minutes !== undefined ? started + o.minutes * 60_000 : Number.POSITIVE_INFINITY;
  const take = (): History | undefined => {
    if (given) return given.shift();
    if (Date.now() > deadline) return undefined;
    const seed = seeds ? seeds.shift() : next++;
    return seed === undefined ? undefined : generateHistory(seed, o);
  };
  const lanes = await Promise.all(Array.from({ length: o.lanes ?? 2 }, () => Lane.start(o.engine)));
  try {
    await Promise.all(
      lanes.map(async (lane) => {
        for (let h = take(); h; h = take()) {
          const r = await runHistory(lane, h);
          addStats(stats, r.stats);
          o.onHistory?.(h.seed, r);
          if (!r.violations.length) continue;
          const failing: History = { ...h, steps: h.steps.slice(0, (r.violations[0]?.step ?? h.steps.length) + 1) };
          const f: Found = { seed: h.seed, violations: r.violations, history: failing, trace: r.trace };
          found.push(f);
          if (o.shrink === false) continue;
          let last = r.violations;
          const reproduces = async (candidate: History) => {
            const again = await runHistory(lane, candidate);
            f.shrinkRuns = (f.shrinkRuns ?? 0) + 1;
            if (!sameKind(again.violations, r.violations)) return false;
            last = again.violations;
            f.trace = again.trace;
            return true;
          };
          if (!(await reproduces(failing))) {
            f.flaky = true;
            continue;
          }
          f.shrunk = await shrink(failing, reproduces, {
            attempts: o.shrinkAttempts ?? 25,
            onProgress: (s) => o.onShrink?.(h.seed, s),
          });
          f.shrunkViolations = last;
        }
      }),
    );
  } finally {
    await Promise.all(lanes.map((l) => l.close()));
  }
  return { stats, found, ms: Date.now() - started };
}
