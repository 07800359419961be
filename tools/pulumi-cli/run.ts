// TEST INFRASTRUCTURE (real-CLI layer): one `pulumi preview|up|refresh|destroy` through the real Pulumi CLI
// (built by `npm run cli:install`), with a local file backend and a passphrase secrets provider, answered
// in the engine stand-in's result shape (tools/engine `EngineResult`), so that an end-to-end suite runs
// through either engine unchanged (`E2E_ENGINE=cli`, see test/e2e/harness.ts).
//
// What comes from where:
// - the plan, errors and diagnostics from the CLI's engine event log (`--event-log`: apitype.EngineEvent
//   lines, the stream the Automation API reads);
// - the resources from `pulumi stack export --show-secrets`, also written to `stateFile` in the stand-in's
//   checkpoint format (tools/engine/state.ts), so that tests read either engine's state the same way;
// - provider calls from the CLI's gRPC log (`PULUMI_DEBUG_GRPC`), counted per ResourceProvider method.
// Each stack gets a project directory of its own (a copy of the program's files and a link to the
// repository's node_modules): `pulumi config` writes `Pulumi.<stack>.yaml` beside Pulumi.yaml, and test
// files run in parallel on the same example.

import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type {
  EngineOptions,
  EngineResult,
  HostReport,
  PlanStep,
  ProviderMethod,
  StateResource,
  StepOp,
} from "../engine";
import { cleanEnv } from "../engine/child-env";
import { planText } from "../engine/plan";
import { noCalls } from "../engine/provider-host";
import { StateWriter } from "../engine/state";
import { type Props, SECRET_SIG, SIG_KEY, type Value, unwrapSecrets } from "../engine/values";
import { repoRoot } from "../repo-root";

/** Where `npm run cli:install` puts the CLI (scripts/install-pulumi-cli.js `cliBinDir`). */
export const { cliBinDir } = require(path.join(repoRoot, "scripts/install-pulumi-cli.js")) as {
  cliBinDir: () => string;
};

/** The passphrase of every test stack's secrets provider: the point is real encryption, not secrecy. */
const PASSPHRASE = "grouproles-real-cli-tests";

/** True when `npm run cli:install` has built the CLI. */
export function cliAvailable(): boolean {
  return existsSync(path.join(cliBinDir(), "pulumi"));
}

/** The PULUMI_HOME of a stack of this state file (its plugins, its workspace settings). */
export function cliHome(stateFile: string): string {
  return path.join(`${stateFile}.cli`, "home");
}

