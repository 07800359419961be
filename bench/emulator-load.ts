/**
 * `npm run bench:emulator-load`: the emulator under load (tools/load/emulator-load.ts), as a command.
 *
 *   npm run bench:emulator-load                 # reduced size (what npm test runs)
 *   npm run bench:emulator-load -- --full       # full size
 *   options: --groups N --ops N --visitors N --kill-writers N --kill-after-ms N
 */
import { parseArgs } from "node:util";
import { FULL, REDUCED, formatReport, runLoad, type LoadOptions } from "../tools/load/emulator-load";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: "boolean" },
      groups: { type: "string" },
      ops: { type: "string" },
      visitors: { type: "string" },
      "kill-writers": { type: "string" },
      "kill-after-ms": { type: "string" },
    },
  });
  const base = values.full ? FULL : REDUCED;
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Math.max(1, Math.floor(Number(v))) || d);
  const o: LoadOptions = {
    groups: num(values.groups, base.groups),
    opsPerGroup: num(values.ops, base.opsPerGroup),
    visitors: num(values.visitors, base.visitors),
    killWriters: num(values["kill-writers"], base.killWriters),
    killAfterMs: num(values["kill-after-ms"], base.killAfterMs),
  };
  const r = await runLoad(o);
  console.log(formatReport(o, r));
  const problems = [...r.writes.mismatches, ...r.kill.problems];
  if (r.visitors.signalsReceived !== r.visitors.signalsSent) problems.push("signals lost");
  if (!r.kill.startedAgain) problems.push("the emulator did not start again on its state file");
  if (problems.length) {
    console.error(problems.slice(0, 20).join("\n"));
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
