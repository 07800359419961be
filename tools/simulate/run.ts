// TEST INFRASTRUCTURE (simulation): runs one history on a lane and checks every operation.
//
// A deploy step is a team's change: `preview`, and when it is green, `up` (with the step's faults);
// after a failed `up` that met a fault, a fault-free `up` must finish the job and a following preview
// must show no changes. A refused preview is fine when its message is a clear refusal: the team then
// keeps its program as it was. Hand edits and user assignments go through the service's API and the
// emulator's admin API, as people and the service's users would make them.

import { ENGINE_FAILED_LINE } from "../engine";
import {
  type Violation,
  deletedByLeftOutMove,
  deletes,
  desiredState,
  documented,
  unknowableInPreview,
  noCrash,
  noCredentials,
  noOrphans,
  readOnly,
  released,
  resName,
  stateMatchesService,
  stateRoles,
  writes,
} from "./checks";
import { GROUPS, type Lane, type OpOptions, type OpRecord } from "./lane";
import { type OpOutcome, outcomeOf } from "./outcome";
import { type FaultKind, type FaultSpec, type History, type Program, type Step, describeProgram } from "./model";

export interface StepViolation extends Violation {
  step: number;
}

export interface RunStats {
  histories: number;
  steps: number;
  operations: number;
  /** Faults injected, and how many of them hit a request, by kind. */
  injected: Record<string, number>;
  fired: Record<string, number>;
  /** Previews refused with a documented message, by which; and `up`s after a green preview that were. */
  previewRefusals: Record<string, number>;
  upRefusals: Record<string, number>;
  /** Ups that failed having met a fault, and the fault-free re-runs that converged after them. */
  faultedUps: number;
  converged: number;
  ms: number;
  /** Of which in the engine stand-in's operations. */
  engineMs: number;
}

export const emptyStats = (): RunStats => ({
  histories: 0,
  steps: 0,
  operations: 0,
  injected: {},
  fired: {},
  previewRefusals: {},
  upRefusals: {},
  faultedUps: 0,
  converged: 0,
  ms: 0,
  engineMs: 0,
});

export function addStats(into: RunStats, s: RunStats): void {
  for (const k of ["histories", "steps", "operations", "faultedUps", "converged", "ms", "engineMs"] as const)
    into[k] += s[k];
  for (const k of ["injected", "fired", "previewRefusals", "upRefusals"] as const)
    for (const [name, n] of Object.entries(s[k])) into[k][name] = (into[k][name] ?? 0) + n;
}

export interface HistoryResult {
  violations: StepViolation[];
  stats: RunStats;
  /** One line per operation, for a report of a failing history. */
  trace: string[];
  /** What each operation ended with, in order (for `--differential`). */
  outcomes: OpOutcome[];
}

const EMPTY: Program = { roles: [], catalogues: [] };
const bump = (m: Record<string, number>, k: string, n = 1) => {
  m[k] = (m[k] ?? 0) + n;
};

