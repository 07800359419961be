/**
 * `npm run demo`: starts the emulator, connects a sample visitor, and applies the quickstart
 * (examples/quickstart, the root Pulumi.yaml), then prints the plan, the stack outputs and what the
 * emulator holds. Then GroupRoles (./group-roles): a catalogue's plan, the requests of its applies,
 * and a preview that refuses to remove a role users hold.
 *
 * With the Pulumi CLI on PATH it uses the Automation API and a local file backend; without it, the
 * engine stand-in in tools/engine (the real Pulumi Node runtime and dynamic-provider host, with a small
 * test engine in place of the CLI), and says so.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { connectVisitor, startEmulator } from "../emulator";
import { type EngineResult, type StateResource, readCheckpoint, runEngine } from "../tools/engine";
import { catalogueChanges, readable } from "../tools/plan-report";
import { groupRolesDemo, type Operate } from "./group-roles";

const root = path.resolve(__dirname, "../../..");
const work = path.join(root, ".tmp", "demo");
const catalogueDir = path.join(root, "examples", "group-catalogue");
const groupId = 42;
/** The catalogue's group: the quickstart's roles (group 42) hold some of the same names. */
const catalogueGroupId = 43;

function hasPulumiCli(): boolean {
  try {
    execFileSync("pulumi", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const line = (s = "") => process.stdout.write(`${s}\n`);
const started = Date.now();
/** A progress line: what runs now, and the time since the demo started. */
const step = (title: string) => line(`\n[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${title}`);

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

async function withCli(config: Record<string, string>, secret: Record<string, string>): Promise<void> {
  // Not exercised on the machines this package is built on (no CLI there).
  const { LocalWorkspace } = (await import("@pulumi/pulumi")).automation;
  mkdirSync(path.join(work, "backend"), { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "demo", workDir: root },
    { envVars: { PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`, PULUMI_CONFIG_PASSPHRASE: "demo" } },
  );
  for (const [k, v] of Object.entries(config)) await stack.setConfig(k, { value: v });
  for (const [k, v] of Object.entries(secret)) await stack.setConfig(k, { value: v, secret: true });
  const preview = await stack.preview();
  line(preview.stdout);
  const up = await stack.up();
  line(up.stdout);
  for (const [k, v] of Object.entries(up.outputs)) line(`  ${k}: ${JSON.stringify(v.value)}`);
}

/** The catalogue's stack through the Automation API. Not exercised on the machines this package is built on. */
async function cliOperate(config: Record<string, string>, secret: Record<string, string>): Promise<Operate> {
  const { LocalWorkspace } = (await import("@pulumi/pulumi")).automation;
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "demo", workDir: catalogueDir },
    { envVars: { PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`, PULUMI_CONFIG_PASSPHRASE: "demo" } },
  );
  for (const [k, v] of Object.entries(config)) await stack.setConfig(k, { value: v });
  for (const [k, v] of Object.entries(secret)) await stack.setConfig(k, { value: v, secret: true });
  return async (op, extra) => {
    for (const [k, v] of Object.entries(extra)) await stack.setConfig(k, { value: v });
    try {
      const r = op === "preview" ? await stack.preview() : await stack.up();
      return { ok: true, plan: r.stdout, errors: [] };
    } catch (e) {
      return { ok: false, plan: "", errors: [(e as Error).message] };
    }
  };
}

/** The catalogue's stack through the engine stand-in. */
function standInOperate(config: Record<string, string>, secret: Record<string, string>): Operate {
  return async (operation, extra) => {
    const stateFile = path.join(work, "catalogue-state.json");
    const before = (await readCheckpoint(stateFile, "", "demo")).resources;
    const r = await runEngine({
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

async function withStandIn(config: Record<string, string>, secret: Record<string, string>): Promise<void> {
  line("The Pulumi CLI is not installed: using the engine stand-in (tools/engine) with the real Pulumi");
  line("Node runtime and dynamic-provider host. This is not a real `pulumi up`.");
  const options = {
    programDir: root,
    stack: "demo",
    stateFile: path.join(work, "state.json"),
    config,
    secretConfig: secret,
  };
  step("preview of the quickstart (examples/quickstart: Roles, a role lookup, a visitor's presence)");
  const preview = await runEngine({ ...options, operation: "preview" });
  line(readable(preview.planText) || "(no changes)");
  step("up");
  const up = await runEngine({ ...options, operation: "up" });
  line(readable(up.planText) || "(no changes)");
  for (const e of up.errors) line(readable(e));
  line("\n== outputs ==");
  for (const [k, v] of Object.entries(up.outputs)) line(`  ${k}: ${JSON.stringify(v)}`);
  if (!up.ok) process.exitCode = 1;
}

async function main(): Promise<void> {
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
    const cli = hasPulumiCli();
    if (cli) await withCli(config, secret);
    else await withStandIn(config, secret);
    const res = await fetch(`${emu.baseUrl}/api/v0/groups/${groupId}/roles`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    line(`\n== the emulator now holds (group ${groupId}) ==`);
    for (const role of (await res.json()) as Array<Record<string, unknown>>) line(`  ${JSON.stringify(role)}`);
    const catalogueConfig = { "grouproles:baseUrl": emu.baseUrl };
    const operate = cli ? await cliOperate(catalogueConfig, secret) : standInOperate(catalogueConfig, secret);
    if (!(await groupRolesDemo(emu, work, catalogueGroupId, operate, step))) process.exitCode = 1;
    step("done");
  } finally {
    await visitor.close();
    await emu.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
