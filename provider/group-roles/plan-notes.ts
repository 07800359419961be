/**
 * What a catalogue's Check or Diff tells the reviewer beside the plan's own lines, which cannot show it:
 * a large change in counts, roles taken over (kept, not created), and an exclusive catalogue that
 * removes nothing in a run that leaves out a resource of its `dependsOn`.
 */
import type { RoleSummary } from "../../client/types";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import { engineLog } from "../shared/engine-log";
import type { Registration } from "../shared/registrations";
import { absentDependencies } from "../shared/structure";
import { changeCounts } from "./change-counts";
import { exclusiveHeldBack, takenOver, takeoverReport } from "./errors";
import type { Plan } from "./plan";

/** Counts first (a large change), then the roles taken over. `movedKeys`: keys renamed with their name kept. */
export async function notePlan(
  plan: Plan,
  listed: readonly RoleSummary[],
  movedKeys?: Iterable<string>,
): Promise<void> {
  const counts = changeCounts(plan, movedKeys);
  if (counts) await engineLog("info", counts);
  const taken = takenOver(plan, listed);
  if (taken.length) await engineLog("info", takeoverReport(plan.groupId, taken));
}

/** An exclusive catalogue's `dependsOn` resources this run leaves out: it removes nothing (./others). */
export async function noteHeldBack(groupId: number, reg: Registration, ledger: DeploymentLedger): Promise<void> {
  const absent = absentDependencies(reg.structure, (urn) => ledger.registrations.has(urn));
  if (absent.length) await engineLog("info", exclusiveHeldBack(groupId, absent));
}