/** Runs `history` on a fresh stack of `lane`; stops at the first step with a violation. */
export async function runHistory(lane: Lane, history: History): Promise<HistoryResult> {
  const started = Date.now();
  await lane.fresh();
  const stats = emptyStats();
  stats.histories = 1;
  const trace: string[] = [];
  const outcomes: OpOutcome[] = [];
  const violations: StepViolation[] = [];
  /** Roles the stack does not manage: made by hand, or forgotten with retain. */
  const unmanaged = new Set<number>();
  /** Roles edited by hand (or given users) since the last refresh: the state learns it at refresh. */
  const drifted = new Set<number>();
  let tokenIx: 0 | 1 = 0;
  /** Resources a `--target`/`--exclude` up left in the state though the program removed them. */
  const lingering = new Set<string>();
  /**
   * Resources of the program a `--target`/`--exclude` up left out (no Check, no step): a role another
   * resource of that up took over stays in their records too until they run again (history 10670).
   */
  const leftOut = new Set<string>();
  /** Roles the last operation's giver deleted under a left-out receiver: drift after it, its refresh included. */
  const movedAway = new Set<number>();
  /** A refresh learns the drift before it; what the operation's own deletes left behind comes after. */
  const refreshed = () => {
    drifted.clear();
    for (const id of movedAway) drifted.add(id);
  };
  /** The program of the last `up` (what refresh and destroy run against). */
  let applied: Program = EMPTY;
  let stepIx = 0;

  const fail = (found: Violation[]) => {
    for (const x of found) violations.push({ ...x, step: stepIx });
  };

  const op = async (operation: OpRecord["operation"], program: Program, o: OpOptions = {}): Promise<OpRecord> => {
    const rec = await lane.op(operation, program, tokenIx, o);
    outcomes.push(outcomeOf(operation, rec));
    stats.operations++;
    stats.engineMs += rec.engineMs;
    for (const f of rec.faults) {
      bump(stats.injected, f.spec.kind);
      if (f.hits > 0) bump(stats.fired, f.spec.kind);
    }
    const r = rec.result;
    trace.push(
      `  ${operation}${o.parallel ? ` --parallel ${o.parallel}` : ""}${flagsText(o)}${o.refresh ? " --refresh" : ""}${o.expectNoChanges ? " --expect-no-changes" : ""}${o.batch ? ` (maxBatchSize ${o.batch})` : ""}` +
        `${rec.faults.length ? ` faults ${rec.faults.map((f) => `${f.spec.kind}@${f.spec.route}/g${f.spec.group}${f.spec.skip ? `+${f.spec.skip}` : ""}${f.spec.persistent ? "*" : ""}(${f.hits})`).join(" ")}` : ""}: ` +
        `${r.ok ? "ok" : `FAILED ${r.errors.join(" | ").replace(/\s+/g, " ").slice(0, 300)}`}` +
        `${
          r.planText
            ? `\n${r.planText
                .split("\n")
                .map((l) => `      ${l}`)
                .join("\n")}`
            : ""
        }`,
    );
    // SIMULATE_REQUESTS=1: every request of the operation in the trace (to read a failing history).
    if (process.env.SIMULATE_REQUESTS)
      for (const e of rec.requests) trace.push(`      ${e.method} ${e.path} -> ${e.status} ${e.body.slice(0, 160)}`);
    for (const id of released(rec)) unmanaged.add(id);
    const recorded = new Set(
      rec.postState.flatMap((s) => {
        const m = /^\d+\/(\d+)$/.exec(String(s.id ?? ""));
        return m ? [Number(m[1])] : [];
      }),
    );
    for (const id of [...unmanaged]) if (recorded.has(id)) unmanaged.delete(id);
    fail(noCrash(rec));
    fail(noCredentials(rec, lane.tokens));
    if (operation === "up" || operation === "destroy") {
      const { roles, catalogues } = targeted(program, o);
      const ran = new Set([...roles, ...catalogues].map((x) => x.res));
      if (operation === "destroy" || !rec.partial) leftOut.clear();
      else
        for (const x of [...program.roles, ...program.catalogues]) {
          if (ran.has(x.res)) leftOut.delete(x.res);
          else leftOut.add(x.res);
        }
    }
    fail(stateMatchesService(rec, drifted, operation === "destroy" ? undefined : program, lingering, leftOut));
    const lingeringBefore = new Set(lingering);
    if (operation === "up" || operation === "destroy") {
      const declared = new Set([...program.roles, ...program.catalogues].map((x) => x.res));
      lingering.clear();
      if (rec.partial) for (const r of rec.postState) if (!declared.has(resName(r.urn))) lingering.add(resName(r.urn));
    }
    fail(noOrphans(rec, unmanaged));
    fail(deletes(rec, program, unmanaged, drifted, lingeringBefore, leftOut));
    // The receiver of a move split across runs records the role its giver's delete removed: drift, until a
    // refresh (checks.ts `deletedByLeftOutMove`).
    const held = new Set(rec.post.flatMap((list) => list.map((r) => r.roleId)));
    movedAway.clear();
    for (const s of stateRoles(rec.preState))
      if (
        s.roleId !== undefined &&
        !held.has(s.roleId) &&
        deletedByLeftOutMove(rec, s.roleId, lingeringBefore, leftOut)
      )
        movedAway.add(s.roleId);
    for (const id of movedAway) drifted.add(id);
    if (operation === "preview" || operation === "refresh") fail(readOnly(rec));
    return rec;
  };

  /**
   * A fault-free `up` after one that failed on a fault must reach the program, and a preview then shows
   * nothing. With the step's `--target`/`--exclude`, without its `--replace` (the replacement the first
   * run began is the state's to finish; asked again, the engine would replace once more).
   */
  const converge = async (program: Program, o: OpOptions) => {
    const again = await op("up", program, { ...withoutReplace(o), faults: [] });
    if (!again.result.ok) {
      const why = documented(again.result.errors);
      if (why) bump(stats.upRefusals, `${why} (after a fault)`);
      else
        fail([
          {
            kind: "no-convergence",
            message: `a fault-free up after a failed one failed: ${again.result.errors.join(" | ").slice(0, 500)}`,
          },
        ]);
      return;
    }
    stats.converged++;
    await verifyConverged(again, program, o);
  };

  const verifyConverged = async (up: OpRecord, program: Program, o: OpOptions) => {
    fail(desiredState(up, targeted(program, o), drifted));
    if (o.refresh) refreshed();
    // A preview shows no changes, unless an exclusive catalogue has roles to remove (made by hand or forgotten).
    const pending = program.catalogues.some(
      (c) => c.exclusive && up.post[c.group].some((r) => unmanaged.has(r.roleId)),
    );
    if (pending) return;
    const quiet = await op("preview", program, {
      ...withoutReplace(o),
      faults: [],
      refresh: false,
      expectNoChanges: true,
    });
    if (!quiet.result.ok)
      fail([
        {
          kind: "not-idempotent",
          message: `a preview after a successful up is not empty: ${(quiet.result.planText || quiet.result.errors.join(" | ")).slice(0, 500)}`,
        },
      ]);
  };

  for (const step of history.steps) {
    stats.steps++;
    trace.push(`step ${stepIx}: ${describeStep(step)}`);
    switch (step.op) {
      case "deploy": {
        const o: OpOptions = {
          ...(step.parallel !== undefined ? { parallel: step.parallel } : {}),
          ...(step.batch !== undefined ? { batch: step.batch } : {}),
          ...(step.refresh ? { refresh: true } : {}),
          ...(step.target ? { target: step.target } : {}),
          ...(step.exclude ? { exclude: step.exclude } : {}),
          ...(step.replace ? { replace: step.replace } : {}),
        };
        trace.push(`  program: ${describeProgram(step.program)}`);
        const preview = await op("preview", step.program, o);
        if (!preview.result.ok) {
          const why = documented(preview.result.errors);
          bump(stats.previewRefusals, why ?? "other");
          if (
            !why &&
            !preview.result.errors
              .filter((e) => !ENGINE_FAILED_LINE.test(e))
              .join("")
              .trim()
          )
            fail([{ kind: "unclear-refusal", message: "the preview failed without an error message" }]);
          break;
        }
        const up = await op("up", step.program, { ...o, faults: step.faults ?? [] });
        applied = step.program;
        const faulted = up.faults.some((f) => f.hits > 0);
        if (up.result.ok) {
          if (step.checkNoChanges || faulted) await verifyConverged(up, step.program, o);
          else {
            fail(desiredState(up, targeted(step.program, o), drifted));
            if (o.refresh) refreshed();
          }
        } else if (faulted) {
          stats.faultedUps++;
          await converge(step.program, o);
        } else {
          const why = unknowableInPreview(up.result.errors);
          if (why) bump(stats.upRefusals, why);
          else
            fail([
              {
                kind: "green-preview-failed-up",
                message: `a green preview was followed by a fault-free up that failed (${writes(up)} writes applied): ${up.result.errors.join(" | ").slice(0, 500)}`,
              },
            ]);
        }
        break;
      }
      case "refresh": {
        const r = await op("refresh", applied, { faults: step.faults ?? [] });
        if (r.result.ok) drifted.clear();
        else if (!r.faults.some((f) => f.hits > 0))
          fail([
            {
              kind: "refresh-failed",
              message: `a fault-free refresh failed: ${r.result.errors.join(" | ").slice(0, 500)}`,
            },
          ]);
        break;
      }
      case "destroy": {
        const r = await op("destroy", applied, {
          ...(step.parallel ? { parallel: step.parallel } : {}),
          faults: step.faults ?? [],
        });
        if (!r.result.ok && r.faults.some((f) => f.hits > 0)) {
          const again = await op("destroy", applied, {});
          if (!again.result.ok && !documented(again.result.errors))
            fail([
              {
                kind: "no-convergence",
                message: `a fault-free destroy after a failed one failed: ${again.result.errors.join(" | ").slice(0, 500)}`,
              },
            ]);
        } else if (!r.result.ok && !documented(r.result.errors))
          fail([
            {
              kind: "destroy-failed",
              message: `a fault-free destroy failed: ${r.result.errors.join(" | ").slice(0, 500)}`,
            },
          ]);
        applied = EMPTY;
        break;
      }
      case "hand":
        await handEdit(lane, step, unmanaged, drifted);
        break;
      case "users": {
        const role = await lane.holder(step.group, step.name);
        if (role) {
          await lane.h.admin("PUT", `/groups/${GROUPS[step.group]}/roles/${role.roleId}/users`, {
            userCount: step.count,
          });
          drifted.add(role.roleId);
        }
        break;
      }
      case "rotate":
        tokenIx = tokenIx === 0 ? 1 : 0;
        break;
    }
    if (violations.length) break;
    stepIx++;
  }
  stats.ms = Date.now() - started;
  return { violations, stats, trace, outcomes };
}

