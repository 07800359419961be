/**
 * Role batching benchmark (`npm run bench`): the same lifecycle of N roles (create, no-op preview,
 * rename-all update, settings-of-all update, refresh, destroy) through the engine stand-in, against an emulator with latency
 * and a rate limit, once with write batching and once with one request per role (maxBatchSize 1), in
 * the same run. Prints a markdown table. A script, not a test: it asserts nothing.
 *
 *   npm run bench -- [--sizes 10,100,1000] [--parallel 16] [--latency-ms 20] [--rate-limit 20]
 *                    [--client-rps 20] [--window-ms 15]
 */
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runEngine, type EngineOptions } from "../tools/engine";
import { installProgram } from "./roles/install";
import { startEmulatorProcess, type EmulatorProcess } from "./roles/service";
import { measureState } from "./roles/state-size";
import { renderTable, type Measurement, type Mode, type Operation } from "./roles/table";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10,100,1000" },
    parallel: { type: "string", default: "16" },
    "latency-ms": { type: "string", default: "20" },
    "rate-limit": { type: "string", default: "20" },
    "client-rps": { type: "string", default: "20" },
    "window-ms": { type: "string" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const PARALLEL = Number(values.parallel);
const LATENCY_MS = Number(values["latency-ms"]);
const RATE_LIMIT = Number(values["rate-limit"]);
const CLIENT_RPS = Number(values["client-rps"]);
const ROLE_TYPE = "pulumi-nodejs:dynamic/grouproles:Role";
// .tmp/tools/bench/index.js -> the repository root
const ROOT = path.resolve(__dirname, "../../..");

const steps: Array<{ op: Operation; operation: EngineOptions["operation"]; prefix: string; flip?: boolean }> = [
  { op: "create", operation: "up", prefix: "role" },
  { op: "preview (no-op)", operation: "preview", prefix: "role" },
  { op: "update (rename all)", operation: "up", prefix: "renamed" },
  // A settings change reads each role's settings first, so keys the program does not list survive.
  { op: "update (settings of all)", operation: "up", prefix: "renamed", flip: true },
  { op: "refresh", operation: "refresh", prefix: "renamed", flip: true },
  { op: "destroy", operation: "destroy", prefix: "renamed", flip: true },
];

async function lifecycle(emu: EmulatorProcess, programDir: string, n: number, mode: Mode, groupId: number): Promise<Measurement[]> {
  const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-state-")), "state.json");
  await emu.reset();
  const out: Measurement[] = [];
  for (const step of steps) {
    await emu.clearLog();
    const t0 = performance.now();
    const result = await runEngine({
      operation: step.operation,
      programDir,
      stack: `bench-${mode}-${n}`,
      stateFile,
      parallel: PARALLEL,
      timeoutMs: 3_600_000,
      config: {
        "bench:count": String(n),
        "bench:prefix": step.prefix,
        "bench:groupId": String(groupId),
        "bench:flip": String(step.flip === true),
        "grouproles:baseUrl": emu.baseUrl,
        "grouproles:maxBatchSize": mode === "naive" ? "1" : "100",
        ...(values["window-ms"] !== undefined ? { "grouproles:batchWindowMs": values["window-ms"] } : {}),
        ...(CLIENT_RPS > 0 ? { "grouproles:maxRequestsPerSecond": String(CLIENT_RPS) } : {}),
      },
      secretConfig: { "grouproles:accessToken": emu.token },
    });
    const seconds = (performance.now() - t0) / 1000;
    const log = await emu.log();
    const state = measureState(stateFile, ROLE_TYPE);
    const m: Measurement = {
      n,
      mode,
      op: step.op,
      ok: result.ok,
      requests: log.total,
      seconds,
      rateLimited: log.rateLimited,
      rateLimitedIsLowerBound: log.rateLimitedIsLowerBound,
      ...(state && state.roles > 0 ? { stateBytesPerRole: state.bytesPerRole, providerBytesPerRole: state.providerBytesPerRole } : {}),
      ...(result.providerHost.peakRssBytes !== undefined ? { peakRssBytes: result.providerHost.peakRssBytes } : {}),
    };
    out.push(m);
    process.stderr.write(
      `N=${n} ${mode} ${step.op}: ${m.requests} requests, ${seconds.toFixed(1)} s, ${m.rateLimited} x 429${result.ok ? "" : `, FAILED: ${result.errors.slice(0, 3).join(" | ").slice(0, 800)}`}\n`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  process.stderr.write("packing and installing the package into a throwaway program...\n");
  const programDir = installProgram(ROOT, path.join(ROOT, "bench/programs/roles"));
  const emu = await startEmulatorProcess(ROOT, LATENCY_MS, RATE_LIMIT);
  const all: Measurement[] = [];
  try {
    for (const n of SIZES) {
      // Batched first, then naive, each on a fresh group and stack of the same emulator.
      all.push(...(await lifecycle(emu, programDir, n, "batched", 100_000 + n)));
      all.push(...(await lifecycle(emu, programDir, n, "naive", 200_000 + n)));
    }
  } finally {
    await emu.close();
  }
  const settingsLine =
    `emulator --latency-ms ${LATENCY_MS} --rate-limit ${RATE_LIMIT}; engine stand-in --parallel ${PARALLEL}; ` +
    `client maxRequestsPerSecond ${CLIENT_RPS > 0 ? CLIENT_RPS : "unset"}; batched = maxBatchSize 100, naive = maxBatchSize 1`;
  process.stdout.write(renderTable(all, settingsLine));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
