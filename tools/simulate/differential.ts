// TEST INFRASTRUCTURE (simulation): the engine stand-in checked against the real Pulumi CLI. Each history
// runs on a lane of each engine (each with its own emulator), with the same checks; then every
// operation's outcome (ok or not, the plan of this package's resources, what the service holds, what the
// state records) is compared in order. `npm run simulate -- --differential --runs N --fault-rate 0`:
// with faults the two runs may meet them on other requests (they hit by position), so a difference
// there says little; without, any difference is a finding about the stand-in or the package.

import { generateHistory, type GenerateOptions } from "./generate";
import { Lane } from "./lane";
import { compareOutcomes } from "./outcome";
import { runHistory, type StepViolation } from "./run";

export interface DifferentialHistory {
  seed: number;
  operations: number;
  /** `op N (operation): what differs`, empty when both engines ended every operation the same way. */
  differences: string[];
  violations: { standIn: StepViolation[]; cli: StepViolation[] };
  /** The stand-in's and the CLI's trace, for a report of a history that differs. */
  traces: [string[], string[]];
}

export async function differential(
  seeds: number[],
  o: GenerateOptions & { onHistory?: (h: DifferentialHistory) => void },
): Promise<DifferentialHistory[]> {
  const [standIn, cli] = await Promise.all([Lane.start("stand-in"), Lane.start("cli")]);
  const results: DifferentialHistory[] = [];
  try {
    for (const seed of seeds) {
      const history = generateHistory(seed, o);
      const [a, b] = await Promise.all([runHistory(standIn, history), runHistory(cli, history)]);
      const differences: string[] = [];
      const n = Math.max(a.outcomes.length, b.outcomes.length);
      for (let i = 0; i < n; i++) {
        const [x, y] = [a.outcomes[i], b.outcomes[i]];
        if (!x || !y) {
          differences.push(`op ${i + 1}: only the ${x ? "stand-in" : "CLI"} ran it (${(x ?? y)?.operation})`);
          continue;
        }
        for (const d of compareOutcomes(x, y, ["stand-in", "CLI"]))
          differences.push(`op ${i + 1} (${x.operation}): ${d}`);
      }
      const r: DifferentialHistory = {
        seed,
        operations: n,
        differences,
        violations: { standIn: a.violations, cli: b.violations },
        traces: [a.trace, b.trace],
      };
      results.push(r);
      o.onHistory?.(r);
    }
  } finally {
    await Promise.all([standIn.close(), cli.close()]);
  }
  return results;
}
