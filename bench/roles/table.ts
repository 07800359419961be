/** The benchmark's markdown table: naive Role, batched Role and GroupRoles side by side. */

/** naive = Role with maxBatchSize 1; batched = Role (the default); grouproles = one GroupRoles resource. */
export type Mode = "naive" | "batched" | "grouproles";
export const MODES: readonly Mode[] = ["naive", "batched", "grouproles"];
export type Operation =
  | "create"
  | "preview (no-op)"
  | "update (rename all)"
  | "update (settings of all)"
  | "preview (remove an in-use role)"
  | "refresh"
  | "destroy";

/** One operation of one lifecycle. */
export interface Measurement {
  parallel: number;
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

const int = (x: number | undefined) => (x === undefined ? "–" : String(Math.round(x)));
const mb = (x: number | undefined) => (x === undefined ? "–" : (x / 1024 / 1024).toFixed(0));

/** Renders every (parallel, N, operation) as one row; `settings` and the notes go above the table. */
export function renderTable(all: readonly Measurement[], settings: string, notes: readonly string[] = []): string {
  const lines = [
    `Settings: ${settings}`,
    "",
    ...notes.map((n) => `- ${n}`),
    ...(notes.length ? [""] : []),
    "| --parallel | N | operation | requests naive | requests Role | requests GroupRoles | wall s naive | " +
      "wall s Role | wall s GroupRoles | 429s naive / Role / GroupRoles | state B/role Role / GroupRoles | " +
      "`__provider` B/role Role / GroupRoles | host peak RSS MB naive / Role / GroupRoles |",
    "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const keys = [...new Set(all.map((m) => `${m.parallel}|${m.n}`))];
  for (const key of keys) {
    const [parallel, n] = key.split("|").map(Number);
    const rows = all.filter((m) => m.parallel === parallel && m.n === n);
    for (const op of [...new Set(rows.map((m) => m.op))]) {
      const by = Object.fromEntries(
        MODES.map((mode) => [mode, rows.find((m) => m.op === op && m.mode === mode)]),
      ) as Record<Mode, Measurement | undefined>;
      const each = (f: (m: Measurement) => string) => MODES.map((mode) => (by[mode] ? f(by[mode]!) : "–"));
      const failed = (m: Measurement) => (m.ok ? "" : " ✗");
      const requests = each((m) => `${m.requests}${failed(m)}`);
      const seconds = each((m) => m.seconds.toFixed(1));
      const r429 = each((m) => `${m.rateLimited}${m.rateLimitedIsLowerBound ? "+" : ""}`).join(" / ");
      const state = [by.batched, by.grouproles].map((m) => int(m?.stateBytesPerRole)).join(" / ");
      const provider = [by.batched, by.grouproles].map((m) => int(m?.providerBytesPerRole)).join(" / ");
      const rss = each((m) => mb(m.peakRssBytes)).join(" / ");
      lines.push(
        `| ${parallel} | ${n} | ${op} | ${requests.join(" | ")} | ${seconds.join(" | ")} | ${r429} | ${state} ` +
          `| ${provider} | ${rss} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
