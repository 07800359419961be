/**
 * Benchmark (`npm run bench:state`): what state costs per role with the dynamic resources
 * (`pulumi-grouproles`) and with the resource plugin's (`pulumi-grouproles/package`), for N Role
 * resources and for one GroupRoles of N entries, after one `up` through the engine stand-in from the
 * packed, installed package. Also the `up`'s requests and wall time. Prints a markdown table; asserts
 * nothing.
 *
 *   npm run bench:state -- [--n 1000]
 */
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runEngine } from "../tools/engine";
import { installPrograms } from "./roles/install";
import { startEmulatorProcess } from "./roles/service";
import { measureState } from "./roles/state-size";

const { values } = parseArgs({ options: { n: { type: "string", default: "1000" } } });
const N = Number(values.n);
// .tmp/tools/bench/state-size.js -> the repository root
const ROOT = path.resolve(__dirname, "../../..");

async function main(): Promise<void> {
  process.stderr.write("packing and installing the package into a throwaway project...\n");
  const [rolesProgram, groupRolesProgram] = installPrograms(ROOT, [
    path.join(ROOT, "bench/programs/roles"),
    path.join(ROOT, "bench/programs/group-roles"),
  ]);
  // The plugin is found on the PATH, where npm puts the project's node_modules/.bin.
  const bin = path.join(path.dirname(rolesProgram!), "node_modules", ".bin");
  const emu = await startEmulatorProcess(ROOT, 0, 0);
  const rows: string[] = [];
  let group = 200_000;
  try {
    for (const [resource, program] of [
      ["Role", rolesProgram!],
      ["GroupRoles", groupRolesProgram!],
    ] as const) {
      for (const sdk of ["dynamic", "package"] as const) {
        const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), "grouproles-state-size-")), "state.json");
        await emu.clearLog();
        const t0 = performance.now();
        const r = await runEngine({
          operation: "up",
          programDir: program,
          stack: `state-${sdk}`,
          stateFile,
          timeoutMs: 3_600_000,
          config: {
            "bench:count": String(N),
            "bench:prefix": "role",
            "bench:groupId": String(group++),
            "bench:sdk": sdk,
            "grouproles:baseUrl": emu.baseUrl,
          },
          secretConfig: { "grouproles:accessToken": emu.token },
          env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
        });
        const seconds = (performance.now() - t0) / 1000;
        if (!r.ok) throw new Error(`${resource} ${sdk}: ${r.errors.join("\n")}`);
        const size = measureState(stateFile)!;
        const log = await emu.log();
        rows.push(
          `| ${resource} | ${sdk === "dynamic" ? "dynamic (pulumi-grouproles)" : "plugin (pulumi-grouproles/package)"} | ${size.roles} | ` +
            `${Math.round(size.bytesPerRole)} | ${Math.round(size.providerBytesPerRole)} | ${log.total} | ${seconds.toFixed(1)} |`,
        );
        process.stderr.write(`${resource} ${sdk}: ${Math.round(size.bytesPerRole)} B/role\n`);
      }
    }
  } finally {
    await emu.close();
  }
  process.stdout.write(
    [
      `State after one \`up\` of N = ${N} roles in one group (engine stand-in, emulator without latency; ${new Date().toISOString().slice(0, 10)}).`,
      "",
      "| resources | SDK | roles in state | state B/role | `__provider` B/role | requests of the up | up wall s |",
      "|---|---|---:|---:|---:|---:|---:|",
      ...rows,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
