/**
 * Provider benchmark (`npm run bench:provider`): the GroupRoles provider's own work, called directly
 * (no engine), for a catalogue of N roles and each kind of change: check, diff (a preview), update
 * (the apply's planning and writes), read (refresh) and delete (destroy) of the changed catalogue,
 * and the create of the catalogue. The emulator runs in a worker thread of this process
 * (./provider/emulator-thread), so the main thread's CPU time is the provider's and its client's, and
 * the emulator's is counted apart. Prints markdown tables: CPU per operation and how it grows from one
 * size to the next, wall time, emulator CPU and requests, and memory. A script, not a test: it asserts
 * only that each operation did what it should (else the figures would measure another path). Each
 * figure is the median of `--repeat` rounds (a round: every change, each from a fresh catalogue; check
 * and diff run 5 times a round), which keeps a garbage collection or a busy neighbour from making one
 * size look worse than it is. About 12 minutes on 2 cores with the defaults.
 *
 *   npm run bench:provider -- [--sizes 1000,5000,10000,20000] [--changes no-change,rename-all,...] [--repeat 3]
 */
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import * as provider from "../provider/group-roles";
import type { GroupRolesState } from "../provider/group-roles/types";
import { inNewDeployment } from "../provider/shared/deployment-ledger";
import { startEmulatorThread } from "./provider/emulator-worker";
import { renderTables, type Memory, type Sample } from "./provider/table";

type Roles = Record<string, { name: string }>;

/** Each change, from the catalogue `r0..r(N-1)` named `Role 0..`, and the entries it leaves. */
const CHANGES: Record<string, { roles(n: number): Roles; entries(n: number): number }> = {
  "no change": { roles: (n) => catalogue(n, (i) => `Role ${i}`), entries: (n) => n },
  "rename all": { roles: (n) => catalogue(n, (i) => `Renamed ${i}`), entries: (n) => n },
  // r0 takes r1's name and r1 r0's, and so on: N/2 swaps, each one cycle of the PUT order.
  swap: { roles: (n) => catalogue(n, (i) => `Role ${i ^ 1}`), entries: (n) => n },
  "remove half": {
    roles: (n) => Object.fromEntries(Object.entries(catalogue(n, (i) => `Role ${i}`)).filter((_, i) => i % 2 === 0)),
    entries: (n) => Math.ceil(n / 2),
  },
  "add half": {
    roles: (n) => catalogue(n + Math.floor(n / 2), (i) => `Role ${i}`),
    entries: (n) => n + Math.floor(n / 2),
  },
};

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,5000,10000,20000" },
    changes: { type: "string", default: Object.keys(CHANGES).join(",") },
    repeat: { type: "string", default: "3" },
  },
});
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
const SIZES = list(values.sizes)
  .map(Number)
  .sort((a, b) => a - b);
const RUN_CHANGES = list(values.changes).map((c) => c.replace(/-/g, " "));
const REPEAT = Number(values.repeat);
/** Runs of check and diff per round. */
const QUICK_RUNS = 5;
for (const c of RUN_CHANGES) if (!CHANGES[c]) throw new Error(`unknown change "${c}"`);

function catalogue(n: number, name: (i: number) => string): Roles {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { name: name(i) }]));
}

