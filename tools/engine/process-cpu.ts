// TEST INFRASTRUCTURE (engine stand-in): where a test run's CPU goes, per test file and kind of
// process, for docs/development.md's table (`npm run test:cpu`, scripts/test-cpu.js). Off unless
// GROUPROLES_CPU_LOG names a file; then each process the stand-in starts adds one JSON line to it.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";

const LOG = process.env.GROUPROLES_CPU_LOG;

/** The test file running in this vitest worker (vitest's worker state; none outside vitest). */
function testFile(): string {
  const worker = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__;
  return worker?.filepath ? path.relative(process.cwd(), worker.filepath) : "";
}

/**
 * Records the CPU seconds of child `pid` before the stand-in kills it (SIGKILL, as the engine stops
 * plugins, leaves it no exit hook): user and system time from /proc/<pid>/stat (Linux only).
 */
export function recordChildCpu(kind: string, pid: number | undefined): void {
  if (!LOG || pid === undefined) return;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (clock ticks of 1/100 s)
    appendFileSync(LOG, `${JSON.stringify({ kind, file: testFile(), cpu: ticks / 100 })}\n`);
  } catch {
    // The process is gone already, or this is not Linux: nothing to record.
  }
}

/**
 * The environment a program process (`cmd/run`) needs to record its own CPU when it exits
 * (./cpu-on-exit.js): it ends on its own, so it can.
 */
export function programCpuEnv(nodeOptions: string | undefined): Record<string, string> {
  if (!LOG) return {};
  const hook = `--require=${path.join(__dirname, "cpu-on-exit.js")}`;
  return {
    GROUPROLES_CPU_LOG: LOG,
    GROUPROLES_CPU_FILE: testFile(),
    NODE_OPTIONS: [nodeOptions, hook].filter(Boolean).join(" "),
  };
}