async function handEdit(
  lane: Lane,
  step: Extract<Step, { op: "hand" }>,
  unmanaged: Set<number>,
  drifted: Set<number>,
): Promise<void> {
  if (step.action === "create") {
    const r = await lane.api("POST", step.group, "/roles", [{ name: step.name, description: "made by hand" }]);
    if (r.status === 200) for (const made of r.json as Array<{ roleId: number }>) unmanaged.add(made.roleId);
    return;
  }
  const role = await lane.holder(step.group, step.name);
  if (!role) return;
  if (step.action === "delete") {
    const r = await lane.api("POST", step.group, "/delete-roles", [role.roleId]);
    if (r.status === 200) drifted.add(role.roleId);
    return;
  }
  const item =
    step.action === "rename"
      ? { roleId: role.roleId, name: step.to ?? `${role.name} (hand)` }
      : { roleId: role.roleId, name: role.name, description: "edited by hand" };
  const r = await lane.api("PUT", step.group, "/roles", [item]);
  if (r.status === 200) drifted.add(role.roleId);
}

/** The operation's options without `--replace`, for the runs that finish or check a step's `up`. */
const withoutReplace = ({ replace: _replace, ...rest }: OpOptions): OpOptions => rest;

/** The engine flags of an operation, as the CLI takes them (resource names for URNs). */
const flagsText = (o: OpOptions) =>
  [
    ...(o.target ?? []).map((r) => ` --target ${r}`),
    ...(o.exclude ?? []).map((r) => ` --exclude ${r}`),
    ...(o.replace ?? []).map((r) => ` --replace ${r}`),
  ].join("");

