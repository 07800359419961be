/**
 * The `Role` provider's own share of a program of N separate `Role`s (`npm run bench:role-provider`):
 * its methods called directly (no engine, no gRPC, no program), as the engine calls them at
 * `--parallel 8` (eight calls in flight, each Role's calls in the engine's order), one deployment per
 * operation, against the emulator in a worker thread (./provider/emulator-worker) so that this
 * thread's CPU time is the provider's and its client's. Per operation: the CPU and wall time per Role
 * and the requests in all. What the engine, the program and Pulumi's dynamic host add on top is the
 * difference to `npm run bench` (the same lifecycle through the engine stand-in). Prints a markdown
 * table; asserts only that each operation did what it should.
 *
 *   npm run bench:role-provider -- [--sizes 100,1000,2000]
 */
import { parseArgs } from "node:util";
import * as provider from "../provider";
import { inNewDeployment } from "../provider/shared/deployment-ledger";
import { startEmulatorThread } from "./provider/emulator-worker";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "100,1000,2000" } } });
const SIZES = values.sizes.split(",").map(Number);
/** The engine's default step concurrency in the benchmarks (`--parallel 8`). */
const PARALLEL = 8;
const PROVIDER_REF = "exports.handler = () => require('pulumi-grouproles/provider')";

type Props = Record<string, unknown>;

/** Runs `each` for 0..n-1, at most {@link PARALLEL} at once, as the engine schedules independent steps. */
async function pooled(n: number, each: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await each(next++);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, n) }, lane));
}

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

async function main(): Promise<void> {
  const emu = await startEmulatorThread();
  const config: Record<string, string> = { "grouproles:baseUrl": emu.baseUrl, "grouproles:accessToken": emu.token };
  await provider.configure({ config: { get: (k: string) => config[k] } });
  const rows: string[] = [];
  let groupId = 3000;
  const fail = (what: string) => {
    throw new Error(`benchmark: ${what}`);
  };
  try {
    for (const n of [50, ...SIZES]) {
      await emu.reset();
      const group = ++groupId;
      const inputs = (i: number, prefix: string): Props => ({
        groupId: group,
        name: `${prefix} ${i}`,
        settings: { viewVideo: i % 2 === 0 },
        __provider: PROVIDER_REF,
      });
      const ids: string[] = [];
      const outs: Props[] = [];
      const measure = async (op: string, each: (i: number) => Promise<void>) => {
        const requests0 = await emu.requests();
        const t0 = performance.now();
        const cpu0 = threadCpuMs();
        await inNewDeployment(() => pooled(n, each));
        const cpuMs = threadCpuMs() - cpu0;
        const wallMs = performance.now() - t0;
        const requests = (await emu.requests()) - requests0;
        if (n === 50) return; // the warm-up: the JIT compiles the paths first
        rows.push(`| ${n} | ${op} | ${(cpuMs / n).toFixed(2)} | ${(wallMs / n).toFixed(2)} | ${requests} |`);
        process.stderr.write(`${rows.at(-1)}\n`);
      };
      await measure("preview of the creates (check)", async (i) => {
        const r = await provider.check({}, inputs(i, "Role"));
        if (r.failures?.length) fail(`check ${i}: ${r.failures[0]!.reason}`);
      });
      await measure("create (check, create)", async (i) => {
        const { inputs: checked } = await provider.check({}, inputs(i, "Role"));
        const r = await provider.create(checked);
        ids[i] = r.id;
        outs[i] = { ...r.outs, __provider: PROVIDER_REF };
      });
      await measure("no-op preview (check, diff)", async (i) => {
        const { inputs: checked } = await provider.check(inputs(i, "Role"), inputs(i, "Role"));
        if ((await provider.diff(ids[i]!, outs[i]!, checked)).changes) fail(`diff ${i} of nothing`);
      });
      await measure("rename all (check, diff, update)", async (i) => {
        const { inputs: checked } = await provider.check(inputs(i, "Role"), inputs(i, "Renamed"));
        if (!(await provider.diff(ids[i]!, outs[i]!, checked)).changes) fail(`diff ${i} of a rename`);
        const r = await provider.update(ids[i]!, outs[i]!, checked);
        outs[i] = { ...r.outs, __provider: PROVIDER_REF };
      });
      await measure("destroy (delete)", async (i) => {
        await provider.delete(ids[i]!, outs[i]!);
      });
    }
  } finally {
    await emu.close();
  }
  process.stdout.write(
    `Role provider, called directly at ${PARALLEL} calls in flight (${new Date().toISOString().slice(0, 10)}, ` +
      `node ${process.version}; the emulator in a worker thread, without latency or rate limit)\n\n` +
      "| N | operation | provider CPU ms per Role | wall ms per Role | requests |\n|---:|---|---:|---:|---:|\n" +
      `${rows.join("\n")}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
