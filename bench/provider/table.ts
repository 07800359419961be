/** The provider benchmark's tables: provider CPU with its growth, then wall, emulator and requests, then memory. */

/** One operation at one size. */
export interface Sample {
  /** Wall time of the call. */
  wallMs: number;
  /** CPU time of the benchmark's main thread during the call: the provider and its client. */
  cpuMs: number;
  /** CPU time of the emulator's thread during the call. */
  emulatorMs: number;
  /** Requests the emulator received (its request log). */
  requests: number;
}

/** Memory at one size, after all its operations. */
export interface Memory {
  /** The process's peak RSS so far (both threads: provider and emulator). */
  peakRssMiB: number;
  /** Most heap the main thread (provider, client, benchmark) used, sampled. */
  providerHeapMiB: number;
  /** Heap the emulator's thread uses at the end of the size (it holds the group's roles). */
  emulatorHeapMiB: number;
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const times = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || a <= 0 ? "–" : `×${(b / a).toFixed(1)}`;
const n = (x: number) => x.toLocaleString("en-US");

/** Rows (change, operation) by size; `sizes` ascending. */
export function renderTables(
  rows: Map<string, Map<number, Sample>>,
  sizes: readonly number[],
  memory: Map<number, Memory>,
): string {
  const out: string[] = [];
  const span = sizes.includes(5000) && sizes.includes(20000) ? ([5000, 20000] as const) : undefined;
  out.push(
    "Provider CPU, ms per operation (the main thread's CPU time: provider and client), and its growth from the " +
      "previous size:",
    "",
    `| change | operation | ${sizes.map((s, i) => (i ? `${n(s)} | ×` : n(s))).join(" | ")}${span ? " | ×(5,000→20,000)" : ""} |`,
    `|---|---|${sizes.map((_, i) => (i ? "---:|---:" : "---:")).join("|")}|${span ? "---:|" : ""}`,
  );
  for (const [row, bySize] of rows) {
    const [change, op] = row.split("|");
    const cpu = (s: number) => bySize.get(s)?.cpuMs;
    const value = (s: number) => (cpu(s) === undefined ? "–" : ms(cpu(s)!));
    // Each size's value, then (from the second size on) its growth from the previous size.
    const cells = sizes.flatMap((s, i) => (i ? [value(s), times(cpu(sizes[i - 1]!), cpu(s))] : [value(s)]));
    const whole = span ? ` | ${times(cpu(span[0]), cpu(span[1]))}` : "";
    out.push(`| ${change} | ${op} | ${cells.join(" | ")}${whole} |`);
  }
  out.push(
    "",
    "Wall ms / emulator CPU ms / requests, per operation:",
    "",
    `| change | operation | ${sizes.map(n).join(" | ")} |`,
    `|---|---|${sizes.map(() => "---:").join("|")}|`,
  );
  for (const [row, bySize] of rows) {
    const [change, op] = row.split("|");
    const cells = sizes.map((s) => {
      const x = bySize.get(s);
      return x ? `${ms(x.wallMs)} / ${ms(x.emulatorMs)} / ${x.requests}` : "–";
    });
    out.push(`| ${change} | ${op} | ${cells.join(" | ")} |`);
  }
  out.push(
    "",
    "Memory after each size (peak RSS of the process so far, both threads; heap of each thread):",
    "",
    "| N | peak RSS MiB | provider heap peak MiB | emulator heap MiB |",
    "|---:|---:|---:|---:|",
  );
  for (const s of sizes) {
    const m = memory.get(s);
    if (m) out.push(`| ${n(s)} | ${m.peakRssMiB} | ${m.providerHeapMiB} | ${m.emulatorHeapMiB} |`);
  }
  return `${out.join("\n")}\n`;
}
