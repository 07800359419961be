/**
 * What `npm run try` prints about one run of the engine stand-in: each changing step with its property
 * changes (`old => new`, as `pulumi preview --diff` prints them: ../property-diff.ts), what a GroupRoles
 * step does to the roles where its input diff cannot say it (a moved key, a retained entry), warnings,
 * errors without URN noise or stack traces, the stack's outputs, and the CLI's `Resources:` summary.
 */
import type { EngineResult, PlanStep, StateResource } from "../engine";
import { planText } from "../engine/plan";
import { type Props, type Value, isObject, isSecret, secret } from "../engine/values";
import { readable } from "../plan-report";
import { diffObjects, printObject, printObjectDiff, translateDetailedDiff } from "../property-diff";

/** Most lines of property changes shown under one step (a catalogue of 1000 roles would fill a screen). */
const MAX_DETAIL_LINES = 40;

const isStack = (r: { type: string; parent?: string }) => r.type === "pulumi:pulumi:Stack" && !r.parent;

/** The step's new inputs with the program's secrets marked again. */
function sealedInputs(step: PlanStep): Props {
  const out: Props = { ...(step.inputs ?? {}) };
  for (const k of step.secretInputs ?? []) {
    const v = out[k];
    if (v !== undefined && !isSecret(v)) out[k] = secret(v);
  }
  return out;
}

/** The property lines under a step: all inputs of a create, what changes in an update or replacement. */
export function stepDetails(step: PlanStep): string[] {
  if (!step.inputs) return [];
  const news = sealedInputs(step);
  let lines: string[] = [];
  if (step.op === "create" || step.op === "import") lines = printObject(news);
  else if ((step.op === "update" || step.op === "replace") && step.old) {
    // diff.go renderDiff: a provider's detailed diff when it sent one, else the inputs compared.
    const diff = step.detailedDiff
      ? translateDetailedDiff(step.detailedDiff, step.old.inputs, news)
      : diffObjects(step.old.inputs, news);
    lines = diff ? printObjectDiff(diff) : [];
  }
  if (lines.length > MAX_DETAIL_LINES)
    lines = [...lines.slice(0, MAX_DETAIL_LINES), `    ... ${lines.length - MAX_DETAIL_LINES} more lines`];
  return lines;
}

type Entry = Record<string, Value>;
const entries = (v: Value | undefined): Record<string, Entry> =>
  (isObject(v) ? Object.fromEntries(Object.entries(v).filter(([, e]) => isObject(e))) : {}) as Record<string, Entry>;

/**
 * What the property diff of a GroupRoles step cannot tell: an entry whose key changed but whose name
 * stayed is the same role (the diff shows its old key deleted and its new key added), and an entry
 * removed with `retain: true` leaves the stack but stays in the service.
 */
export function catalogueNotes(step: PlanStep): string[] {
  if (!/(^|:)GroupRoles$/.test(step.type) || step.op !== "update" || !step.old || !step.inputs) return [];
  const held = entries(step.old.outputs["roles"]);
  const declared = entries(step.inputs["roles"]);
  const leaving = new Map<Value, string>();
  for (const [key, e] of Object.entries(held)) if (!(key in declared)) leaving.set(e["name"] ?? null, key);
  const notes: string[] = [];
  for (const [key, e] of Object.entries(declared)) {
    const from = key in held ? undefined : leaving.get(e["name"] ?? null);
    if (from === undefined) continue;
    leaving.delete(e["name"] ?? null);
    notes.push(
      `    roles.${key} (was roles.${from}): ${JSON.stringify(e["name"])}, the same role (roleId ${held[from]?.["roleId"]}), kept under its new key, not deleted`,
    );
  }
  for (const [name, key] of leaving) {
    const was = held[key];
    if (was?.["retain"] === true || entries(step.old.inputs["roles"])[key]?.["retain"] === true)
      notes.push(
        `    roles.${key}: ${JSON.stringify(name)} (roleId ${was?.["roleId"]}) leaves the stack and stays in the service (retain)`,
      );
  }
  return notes;
}

