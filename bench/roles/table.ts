/** The benchmark's markdown table: naive and batched side by side, with naive/batched ratios. */

export type Mode = "batched" | "naive";
export type Operation = "create" | "preview (no-op)" | "update (rename all)" | "update (settings of all)" | "refresh" | "destroy";

/** One operation of one lifecycle. */
export interface Measurement {
  n: number;
  mode: Mode;
  op: Operation;
  /** The engine reported no error. */
  ok: boolean;
  /** HTTP requests the emulator received (its request log), 429s included. */
  requests: number;
  seconds: number;
  /** Requests answered 429. */
  rateLimited: number;
  /** The log kept fewer entries than it counted, so `rateLimited` may be low. */
  rateLimitedIsLowerBound: boolean;
  /** State file bytes per role after the operation (absent when no role is left). */
  stateBytesPerRole?: number;
  providerBytesPerRole?: number;
  /** Peak RSS of the dynamic-provider host. */
  peakRssBytes?: number;
}

const ratio = (naive: number, batched: number): string =>
  batched === 0 ? (naive === 0 ? "–" : "∞") : `${(naive / batched).toFixed(1)}x`;
const int = (x: number | undefined) => (x === undefined ? "–" : String(Math.round(x)));
const mb = (x: number | undefined) => (x === undefined ? "–" : (x / 1024 / 1024).toFixed(0));
const pair = (a: string, b: string) => (a === b ? a : `${a} / ${b}`);

/** Renders every (N, operation) as one row; `settings` goes above the table. */
export function renderTable(all: Measurement[], settings: string): string {
  const lines = [
    `Settings: ${settings}`,
    "",
    "| N | operation | requests naive | requests batched | ratio | wall s naive | wall s batched | ratio | 429s naive | 429s batched | state B/role | `__provider` B/role | host peak RSS MB naive / batched |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const sizes = [...new Set(all.map((m) => m.n))];
  for (const n of sizes) {
    for (const op of [...new Set(all.filter((m) => m.n === n).map((m) => m.op))]) {
      const naive = all.find((m) => m.n === n && m.op === op && m.mode === "naive");
      const batched = all.find((m) => m.n === n && m.op === op && m.mode === "batched");
      if (!naive || !batched) continue;
      const failed = (m: Measurement) => (m.ok ? "" : " (failed)");
      const r429 = (m: Measurement) => `${m.rateLimited}${m.rateLimitedIsLowerBound ? "+" : ""}`;
      lines.push(
        `| ${n} | ${op} | ${naive.requests}${failed(naive)} | ${batched.requests}${failed(batched)} | ${ratio(naive.requests, batched.requests)} ` +
          `| ${naive.seconds.toFixed(1)} | ${batched.seconds.toFixed(1)} | ${ratio(naive.seconds, batched.seconds)} ` +
          `| ${r429(naive)} | ${r429(batched)} ` +
          `| ${pair(int(naive.stateBytesPerRole), int(batched.stateBytesPerRole))} | ${pair(int(naive.providerBytesPerRole), int(batched.providerBytesPerRole))} ` +
          `| ${mb(naive.peakRssBytes)} / ${mb(batched.peakRssBytes)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