/**
 * What an `up` with `--target` or `--exclude` brings to the program's declarations: only the resources
 * it runs (the engine gives the others a same step from their old state: step_generator.go
 * `continueStepsFromImport`, NewUntargetedSameStep).
 */
export function targeted(p: Program, o: Pick<OpOptions, "target" | "exclude">): Program {
  const runs = (res: string) => (!o.target || o.target.includes(res)) && !o.exclude?.includes(res);
  return { ...p, roles: p.roles.filter((r) => runs(r.res)), catalogues: p.catalogues.filter((c) => runs(c.res)) };
}

export function describeStep(s: Step): string {
  const faults = (f: FaultSpec[] | undefined) =>
    f?.length
      ? ` with faults ${f.map((x) => `${x.kind as FaultKind}@${x.route}/g${x.group}${x.skip ? `+${x.skip}` : ""}${x.persistent ? "*" : ""}`).join(", ")}`
      : "";
  switch (s.op) {
    case "deploy":
      return `deploy (${s.change})${s.parallel ? ` --parallel ${s.parallel}` : ""}${flagsText(s)}${s.batch ? ` maxBatchSize ${s.batch}` : ""}${s.refresh ? " --refresh" : ""}${faults(s.faults)}`;
    case "refresh":
      return `refresh${faults(s.faults)}`;
    case "destroy":
      return `destroy${faults(s.faults)}`;
    case "hand":
      return `by hand: ${s.action} "${s.name}" in g${s.group}${s.to ? ` -> "${s.to}"` : ""}`;
    case "users":
      return `users: ${s.count} on "${s.name}" in g${s.group}`;
    case "rotate":
      return "rotate the token";
  }
}
