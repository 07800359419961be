/**
 * What a catalogue's Check or Diff tells the reviewer beside the plan's own lines, which cannot show it:
 * a large change in counts, roles taken over (kept, not created), entries that leave the plan's eye as
 * removals but whose role stays (a key renamed, a `retain: true` entry removed), and an exclusive
 * catalogue that removes nothing in a run that leaves out a resource of its `dependsOn`.
 */
import type { RoleSummary } from "../../client/types";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import { engineLog } from "../shared/engine-log";
import type { Registration } from "../shared/registrations";
import { absentDependencies } from "../shared/structure";
import { exclusiveHeldBack } from "./errors";
import { someLines } from "./name-errors";
import type { Plan } from "./plan-types";
import { planReport } from "./plan-report";
import type { GroupRolesState } from "./types";

/**
 * The plan, entry by entry (./plan-report), in one message. `moved`: new key to old key (./renamed-keys);
 * `retained`: keys removed with `retain: true`. With a takeover, what a removed resource's `- delete` of
 * the same role means.
 */
export async function notePlan(
  plan: Plan,
  state: GroupRolesState,
  listed: readonly RoleSummary[],
  seen: {
    moved?: ReadonlyMap<string, string>;
    retained?: readonly string[];
    handedTo?: ReadonlyMap<string, string>;
    urn?: string | undefined;
  } = {},
): Promise<void> {
  const { moved, retained, handedTo, urn } = seen;
  const report = planReport(plan, state, listed, moved, retained, handedTo);
  if (!report) return;
  const taken = plan.takeovers.length;
  const deleteOfTaken = taken
    ? `\nA resource this change removes that records ${taken === 1 ? "the role" : "one of the roles"} taken over (a ` +
      "`- delete` in this plan) leaves it in the service."
    : "";
  await engineLog("info", `${report}${deleteOfTaken}`, urn);
}

/** An exclusive catalogue's `dependsOn` resources this run leaves out: it removes nothing (./others). */
export async function noteHeldBack(groupId: number, reg: Registration, ledger: DeploymentLedger): Promise<void> {
  const absent = absentDependencies(reg.structure, (urn) => ledger.registrations.has(urn));
  if (absent.length) await engineLog("info", exclusiveHeldBack(groupId, absent), reg.structure.urn);
}

/**
 * The removals in the plan's diff that delete nothing: a key renamed with its name kept (the diff shows
 * the old key removed and the new one added) and an entry removed with `retain: true` (Pulumi forgets it,
 * the service keeps it). `moved`: new key to old key (./renamed-keys); `removed`: keys no longer declared.
 */
export function keptNotes(
  groupId: number,
  state: GroupRolesState,
  moved: ReadonlyMap<string, string>,
  removed: readonly string[],
): string[] {
  const notes: string[] = [];
  const role = (key: string) => `"${state.roles[key]!.name}" (roleId ${state.roles[key]!.roleId})`;
  if (moved.size)
    notes.push(
      `GroupRoles of group ${groupId}: ${moved.size === 1 ? "an entry keeps its role" : `${moved.size} entries keep their roles`} ` +
        "under a new key (the same role, its ID and users kept; the diff shows the old key removed and the new one added):\n" +
        someLines([...moved], ([now, was]) => `  roles.${now} (was roles.${was}): ${role(was)}`),
    );
  const retained = removed.filter((key) => state.roles[key]?.retain);
  if (retained.length)
    notes.push(
      `GroupRoles of group ${groupId}: ${retained.length === 1 ? "an entry marked `retain: true` leaves" : `${retained.length} entries marked \`retain: true\` leave`} ` +
        "the catalogue: Pulumi forgets the role, the service keeps it (nothing is deleted):\n" +
        someLines(retained, (key) => `  roles.${key}: ${role(key)}`),
    );
  return notes;
}

/** {@link keptNotes}, to the engine's output, under the resource `urn` names. */
export async function noteKept(urn: string | undefined, ...args: Parameters<typeof keptNotes>): Promise<void> {
  for (const note of keptNotes(...args)) await engineLog("info", note, urn);
}
