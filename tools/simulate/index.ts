/**
 * `npm run simulate -- [--runs N] [--seed S] [--minutes M] [--lanes L] [--replay] [--history FILE]
 *                     [--min-steps A] [--max-steps B] [--fault-rate P] [--no-shrink] [--shrink-attempts K]
 *                     [--engine stand-in|cli] [--differential]`
 *
 * Random histories of a stack (programs, refactors, hand edits, users, token rotations, refresh,
 * destroy, faults, engine schedules) run through the engine stand-in against the emulator, every
 * invariant checked after every operation (docs/simulation.md). Histories have seeds S, S+1, ...;
 * `--seed S --replay` runs history S again and shrinks it. Exit code 1 when a violation was found.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { History } from "./model";
import type { RunStats } from "./run";
import { differential } from "./differential";
import { type Found, simulate } from "./simulate";

// Node's compile cache for every process the runs start (as the test suite sets it): about 15% of each start.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "pulumi-grouproles-node-compile-cache");

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    minutes: { type: "string" },
    lanes: { type: "string" },
    replay: { type: "boolean" },
    history: { type: "string" },
    "min-steps": { type: "string" },
    "max-steps": { type: "string" },
    "fault-rate": { type: "string" },
    "no-shrink": { type: "boolean" },
    "shrink-attempts": { type: "string" },
    quiet: { type: "boolean" },
    engine: { type: "string" },
    differential: { type: "boolean" },
  },
});
// `--engine cli`: every operation through the real Pulumi CLI (`npm run cli:install` first), with the same checks.
if (values.engine !== undefined && values.engine !== "cli" && values.engine !== "stand-in") {
  process.stderr.write(`--engine ${values.engine}: expected cli or stand-in\n`);
  process.exit(2);
}
const engine = values.engine === "cli" ? "cli" : "stand-in";

const num = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} ${v}: expected a number`);
  return n;
};

const seed = num("seed", values.seed) ?? Math.floor(Math.random() * 1_000_000);
const runs = num("runs", values.runs);
const minutes = num("minutes", values.minutes);
const histories = values.history
  ? ([] as History[]).concat(JSON.parse(readFileSync(values.history, "utf8")) as History | History[])
  : undefined;
const seeds = values.replay
  ? [seed]
  : runs !== undefined
    ? Array.from({ length: runs }, (_, i) => seed + i)
    : undefined;
if (!histories && !seeds && minutes === undefined) {
  process.stderr.write("give --runs N, --minutes M, --seed S --replay or --history FILE\n");
  process.exit(2);
}

const say = (s = "") => process.stdout.write(`${s}\n`);
const replayCommand = (s: number) => `npm run simulate -- --seed ${s} --replay`;

function table(title: string, m: Record<string, number>): string {
  const entries = Object.entries(m).sort(([a], [b]) => a.localeCompare(b));
  return `${title}: ${entries.length ? entries.map(([k, n]) => `${k} ${n}`).join(", ") : "none"}`;
}

function summary(stats: RunStats, ms: number, found: Found[]): void {
  const min = ms / 60_000;
  say();
  say(
    `histories ${stats.histories}, steps ${stats.steps}, engine operations ${stats.operations} in ${(ms / 1000).toFixed(0)} s`,
  );
  say(
    `throughput: ${(stats.histories / min).toFixed(1)} histories/min, ${(stats.steps / min).toFixed(1)} steps/min, ${(stats.operations / min).toFixed(1)} operations/min`,
  );
  say(
    `time in engine operations: ${((100 * stats.engineMs) / Math.max(1, stats.ms)).toFixed(0)}% of the histories' time`,
  );
  say(table("faults injected", stats.injected));
  say(table("faults that hit a request", stats.fired));
  say(`ups failed by a fault: ${stats.faultedUps}, converged by a fault-free up: ${stats.converged}`);
  say(table("previews refused (documented)", stats.previewRefusals));
  say(table("ups after a green preview refused (documented)", stats.upRefusals));
  say(`violations: ${found.length}`);
  for (const f of found) {
    say();
    say(`VIOLATION in history ${f.seed}${f.flaky ? " (did not show again when run again: timing)" : ""}`);
    for (const x of f.shrunkViolations ?? f.violations) say(`  step ${x.step}: ${x.kind}: ${x.message}`);
    say(`  replay: ${replayCommand(f.seed)}${f.shrinkRuns ? ` (shrunk in ${f.shrinkRuns} runs)` : ""}`);
    const h = f.shrunk ?? f.history;
    const dir = path.resolve("test-results/simulation");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `history-${f.seed}.json`);
    writeFileSync(file, `${JSON.stringify(h, null, 2)}\n`);
    say(
      `  ${f.shrunk ? "shrunk" : "failing"} history (${h.steps.length} steps): ${file} (npm run simulate -- --history ${path.relative(process.cwd(), file)})`,
    );
    say(f.trace.map((l) => `    ${l}`).join("\n"));
  }
}

/** `--differential`: each history through the stand-in and the real CLI, outcomes compared (./differential.ts). */
async function mainDifferential(): Promise<void> {
  if (!seeds) throw new Error("--differential needs --runs N (with --seed S) or --seed S --replay");
  say(`differential: ${seeds.length} histories from seed ${seeds[0]}, each through the stand-in and the real CLI`);
  const started = Date.now();
  const results = await differential(seeds, {
    ...(values["min-steps"] ? { minSteps: num("min-steps", values["min-steps"])! } : {}),
    ...(values["max-steps"] ? { maxSteps: num("max-steps", values["max-steps"])! } : {}),
    ...(values["fault-rate"] ? { faultRate: num("fault-rate", values["fault-rate"])! } : {}),
    onHistory: (h) => {
      const v = [
        ...h.violations.standIn.map((x) => `stand-in ${x.kind}`),
        ...h.violations.cli.map((x) => `CLI ${x.kind}`),
      ];
      say(
        `history ${h.seed}: ${h.operations} operations, ${h.differences.length ? `${h.differences.length} DIFFERENCES` : "the same"}${v.length ? `; violations: ${v.join(", ")}` : ""}`,
      );
      for (const d of h.differences) say(`  ${d}`);
      if (h.differences.length) {
        say("  stand-in trace:");
        say(h.traces[0].map((l) => `    ${l}`).join("\n"));
        say("  CLI trace:");
        say(h.traces[1].map((l) => `    ${l}`).join("\n"));
      }
    },
  });
  const differing = results.filter((r) => r.differences.length).length;
  const ops = results.reduce((n, r) => n + r.operations, 0);
  say();
  say(
    `differential: ${results.length} histories, ${ops} operations each way, in ${((Date.now() - started) / 1000).toFixed(0)} s; histories that differ: ${differing}`,
  );
  process.exitCode = differing ? 1 : 0;
}