/** ANSI colours out; frames of Node's stack traces out, except those in the user's program. */
export function withoutTraces(message: string, programDir: string): string {
  const lines: string[] = [];
  let dump = 0;
  for (const line of message.replace(/\u001b\[[0-9;]*m/g, "").split("\n")) {
    // The object Node prints after an error (`{ code: 14, details: ..., metadata: ... }`).
    if (dump > 0 || /^\s*[[\]{}]?\s*(code|details|metadata|promise):/.test(line)) {
      dump += (line.match(/{/g)?.length ?? 0) - (line.match(/}/g)?.length ?? 0);
      if (dump < 0) dump = 0;
      continue;
    }
    if (/^\s*}\s*$/.test(line)) continue;
    if (/^\s+at\s/.test(line) && (!line.includes(programDir) || line.includes("node_modules"))) continue;
    if (/^\s*for call at\s*$/.test(line)) continue;
    lines.push(line.replace(/\s+{$/, ""));
  }
  return lines.join("\n").trim();
}

/** Noise the Node SDK prints when the engine stops the program: not the cause of anything. */
const SHUTDOWN_NOISE = /Channel has been shut down|Channel closed before call started|failed to deliver log message/;

/** The errors of a run, each once, readable, without stack traces. */
export function errorLines(r: EngineResult, programDir: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of r.errors) {
    const text = withoutTraces(readable(e), programDir);
    // The same failure reported for a provider and for each resource that needed it: shown once.
    const message = withoutTraces(e, programDir)
      .replace(/^error: urn:pulumi:\S+?: /, "")
      // The program's own report of a failure the engine reported (an invoke's, say).
      .replace(/^error: Running program '[^']*' failed with an unhandled exception:\n(<ref \*\d+> )?(Error: )?/, "");
    if (seen.has(message)) continue;
    seen.add(message);
    out.push(text);
  }
  return out;
}

/**
 * The stack's outputs after the run, compared with the ones state held: `  name: value` when it
 * stays, `~ name: old => new`, `+ name: value`, `- name: old` (object_diff.go
 * getResourceOutputsPropertiesString prints the root stack's outputs so, sames included, during an
 * update; in a preview the CLI leaves the sames out, the trial shows them too).
 */
export function outputLines(r: EngineResult, before: readonly StateResource[]): string[] {
  const old = before.find(isStack);
  const news = r.resources.find(isStack)?.outputs ?? r.outputs;
  // A new stack has no old outputs to compare with: its outputs are listed (no step.Old, no diff).
  const diff = old ? diffObjects(old.outputs, news) : undefined;
  if (!diff) return printObject(news);
  return printObjectDiff(diff, { summary: false });
}

/**
 * deploy.StepOps order and deploy.PastTense, as diff.go renderSummaryEvent counts them; a refresh that
 * finds drift counts as an update (step.go RefreshStep.ResultOp).
 */
const SUMMARY_OPS: Array<[Array<PlanStep["op"]>, string, string, string]> = [
  [["create"], "+ ", "create", "created"],
  [["update", "refresh"], "~ ", "update", "updated"],
  [["delete"], "- ", "delete", "deleted"],
  [["replace"], "+-", "replace", "replaced"],
  [["import"], "= ", "import", "imported"],
];

/** diff.go `renderSummaryEvent`: `Resources:`, a line per kind of change, `N changes. M unchanged`. */
export function summaryLines(plan: readonly PlanStep[], preview: boolean): string[] {
  const lines = ["Resources:"];
  let kinds = 0;
  let changes = 0;
  for (const [ops, prefix, present, past] of SUMMARY_OPS) {
    const n = plan.filter((s) => ops.includes(s.op)).length;
    if (!n) continue;
    kinds++;
    changes += n;
    lines.push(`    ${prefix}${n} ${preview ? `to ${present}` : past}`);
  }
  const pieces: string[] = [];
  if (kinds >= 2) pieces.push(`${changes} change${changes === 1 ? "" : "s"}`);
  const same = plan.filter((s) => s.op === "same").length;
  if (same) pieces.push(`${same} unchanged`);
  if (pieces.length) lines.push(`    ${pieces.join(". ")}`);
  return lines;
}

export interface RunReport {
  /** `Previewing update (try):`, `Updating (try):`, ... (the CLI's headings). */
  heading: string;
  /** Property changes under each step (not repeated in an update that a shown preview planned). */
  details: boolean;
  preview: boolean;
  programDir: string;
}

/** Every line of one run's report, in the CLI's order. */
export function runLines(r: EngineResult, before: readonly StateResource[], o: RunReport): string[] {
  const lines = [o.heading];
  for (const step of r.plan.filter((s) => s.op !== "same")) {
    lines.push(readable(planText([step])));
    if (o.details) lines.push(...stepDetails(step), ...catalogueNotes(step));
  }
  for (const d of r.diagnostics.filter((x) => x.severity !== "error"))
    lines.push(`${d.severity}: ${readable(d.message)}`);
  const errors = errorLines(r, o.programDir);
  lines.push(...errors);
  if (!r.ok && !errors.length && r.stderr.trim()) {
    const output = withoutTraces(r.stderr, o.programDir)
      .split("\n")
      .filter((l) => !SHUTDOWN_NOISE.test(l));
    if (output.join("").trim()) lines.push("Program output:", ...output);
  }
  if (!r.ok) return lines;
  const outputs = outputLines(r, before);
  if (outputs.length) lines.push("Outputs:", ...outputs);
  lines.push(...summaryLines(r.plan, o.preview));
  return lines;
}
