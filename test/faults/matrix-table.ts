/** Collects fault-matrix results and renders them as a markdown table (test output and test-results/fault-matrix.md). */

export const FAULTS = [
  "429 + Retry-After",
  "503",
  "drop before acting",
  "applied, then dropped",
  "reply slower than timeout",
  "malformed JSON",
  "wrong shape / length",
] as const;
/**
 * Faults that leave a create half-way, kept by Pulumi as partial creates and finished by the next up:
 * only meaningful end to end, so they run through the engine stand-in only (batched create column).
 */
export const PARTIAL_CREATE_FAULTS = [
  "lost reply, group not listable (unconfirmed)",
  "created, read-back failing",
] as const;
export type FaultName = (typeof FAULTS)[number] | (typeof PARTIAL_CREATE_FAULTS)[number];
export const OPS = ["create", "read", "update", "delete"] as const;
export type OpName = (typeof OPS)[number];
export type Shape = "batched" | "single";

export interface Outcome {
  fault: FaultName;
  op: OpName;
  shape: Shape;
  /** Where the pair ran: provider level (concurrent provider calls through the batcher) or the engine stand-in. */
  layer: "provider" | "engine";
  /** Transient (one faulty reply) or persistent (every matching request until cleared). */
  variant: "transient" | "persistent";
  passed: boolean;
  /** What the first run did: "ok", or the first error (shortened). */
  firstRun: string;
  problem?: string;
}

export class MatrixTable {
  readonly outcomes: Outcome[] = [];

  add(o: Outcome): void {
    this.outcomes.push(o);
  }

  get passed(): number {
    return this.outcomes.filter((o) => o.passed).length;
  }

  markdown(): string {
    const columns = OPS.flatMap((op) => (["batched", "single"] as const).map((shape) => ({ op, shape })));
    const lines = [
      `| fault | ${columns.map((c) => `${c.op} (${c.shape})`).join(" | ")} |`,
      `|---|${columns.map(() => "---").join("|")}|`,
    ];
    for (const fault of [...FAULTS, ...PARTIAL_CREATE_FAULTS]) {
      const cells = columns.map(({ op, shape }) => {
        const mine = this.outcomes.filter((o) => o.fault === fault && o.op === op && o.shape === shape);
        if (!mine.length) return "–";
        const engine = mine.filter((o) => o.layer === "engine");
        const cell = `${mine.filter((o) => o.passed).length}/${mine.length}`;
        return engine.length ? `${cell} (${engine.length} via engine)` : cell;
      });
      lines.push(`| ${fault} | ${cells.join(" | ")} |`);
    }
    const failed = this.outcomes.filter((o) => !o.passed);
    const summary =
      `${this.passed}/${this.outcomes.length} pairs passed` +
      (failed.length
        ? `; failed: ${failed.map((o) => `${o.fault} × ${o.op} (${o.shape}, ${o.layer}, ${o.variant}): ${o.problem}`).join("; ")}`
        : "");
    return `${lines.join("\n")}\n\n${summary}\n`;
  }
}