async function main(): Promise<void> {
  if (values.differential) return mainDifferential();
  say(
    histories
      ? `running ${histories.length} given histories`
      : values.replay
        ? `replaying history ${seed}`
        : `histories from seed ${seed}${runs !== undefined ? `, ${runs} runs` : ""}${minutes !== undefined ? `, for ${minutes} min` : ""}`,
  );
  const r = await simulate({
    ...(histories ? { histories } : {}),
    ...(seeds ? { seeds } : { firstSeed: seed }),
    ...(minutes !== undefined ? { minutes } : {}),
    lanes: num("lanes", values.lanes) ?? 2,
    engine,
    shrink: !values["no-shrink"],
    ...(values["shrink-attempts"] ? { shrinkAttempts: num("shrink-attempts", values["shrink-attempts"])! } : {}),
    ...(values["min-steps"] ? { minSteps: num("min-steps", values["min-steps"])! } : {}),
    ...(values["max-steps"] ? { maxSteps: num("max-steps", values["max-steps"])! } : {}),
    ...(values["fault-rate"] ? { faultRate: num("fault-rate", values["fault-rate"])! } : {}),
    onHistory: (s, h) => {
      if (!values.quiet || h.violations.length)
        say(
          `history ${s}: ${h.stats.steps} steps, ${h.stats.operations} operations, ${(h.stats.ms / 1000).toFixed(1)} s` +
            (h.violations.length ? `: VIOLATION ${h.violations.map((x) => x.kind).join(", ")}` : ""),
        );
    },
    onShrink: (s, h) => say(`  history ${s} shrunk to ${h.steps.length} steps`),
  });
  summary(r.stats, r.ms, r.found);
  process.exitCode = r.found.length ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(2);
});