/** The directories a stack of this state file keeps beside it: the file backend and its project copy. */
export function cliStackDirs(stateFile: string): { backend: string; project: string } {
  const base = `${stateFile}.cli`;
  return { backend: path.join(base, "backend"), project: path.join(base, "project") };
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cliEnv(o: EngineOptions, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dirs = cliStackDirs(o.stateFile);
  return {
    ...cleanEnv(),
    ...o.env,
    ...o.providerEnv,
    // The CLI first; then a PATH the caller gives is the whole of it (a test may leave the plugin out); else this checkout's bins.
    PATH: [
      cliBinDir(),
      ...(o.env?.PATH || o.providerEnv?.PATH
        ? [o.env?.PATH, o.providerEnv?.PATH]
        : [path.join(repoRoot, "node_modules", ".bin"), process.env.PATH]),
    ]
      .filter(Boolean)
      .join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${dirs.backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_HOME: cliHome(o.stateFile),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // `--event-log` is a flag of debug commands only (operations/up.go), as the Automation API sets it.
    PULUMI_DEBUG_COMMANDS: "true",
    NO_COLOR: "1",
    ...extra,
  };
}

/**
 * Runs `pulumi args...`. It gets a process group of its own, killed whole at `timeoutMs` (a hung `up`):
 * killing the CLI alone would leave its language host and provider plugins running. `killWhen`: the
 * group is killed (SIGKILL, as a cancelled CI job is) once it resolves true, a killed pipeline's case.
 */
function pulumi(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  killWhen?: () => Promise<boolean>,
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(path.join(cliBinDir(), "pulumi"), [...args, "--non-interactive", "--color", "never"], {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const killGroup = () => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms with its process group)`;
      killGroup();
    }, timeoutMs);
    let exited = false;
    // Asked again after each answer (a condition of the service the test reads), until it holds or the CLI exits.
    const watch = async (): Promise<void> => {
      while (killWhen && !exited) {
        if (await killWhen().catch(() => false)) {
          stderr += "\n(killed with SIGKILL, with its process group, as the test asked)";
          return killGroup();
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    void watch();
    child.on("error", (e) => {
      exited = true;
      clearTimeout(timer);
      resolve({ code: 1, stdout, stderr: `${stderr}${e.message}` });
    });
    child.on("close", (code) => {
      exited = true;
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** The program's files in the stack's own project directory (node_modules linked, not copied). */
function layProject(programDir: string, project: string): void {
  // Laid anew for every command: a test may change the program's files (its Pulumi.yaml) between runs.
  mkdirSync(project, { recursive: true });
  // The stack config stays (it holds the secrets provider's salt); the program's files are replaced.
  const isStackConfig = (name: string) => /^Pulumi\..+\.yaml$/.test(name);
  for (const e of readdirSync(project)) if (!isStackConfig(e)) rmSync(path.join(project, e), { recursive: true });
  for (const e of readdirSync(programDir)) {
    if (e === "node_modules" || isStackConfig(e)) continue;
    cpSync(path.join(programDir, e), path.join(project, e), { recursive: true });
  }
  // The node_modules the program resolves from where it is (its own, an installed project's, this checkout's).
  symlinkSync(nearestNodeModules(programDir), path.join(project, "node_modules"), "dir");
  // In the checkout, the runtime finds the repository's package.json above a program that has none; the
  // copy has nothing above it, so it gets one of its own (else `cmd/run` warns that it found none).
  if (!existsSync(path.join(project, "package.json")))
    writeFileSync(
      path.join(project, "package.json"),
      `${JSON.stringify({ name: path.basename(programDir), private: true })}\n`,
    );
}

/** The first `node_modules` at or above `dir`, as Node's resolution finds packages. */
function nearestNodeModules(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, "node_modules"))) return path.join(d, "node_modules");
    if (path.dirname(d) === d) return path.join(repoRoot, "node_modules");
  }
}

/** `pulumi config` of exactly these values: what the stand-in takes as EngineOptions config. */
async function setConfig(o: EngineOptions, cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  const args = ["config", "set-all", "--stack", o.stack];
  for (const [k, v] of Object.entries(o.config ?? {})) args.push("--plaintext", `${k}=${v}`);
  for (const [k, v] of Object.entries(o.secretConfig ?? {})) args.push("--secret", `${k}=${v}`);
  const file = path.join(cwd, `Pulumi.${o.stack}.yaml`);
  // Drop the previous run's values but keep the secrets provider's salt (state's secrets are encrypted with it).
  if (existsSync(file)) {
    const salt = /^encryptionsalt:.*$/m.exec(readFileSync(file, "utf8"))?.[0];
    writeFileSync(file, `${salt ?? ""}\n`);
  }
  if (args.length === 4) return { code: 0, stdout: "", stderr: "" };
  return pulumi(args, cwd, env, 60_000);
}

async function ensureStack(o: EngineOptions, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const dirs = cliStackDirs(o.stateFile);
  mkdirSync(dirs.backend, { recursive: true });
  const select = await pulumi(
    ["stack", "select", "--create", o.stack, "--secrets-provider", "passphrase"],
    cwd,
    env,
    60_000,
  );
  if (select.code !== 0) throw new Error(`pulumi stack select --create ${o.stack}: ${select.stderr || select.stdout}`);
}

interface EngineEvent {
  diagnosticEvent?: { urn?: string; message: string; severity: string; ephemeral?: boolean };
  resourcePreEvent?: { metadata: StepMetadata; planning?: boolean };
  resOutputsEvent?: { metadata: StepMetadata; planning?: boolean };
  summaryEvent?: { resourceChanges: Record<string, number> };
  stdoutEvent?: { message: string };
}

interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Props; outputs?: Props; retainOnDelete?: boolean } | null;
  new?: { inputs?: Props; outputs?: Props; retainOnDelete?: boolean } | null;
  diffs?: string[];
  detailedDiff?: Record<string, { diffKind: string }> | null;
}

function readEvents(file: string): EngineEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as EngineEvent);
}

/** The engine's step ops folded into the stand-in's (a replacement's three steps are one `replace`). */
const OPS: Record<string, StepOp | undefined> = {
  same: "same",
  create: "create",
  update: "update",
  delete: "delete",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  read: "read",
  "read-replacement": "read",
  import: "import",
  "import-replacement": "import",
  refresh: "refresh",
};

/**
 * A refresh step's outcome, which the engine reports in its outputs event, not its pre event
 * (engine/update.go: `RefreshStep.ResultOp()` for a refresh): same, update (drift), delete (gone).
 */
const REFRESH_RESULT: Record<string, StepOp | undefined> = { same: "same", update: "refresh", delete: "delete" };

function planFrom(events: EngineEvent[]): PlanStep[] {
  const steps: PlanStep[] = [];
  /** A replacement's steps (create-replacement, replace, delete-replaced) fold into one, by URN. */
  const replacing = new Map<string, PlanStep>();
  const refreshed = new Map<string, string>();
  for (const e of events) {
    const m = e.resOutputsEvent?.metadata;
    if (m) refreshed.set(m.urn, m.op);
  }
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m) continue;
    const op = m.op === "refresh" ? REFRESH_RESULT[refreshed.get(m.urn) ?? "same"] : OPS[m.op];
    if (!op) continue;
    const name = m.urn.split("::").slice(3).join("::");
    const prior = op === "replace" ? replacing.get(m.urn) : undefined;
    const step: PlanStep = prior ?? { op, urn: m.urn, type: m.type, name };
    if (op === "replace" && !prior) {
      // The replaced resource's delete arriving before its create is a delete-before-replace.
      step.deleteBeforeReplace = m.op === "delete-replaced";
      replacing.set(m.urn, step);
    }
    const changed = displayedDiffKeys(m);
    if (changed.length) step.changedProperties = changed;
    if (m.detailedDiff && Object.keys(m.detailedDiff).length)
      step.detailedDiff = Object.fromEntries(Object.entries(m.detailedDiff).map(([k, v]) => [k, v.diffKind]));
    if (op === "delete" && (m.old?.retainOnDelete ?? false)) step.retain = true;
    if (m.new?.inputs && op !== "delete") step.inputs = unwrapSecrets(m.new.inputs) as Props;
    if (m.old && (op === "update" || op === "replace"))
      step.old = { inputs: m.old.inputs ?? {}, outputs: m.old.outputs ?? {} };
    if (!prior) steps.push(step);
  }
  return steps;
}

/**
 * The top-level properties the CLI's display names in `[diff: ...]` (backend/display/rows.go `getDiffInfo`):
 * the detailed diff's when the provider sent one, else the inputs' own difference, internal `__` keys
 * left out; narrowed to the provider's `diffs` when it listed any. None for a same step.
 */
function displayedDiffKeys(m: StepMetadata): string[] {
  if (m.op === "same" || !m.old || !m.new) return [];
  let keys: string[];
  if (m.detailedDiff) keys = Object.keys(m.detailedDiff).map((p) => /^[^.[]+/.exec(p)?.[0] ?? p);
  else {
    const [a, b] = [m.old.inputs ?? {}, m.new.inputs ?? {}];
    // The event log masks secrets (`"ciphertext": "[secret]"`): two masked values may differ, as the engine,
    // which sees them, knows; the provider's `diffs` then says whether they do.
    const masked = (v: Value | undefined) => JSON.stringify(v ?? null).includes('"[secret]"');
    keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
      (k) =>
        !k.startsWith("__") &&
        (masked(a[k]) && masked(b[k]) ? (m.diffs ?? []).includes(k) : JSON.stringify(a[k]) !== JSON.stringify(b[k])),
    );
  }
  if (m.diffs?.length) keys = keys.filter((k) => m.diffs!.includes(k));
  return [...new Set(keys)].sort();
}

/** `pulumi stack export --show-secrets` resources in the stand-in's shape (secrets as `{sig, value}`). */
function resourcesFrom(exported: string): StateResource[] {
  const deployment = (JSON.parse(exported) as { deployment?: { resources?: Record<string, unknown>[] } }).deployment;
  const openSecret = (v: Value): Value => {
    if (Array.isArray(v)) return v.map(openSecret);
    if (v && typeof v === "object") {
      const o = v as Record<string, Value>;
      if (o[SIG_KEY] === SECRET_SIG && typeof o["plaintext"] === "string")
        return { [SIG_KEY]: SECRET_SIG, value: JSON.parse(o["plaintext"]) as Value };
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, openSecret(x)]));
    }
    return v;
  };
  return (deployment?.resources ?? []).map((r) => {
    const s: StateResource = {
      urn: String(r["urn"]),
      type: String(r["type"]),
      custom: Boolean(r["custom"]),
      inputs: openSecret((r["inputs"] ?? {}) as Value) as Props,
      outputs: openSecret((r["outputs"] ?? {}) as Value) as Props,
      dependencies: (r["dependencies"] as string[] | undefined) ?? [],
    };
    if (r["id"]) s.id = String(r["id"]);
    if (r["parent"]) s.parent = String(r["parent"]);
    if (r["propertyDependencies"]) s.propertyDependencies = r["propertyDependencies"] as Record<string, string[]>;
    if (r["protect"]) s.protect = true;
    if (r["retainOnDelete"]) s.retainOnDelete = true;
    if (r["external"]) s.external = true;
    if (r["delete"]) s.delete = true;
    if (r["initErrors"]) s.initErrors = r["initErrors"] as string[];
    if (r["provider"]) s.provider = String(r["provider"]);
    return s;
  });
}

/**
 * ResourceProvider calls the CLI made, from its gRPC log (PULUMI_DEBUG_GRPC: one JSON object a line,
 * `method` its path; it also holds every request's values, credentials included: it stays in the test's
 * directory, which is removed with it).
 */
function providerCalls(file: string): HostReport["calls"] {
  const calls = noCalls();
  if (!existsSync(file)) return calls;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    // Each call is logged when it starts and again when it ends: count the starts.
    if (!line.includes('"progress":"request_started"')) continue;
    const m = /"method":"\/pulumirpc\.ResourceProvider\/(\w+)"/.exec(line);
    if (m && m[1]! in calls) calls[m[1] as ProviderMethod] += 1;
  }
  return calls;
}

/** The operation through the real CLI; the same result shape as tools/engine `runEngine`. */
export function runPulumiCli(o: EngineOptions): Promise<EngineResult> {
  const args: string[] = [o.operation];
  if (o.operation !== "preview") args.push("--yes", "--skip-preview");
  if (o.parallel !== undefined) args.push("--parallel", String(o.parallel));
  if (o.refresh) args.push("--refresh");
  if (o.expectNoChanges) args.push("--expect-no-changes");
  if (o.continueOnError) args.push("--continue-on-error");
  if (o.runProgram) args.push("--run-program");
  for (const urn of o.targets ?? []) args.push("--target", urn);
  for (const urn of o.excludes ?? []) args.push("--exclude", urn);
  for (const urn of o.replaces ?? []) args.push("--replace", urn);
  return runCommand(o, args);
}

/**
 * Any `pulumi` command on the stack (`cancel`, `refresh --clear-pending-creates`, ...), with the
 * program's files laid and the config set as for an operation; `o.operation` is not used. `killWhen`:
 * see `pulumi` above. The same result shape as {@link runPulumiCli}.
 */
export function runPulumiArgs(
  o: EngineOptions,
  args: string[],
  killWhen?: () => Promise<boolean>,
): Promise<EngineResult> {
  return runCommand(o, args, killWhen);
}

/**
 * `pulumi import <type> <name> <id>` (the command, which the stand-in does not have), with no code
 * generated; `o.operation` is not used. The same result shape as {@link runPulumiCli}.
 */
export function runPulumiImport(o: EngineOptions, type: string, name: string, id: string): Promise<EngineResult> {
  return runCommand(o, ["import", type, name, id, "--yes", "--skip-preview", "--generate-code=false"]);
}

async function runCommand(
  o: EngineOptions,
  command: string[],
  killWhen?: () => Promise<boolean>,
): Promise<EngineResult> {
  if (o.plannedOutputs) throw new Error("runPulumiCli: plannedOutputs is the stand-in's alone (npm run try)");
  const dirs = cliStackDirs(o.stateFile);
  const timeout = o.timeoutMs ?? 300_000;
  // As for the stand-in, no state file is a new, empty stack: a test that removed it starts afresh.
  if (!existsSync(o.stateFile)) rmSync(dirs.backend, { recursive: true, force: true });
  layProject(path.resolve(o.programDir), dirs.project);
  const eventLog = path.join(`${o.stateFile}.cli`, "events.jsonl");
  const grpcLog = path.join(`${o.stateFile}.cli`, "grpc.jsonl");
  rmSync(eventLog, { force: true });
  rmSync(grpcLog, { force: true });
  const env = cliEnv(o);
  await ensureStack(o, dirs.project, env);
  const configured = await setConfig(o, dirs.project, env);
  if (configured.code !== 0) throw new Error(`pulumi config set-all: ${configured.stderr || configured.stdout}`);

  // The operations write an event log; other commands (`cancel`) have no such flag.
  const logged = ["up", "preview", "refresh", "destroy", "import"].includes(command[0] ?? "");
  const args = [...command, "--stack", o.stack, ...(logged ? ["--event-log", eventLog] : [])];
  const run = await pulumi(args, dirs.project, cliEnv(o, { PULUMI_DEBUG_GRPC: grpcLog }), timeout, killWhen);

  const events = readEvents(eventLog);
  if (process.env.DEBUG_CLI_EVENTS)
    console.log(
      JSON.stringify(
        events.filter((e) => e.resourcePreEvent).map((e) => e.resourcePreEvent?.metadata),
        null,
        1,
      ),
    );
  const diagnostics: EngineResult["diagnostics"] = [];
  const errors: string[] = [];
  for (const e of events) {
    const d = e.diagnosticEvent;
    if (!d || d.ephemeral) continue;
    const severity = d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "info";
    const message = d.message.replace(/\n+$/, "");
    diagnostics.push({ severity, message, ...(d.urn ? { urn: d.urn } : {}) });
    if (severity === "error") errors.push(`error: ${d.urn ? `${d.urn}: ` : ""}${message}`);
  }
  if (run.code !== 0 && errors.length === 0) errors.push(`error: ${run.stderr || run.stdout}`);

  const exported = await pulumi(["stack", "export", "--show-secrets", "--stack", o.stack], dirs.project, env, 60_000);
  const resources = exported.code === 0 ? resourcesFrom(exported.stdout) : [];
  const writer = new StateWriter(o.stateFile);
  await writer.write({ version: 1, project: "", stack: o.stack, resources });
  await writer.flush();
  const plan = planFrom(events);
  // The stack's outputs as the run ended (a preview writes no state: its outputs are in the event).
  const stackOutputs = events
    .map((e) => e.resOutputsEvent?.metadata)
    .filter((m) => m?.type === "pulumi:pulumi:Stack")
    .pop()?.new?.outputs;
  const root = resources.find((r) => r.type === "pulumi:pulumi:Stack");
  const calls = providerCalls(grpcLog);
  const host: HostReport = { stdout: run.stdout, stderr: run.stderr, calls };
  return {
    ok: run.code === 0,
    plan,
    planText: planText(plan),
    outputs: unwrapSecrets(stackOutputs ?? root?.outputs ?? {}) as Record<string, Value>,
    errors,
    diagnostics,
    stdout: run.stdout,
    stderr: run.stderr,
    resources,
    providerHost: host,
    providers: [{ label: "pulumi (real CLI)", ...host }],
  };
}