const PROVIDER_REF = "exports.handler = () => require('pulumi-grouproles/provider/group-roles')";

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Most heap the main thread used: sampled between callbacks and after each operation. */
let heapPeak = 0;
const sampleHeap = () => {
  heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
};

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const emu = await startEmulatorThread();
  const config: Record<string, string> = { "grouproles:baseUrl": emu.baseUrl, "grouproles:accessToken": emu.token };
  await provider.configure({ config: { get: (k: string) => config[k] } });
  setInterval(sampleHeap, 5).unref();

  /** Runs `fn` once and measures it. */
  const measure = async <T>(fn: () => Promise<T>): Promise<{ sample: Sample; result: T }> => {
    gc?.();
    const requests0 = await emu.requests();
    const emulator0 = await emu.cpuMs();
    const t0 = performance.now();
    const cpu0 = threadCpuMs();
    const result = await fn();
    const cpuMs = threadCpuMs() - cpu0;
    const wallMs = performance.now() - t0;
    sampleHeap();
    const emulatorMs = (await emu.cpuMs()) - emulator0;
    const requests = (await emu.requests()) - requests0;
    return { sample: { wallMs, cpuMs, emulatorMs, requests }, result };
  };
  const expect = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`benchmark: ${what}`);
  };

  let groupId = 1000;
  /** Measures one change of a catalogue of `n`: its create, then each operation, as `take` is told. */
  const lifecycle = async (change: string, n: number, take: (op: string, sample: Sample) => void) => {
    const id = String(++groupId);
    const base = CHANGES["no change"]!.roles(n);
    const created = await measure(() =>
      inNewDeployment(() => provider.create({ groupId: Number(id), roles: base, __provider: PROVIDER_REF })),
    );
    expect(Object.keys(created.result.outs.roles).length === n, `create made ${n} roles`);
    take("create", created.sample);
    const olds = { ...created.result.outs, __provider: PROVIDER_REF };
    const oldInputs = { groupId: Number(id), roles: base, __provider: PROVIDER_REF };
    const news = { groupId: Number(id), roles: CHANGES[change]!.roles(n), __provider: PROVIDER_REF };
    const entries = CHANGES[change]!.entries(n);

    // Check and diff change nothing, and take tens of milliseconds where one garbage collection shows:
    // more runs of them per round.
    for (let run = 0; run < QUICK_RUNS; run++) {
      const checked = await measure(() => inNewDeployment(() => provider.check(oldInputs, news)));
      expect(checked.result.failures.length === 0, `check of ${change} passes`);
      take("check", checked.sample);
      const diffed = await measure(() => inNewDeployment(() => provider.diff(id, olds, news)));
      expect(diffed.result.changes === (change !== "no change"), `diff of ${change} says changes`);
      take("diff", diffed.sample);
    }
    const updated = await measure(() => inNewDeployment(() => provider.update(id, olds, news)));
    const outs: GroupRolesState & { __provider?: string } = { ...updated.result.outs, __provider: PROVIDER_REF };
    expect(Object.keys(outs.roles).length === entries, `update of ${change}`);
    take("update", updated.sample);
    const read = await measure(() => inNewDeployment(() => provider.read(id, outs)));
    expect(Object.keys(read.result.props?.roles ?? {}).length === entries, "read");
    take("read", read.sample);
    const deleted = await measure(() => inNewDeployment(() => provider.delete(id, outs)));
    expect(deleted.sample.requests >= 2, "delete sent its list and deletes");
    take("delete", deleted.sample);
  };

  const rows = new Map<string, Map<number, Sample>>([["(none)|create", new Map()]]);
  const memory = new Map<number, Memory>();
  try {
    // Warm-up (not reported): the JIT compiles the paths before the first measured size.
    for (const n of [200, ...SIZES]) {
      const report = n !== 200 || SIZES.includes(200);
      await emu.reset();
      gc?.();
      heapPeak = 0;
      const samples = new Map<string, Sample[]>();
      for (let round = 0; round < (report ? REPEAT : 1); round++) {
        for (const change of RUN_CHANGES) {
          await lifecycle(change, n, (op, sample) => {
            const row = op === "create" ? "(none)|create" : `${change}|${op}`;
            samples.set(row, [...(samples.get(row) ?? []), sample]);
          });
        }
      }
      if (!report) continue;
      for (const [row, taken] of samples) {
        const median = taken.sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor(taken.length / 2)]!;
        if (!rows.has(row)) rows.set(row, new Map());
        rows.get(row)!.set(n, median);
        process.stderr.write(
          `N=${n} ${row.replace("|", " ")}: cpu ${median.cpuMs.toFixed(1)} ms, wall ${median.wallMs.toFixed(1)} ms, ` +
            `emulator ${median.emulatorMs.toFixed(1)} ms, ${median.requests} requests\n`,
        );
      }
      memory.set(n, {
        peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
        providerHeapMiB: mib(heapPeak),
        emulatorHeapMiB: await emu.heapMiB(),
      });
    }
  } finally {
    await emu.close();
  }
  const stamp = `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${SIZES.join("/")} entries`;
  process.stdout.write(
    `\nGroupRoles provider benchmark (${stamp}; each figure the median by CPU of ${REPEAT} rounds: of ` +
      `${REPEAT * QUICK_RUNS} runs for check and diff, ${REPEAT * RUN_CHANGES.length} for create)\n\n` +
      renderTables(rows, SIZES, memory),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
