/**
 * Benchmark (`npm run bench`): the same lifecycle of N roles (create, no-op preview, rename-all update,
 * settings-of-all update, a preview that removes a role users hold, refresh, destroy) through the
 * engine stand-in, against an emulator with latency and a rate limit, three ways in the same run: N
 * `Role` resources with one request per role (naive, maxBatchSize 1), N `Role` resources with write
 * batching (the default), and one `GroupRoles` resource. Prints a markdown table; asserts nothing.
 *
 *   npm run bench -- [--sizes 10,100,1000,5000] [--parallel 8,16] [--naive-max 1000] [--modes naive,batched,grouproles]
 *                    [--latency-ms 20] [--rate-limit 20] [--client-rps 20] [--window-ms 50]
 */
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runEngine, type EngineOptions } from "../tools/engine";
import { installPrograms } from "./roles/install";
import { startEmulatorProcess, type EmulatorProcess } from "./roles/service";
import { measureState } from "./roles/state-size";
import { MODES, renderTable, type Measurement, type Mode, type Operation } from "./roles/table";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10,100,1000,5000" },
    parallel: { type: "string", default: "8,16" },
    "naive-max": { type: "string", default: "1000" },
    modes: { type: "string", default: MODES.join(",") },
    "latency-ms": { type: "string", default: "20" },
    "rate-limit": { type: "string", default: "20" },
    "client-rps": { type: "string", default: "20" },
    "window-ms": { type: "string" },
  },
});
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
const SIZES = list(values.sizes).map(Number);
const PARALLEL = list(values.parallel).map(Number);
const NAIVE_MAX = Number(values["naive-max"]);
const RUN_MODES = list(values.modes) as Mode[];
const LATENCY_MS = Number(values["latency-ms"]);
const RATE_LIMIT = Number(values["rate-limit"]);
const CLIENT_RPS = Number(values["client-rps"]);
// .tmp/tools/bench/index.js -> the repository root
const ROOT = path.resolve(__dirname, "../../..");

interface Step {
  op: Operation;
  operation: EngineOptions["operation"];
  prefix: string;
  flip?: boolean;
  /** Leave out role 0 (a removal), which `before` gives users. */
  skip?: boolean;
  before?(emu: EmulatorProcess, groupId: number): Promise<void>;
  after?(emu: EmulatorProcess, groupId: number): Promise<void>;
}

const steps: Step[] = [
  { op: "create", operation: "up", prefix: "role" },
  { op: "preview (no-op)", operation: "preview", prefix: "role" },
  { op: "update (rename all)", operation: "up", prefix: "renamed" },
  // A settings change reads each role's settings first, so keys the program does not list survive.
  { op: "update (settings of all)", operation: "up", prefix: "renamed", flip: true },
  // GroupRoles refuses it in the preview (one list); a per-role preview cannot see it (green, 0 requests).
  {
    op: "preview (remove an in-use role)",
    operation: "preview",
    prefix: "renamed",
    flip: true,
    skip: true,
    before: (emu, groupId) => emu.setUsers(groupId, "renamed-0", 3),
    after: (emu, groupId) => emu.setUsers(groupId, "renamed-0", 0),
  },
  { op: "refresh", operation: "refresh", prefix: "renamed", flip: true },
  { op: "destroy", operation: "destroy", prefix: "renamed", flip: true },
];

async function lifecycle(
  emu: EmulatorProcess,
  programDir: string,
  n: number,
  mode: Mode,
  parallel: number,
  groupId: number,
) {
  const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-state-")), "state.json");
  const out: Measurement[] = [];
  for (const step of steps) {
    await step.before?.(emu, groupId);
    await emu.clearLog();
    const t0 = performance.now();
    const result = await runEngine({
      operation: step.operation,
      programDir,
      stack: `bench-${mode}-${parallel}-${n}`,
      stateFile,
      parallel,
      timeoutMs: 3_600_000,
      // As `pulumi destroy --run-program`: the resources carry the before-delete hook (docs/delete-hooks.md).
      ...(step.operation === "destroy" ? { runProgram: true } : {}),
      config: {
        "bench:count": String(n),
        "bench:prefix": step.prefix,
        "bench:groupId": String(groupId),
        "bench:flip": String(step.flip === true),
        "bench:skip": step.skip ? "0" : "-1",
        "grouproles:baseUrl": emu.baseUrl,
        "grouproles:maxBatchSize": mode === "naive" ? "1" : "100",
        ...(values["window-ms"] !== undefined ? { "grouproles:batchWindowMs": values["window-ms"] } : {}),
        ...(CLIENT_RPS > 0 ? { "grouproles:maxRequestsPerSecond": String(CLIENT_RPS) } : {}),
      },
      secretConfig: { "grouproles:accessToken": emu.token },
    });
    const seconds = (performance.now() - t0) / 1000;
    const log = await emu.log();
    await step.after?.(emu, groupId);
    const state = measureState(stateFile);
    const m: Measurement = {
      parallel,
      n,
      mode,
      op: step.op,
      ok: result.ok,
      requests: log.total,
      seconds,
      rateLimited: log.rateLimited,
      rateLimitedIsLowerBound: log.rateLimitedIsLowerBound,
      ...(state && state.roles > 0
        ? { stateBytesPerRole: state.bytesPerRole, providerBytesPerRole: state.providerBytesPerRole }
        : {}),
      ...(result.providerHost.peakRssBytes !== undefined ? { peakRssBytes: result.providerHost.peakRssBytes } : {}),
    };
    out.push(m);
    const failure = result.ok ? "" : `, FAILED: ${result.errors.slice(0, 3).join(" | ").slice(0, 400)}`;
    process.stderr.write(
      `--parallel ${parallel} N=${n} ${mode} ${step.op}: ${m.requests} requests, ${seconds.toFixed(1)} s, ` +
        `${m.rateLimited} x 429${failure}\n`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  process.stderr.write("packing and installing the package into a throwaway project...\n");
  const [rolesProgram, groupRolesProgram] = installPrograms(ROOT, [
    path.join(ROOT, "bench/programs/roles"),
    path.join(ROOT, "bench/programs/group-roles"),
  ]);
  const emu = await startEmulatorProcess(ROOT, LATENCY_MS, RATE_LIMIT);
  const all: Measurement[] = [];
  let group = 100_000;
  try {
    for (const parallel of PARALLEL) {
      for (const n of SIZES) {
        for (const mode of RUN_MODES) {
          if (mode === "naive" && n > NAIVE_MAX) continue;
          await emu.reset();
          const program = mode === "grouproles" ? groupRolesProgram! : rolesProgram!;
          all.push(...(await lifecycle(emu, program, n, mode, parallel, group++)));
        }
      }
    }
  } finally {
    await emu.close();
  }
  const settingsLine =
    `emulator --latency-ms ${LATENCY_MS} --rate-limit ${RATE_LIMIT}; ` +
    `engine stand-in --parallel ${PARALLEL.join(" and ")}; ` +
    `client maxRequestsPerSecond ${CLIENT_RPS > 0 ? CLIENT_RPS : "unset"}; naive = Role with maxBatchSize 1, ` +
    `Role = Role batched (maxBatchSize 100), GroupRoles = one GroupRoles resource (maxBatchSize 100)`;
  const notes = [
    `naive runs at N <= ${NAIVE_MAX} only (\`--naive-max\`); "–" where a mode did not run`,
    "✗: the operation failed. For the preview that removes an in-use role, failing is GroupRoles' expected " +
      "result (the refusal, naming the role); Role's preview passes and the refusal comes only at `up`",
  ];
  process.stdout.write(renderTable(all, settingsLine, notes));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
