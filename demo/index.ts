/**
 * `npm run demo`: starts the emulator, connects a sample visitor, and applies the quickstart
 * (examples/quickstart), then prints the plan, the stack outputs and what the emulator holds. Then
 * GroupRoles (./group-roles): a catalogue's plan, the requests of its applies, and a preview that
 * refuses to remove a role users hold.
 *
 * Which engine: the real Pulumi CLI that `npm run cli:install` built into this checkout, when it is there
 * (a local file backend and a passphrase secrets provider, through tools/pulumi-cli/run.ts, as
 * `npm run test:cli`); else the engine stand-in in tools/engine (the real Pulumi Node runtime and
 * dynamic-provider host, with a small test engine in place of the CLI). `--engine cli|stand-in` chooses;
 * the demo says which it uses.
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { connectVisitor, startEmulator } from "../emulator";
import { type EngineOptions, type EngineResult, type StateResource, readCheckpoint, runEngine } from "../tools/engine";
import { catalogueChanges, readable } from "../tools/plan-report";
import { cliAvailable, runPulumiCli } from "../tools/pulumi-cli/run";
import { repoRoot } from "../tools/repo-root";
import { groupRolesDemo, type Operate } from "./group-roles";

/** Where the demo keeps its stacks (and the CLI's file backend): replaced at every run. */
const defaultWork = path.join(repoRoot, ".tmp", "demo");
const quickstartDir = path.join(repoRoot, "examples", "quickstart");
const catalogueDir = path.join(repoRoot, "examples", "group-catalogue");
const groupId = 42;
/** The catalogue's group: the quickstart's roles (group 42) hold some of the same names. */
const catalogueGroupId = 43;

export type Engine = "cli" | "stand-in";
/** Where the demo writes its report, a line at a time (stdout for the command; a test collects it). */
export type Say = (text?: string) => void;
type Run = (o: EngineOptions) => Promise<EngineResult>;

/** `--engine`, else the built CLI when there is one. */
function chosenEngine(args: string[]): Engine {
  const { values } = parseArgs({ args, options: { engine: { type: "string" } } });
  if (values.engine === undefined) return cliAvailable() ? "cli" : "stand-in";
  if (values.engine !== "cli" && values.engine !== "stand-in")
    throw new Error(`--engine ${values.engine}: expected cli or stand-in`);
  if (values.engine === "cli" && !cliAvailable())
    throw new Error("--engine cli: the Pulumi CLI is not built in this checkout; run `npm run cli:install` first");
  return values.engine;
}

/** The plan of a run, each GroupRoles step with what it does to each entry; errors without URN noise. */
function described(r: EngineResult, before: readonly StateResource[]): { plan: string; errors: string[] } {
  const changing = r.plan.filter((p) => p.op !== "same");
  const lines = r.planText
    .split("\n")
    .filter(Boolean)
    .flatMap((l, i) => [
      readable(l),
      ...catalogueChanges(
        changing[i]!,
        before.find((b) => b.urn === changing[i]?.urn),
      ),
    ]);
  return { plan: lines.join("\n"), errors: r.errors.map(readable) };
}

/** The catalogue's stack: one operation at a time, each with its per-entry plan. */
function catalogueOperate(
  run: Run,
  work: string,
  config: Record<string, string>,
  secret: Record<string, string>,
): Operate {
  return async (operation, extra) => {
    const stateFile = path.join(work, "catalogue-state.json");
    const before = (await readCheckpoint(stateFile, "", "demo")).resources;
    const r = await run({
      operation,
      programDir: catalogueDir,
      stack: "demo",
      stateFile,
      config: { ...config, ...extra },
      secretConfig: secret,
    });
    return { ok: r.ok, ...described(r, before) };
  };
}

/** The quickstart's preview and up, with the plan and the stack outputs. */
async function quickstart(
  run: Run,
  work: string,
  config: Record<string, string>,
  secret: Record<string, string>,
  step: (title: string) => void,
  line: Say,
): Promise<boolean> {
  const options = {
    programDir: quickstartDir,
    stack: "demo",
    stateFile: path.join(work, "state.json"),
    config,
    secretConfig: secret,
  };
  step("preview of the quickstart (examples/quickstart: Roles, a role lookup, a visitor's presence)");
  const preview = await run({ ...options, operation: "preview" });
  line(readable(preview.planText) || "(no changes)");
  for (const e of preview.errors) line(readable(e));
  step("up");
  const up = await run({ ...options, operation: "up" });
  line(readable(up.planText) || "(no changes)");
  for (const e of up.errors) line(readable(e));
  line("\n== outputs ==");
  for (const [k, v] of Object.entries(up.outputs)) line(`  ${k}: ${JSON.stringify(v)}`);
  return up.ok;
}

/** The whole demo through `engine`; true when every step did what it shows. */
export async function runDemo(engine: Engine, line: Say, work = defaultWork): Promise<boolean> {
  const started = Date.now();
  /** A progress line: what runs now, and the time since the demo started. */
  const step = (title: string) => line(`\n[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${title}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const emu = await startEmulator({ presenceServers: 2 });
  line(`emulator: roles ${emu.baseUrl}, presence ${emu.presenceUrl}, named servers ${emu.directServers.join(", ")}`);
  const visitor = await connectVisitor({ presenceUrl: emu.presenceUrl, groupId, visitorId: "visitor-1" });
  line(`visitor "visitor-1" connected to ${visitor.server}`);
  const config = {
    "quickstart:groupId": String(groupId),
    "grouproles:baseUrl": emu.baseUrl,
    "grouproles:presenceUrl": emu.presenceUrl,
  };
  const secret = { "grouproles:accessToken": emu.token };
  try {
    if (engine === "cli")
      line("Engine: the real Pulumi CLI built by `npm run cli:install` (a local file backend under .tmp/demo).");
    else {
      line("Engine: the engine stand-in (tools/engine) with the real Pulumi Node runtime and dynamic-provider");
      line("host; this is not a real `pulumi up` (`npm run cli:install` builds the CLI, which the demo then uses).");
    }
    const run: Run = engine === "cli" ? runPulumiCli : runEngine;
    const applied = await quickstart(run, work, config, secret, step, line);
    const res = await fetch(`${emu.baseUrl}/api/v0/groups/${groupId}/roles`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    line(`\n== the emulator now holds (group ${groupId}) ==`);
    for (const role of (await res.json()) as Array<Record<string, unknown>>) line(`  ${JSON.stringify(role)}`);
    const catalogueConfig = { "grouproles:baseUrl": emu.baseUrl };
    const operate = catalogueOperate(run, work, catalogueConfig, secret);
    const catalogued = await groupRolesDemo(emu, work, catalogueGroupId, operate, step, line);
    step("done");
    return applied && catalogued;
  } finally {
    await visitor.close();
    await emu.close();
  }
}

async function main(): Promise<void> {
  const engine = chosenEngine(process.argv.slice(2));
  if (!(await runDemo(engine, (text = "") => process.stdout.write(`${text}\n`)))) process.exitCode = 1;
}

if (require.main === module)
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
