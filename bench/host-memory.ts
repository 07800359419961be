/**
 * Provider host memory (`npm run bench:memory`): the peak resident set (VmHWM) of the process that runs
 * a `GroupRoles` of N entries, per operation, for both kinds of host: Pulumi's dynamic-provider host
 * (`pulumi-grouproles`) and this package's resource plugin (`pulumi-grouproles/package`). Each
 * operation is a fresh host, as under the engine. Through the engine stand-in against the emulator
 * (no latency, no rate limit: memory, not time, is measured here; the wall times are a side note).
 * Prints a markdown table; asserts nothing.
 *
 *   npm run bench:memory -- [--sizes 1000,5000,20000] [--sdks dynamic,package] [--node-options "..."]
 *
 * `--node-options` is handed to the hosts (for example `--max-old-space-size=192`, to find the live
 * set: the smallest heap an operation still passes with).
 */
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runEngine } from "../tools/engine";
import { installPrograms } from "./roles/install";
import { startEmulatorProcess } from "./roles/service";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,5000,20000" },
    sdks: { type: "string", default: "dynamic,package" },
    "node-options": { type: "string" },
  },
});
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
// .tmp/tools/bench/host-memory.js -> the repository root
const ROOT = path.resolve(__dirname, "../../..");

/** The lifecycle measured: what makes the host hold the catalogue's state and inputs at once. */
const STEPS = [
  { op: "create", operation: "up", prefix: "role" },
  { op: "preview (no-op)", operation: "preview", prefix: "role" },
  { op: "update (rename all)", operation: "up", prefix: "renamed" },
  { op: "destroy", operation: "destroy", prefix: "renamed" },
] as const;

async function main(): Promise<void> {
  process.stderr.write("packing and installing the package into a throwaway project...\n");
  const [program] = installPrograms(ROOT, [path.join(ROOT, "bench/programs/group-roles")]);
  // The plugin runs by its shebang: this Node first on the PATH, then the project's bin folder.
  process.env.PATH = [path.dirname(process.execPath), path.resolve(program!, "../node_modules/.bin"), process.env.PATH]
    .filter(Boolean)
    .join(path.delimiter);
  const emu = await startEmulatorProcess(ROOT, 0, 0);
  const rows: string[] = [];
  let groupId = 200_000;
  try {
    for (const n of list(values.sizes).map(Number)) {
      for (const sdk of list(values.sdks)) {
        await emu.reset();
        const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-memory-")), "state.json");
        for (const step of STEPS) {
          const t0 = performance.now();
          const result = await runEngine({
            operation: step.operation,
            programDir: program!,
            stack: `memory-${sdk}-${n}`,
            stateFile,
            parallel: 8,
            timeoutMs: 3_600_000,
            ...(step.operation === "destroy" ? { runProgram: true } : {}),
            ...(values["node-options"] ? { providerEnv: { NODE_OPTIONS: values["node-options"] } } : {}),
            config: {
              "bench:count": String(n),
              "bench:prefix": step.prefix,
              "bench:groupId": String(groupId),
              "bench:sdk": sdk,
              "grouproles:baseUrl": emu.baseUrl,
            },
            secretConfig: { "grouproles:accessToken": emu.token },
          });
          const seconds = (performance.now() - t0) / 1000;
          const peak = result.providerHost.peakRssBytes;
          const mib = peak === undefined ? "–" : String(Math.round(peak / 2 ** 20));
          const outcome = result.ok ? "" : ` ✗ ${result.errors.join(" ").slice(0, 120)}`;
          rows.push(`| ${n} | ${sdk} | ${step.op} | ${mib} | ${seconds.toFixed(1)}${outcome} |`);
          process.stderr.write(`${rows.at(-1)}\n`);
        }
        groupId++;
      }
    }
  } finally {
    await emu.close();
  }
  const options = values["node-options"] ? `; hosts run with NODE_OPTIONS="${values["node-options"]}"` : "";
  process.stdout.write(
    `Engine stand-in --parallel 8, emulator without latency or rate limit${options}; one GroupRoles of N entries.\n\n` +
      "| N | host | operation | host peak RSS MiB | wall s |\n|---:|---|---|---:|---:|\n" +
      `${rows.join("\n")}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
