// TEST INFRASTRUCTURE: the engine stand-in. Not part of the product; see ./README.md.
//
// `runEngine` plays the part of the Pulumi CLI's Go engine for one `preview`, `up`, `refresh` or
// `destroy`: it runs the program through the real Node language runtime (`cmd/run`), serves the
// ResourceMonitor/Engine gRPC services it calls, forwards dynamic resources to the real
// dynamic-provider host, and keeps a JSON checkpoint between runs.

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { cleanEnv } from "./child-env";
import { programCpuEnv } from "./process-cpu";
import { Deployment, type Diagnostic } from "./deployment";
import type { InlineProgramHost } from "./inline-host";
import { startMonitor } from "./monitor";
import { type PlanStep, planText } from "./plan";
import { type ProviderHost, type ProviderMethod, noCalls } from "./provider-host";
import { type ProjectPlugin, ProviderRegistry, isDynamic } from "./providers";
import { type StateResource, StateWriter, loadState } from "./state";
import type { PreviewPlanner } from "./step-executor";
import { type Props, type Value, unwrapSecrets } from "./values";

export { UNKNOWN } from "./values";
/** The engine's own last line of a failed deployment, which names no resource (deployment_executor.go reportExecResult). */
export const ENGINE_FAILED_LINE = /^error: (update|preview) failed$/;

/** Reads a checkpoint written by `runEngine`, secrets decrypted (still wrapped in the secret signature). */
export { loadState as readCheckpoint } from "./state";
export type { PlanStep, StepOp } from "./plan";
export type { Checkpoint, StateResource } from "./state";
export type { Diagnostic } from "./deployment";
export type { ProviderMethod } from "./provider-host";
export type { PreviewPlanner } from "./step-executor";
export { InlineProgramHost } from "./inline-host";

export interface EngineOptions {
  operation: "preview" | "up" | "refresh" | "destroy";
  /** The project directory (holds Pulumi.yaml); the program runs with it as working directory. */
  programDir: string;
  /** Program entry, relative to programDir. Default: Pulumi.yaml `main`, else "." (package.json main / index.js). */
  program?: string;
  /** Default: Pulumi.yaml `name`. */
  project?: string;
  stack: string;
  /** The checkpoint; missing means a new, empty stack. */
  stateFile: string;
  /** Plain stack config, `ns:key` to value (`pulumi config set ns:key value`). */
  config?: Record<string, string>;
  /** Secret stack config, `ns:key` to plaintext (`pulumi config set --secret ...`). */
  secretConfig?: Record<string, string>;
  /** Extra environment for the program and the provider host (both inherit this process's env). */
  env?: Record<string, string>;
  /**
   * Extra environment for the provider processes only (the dynamic-provider host, resource plugins),
   * after `env`: the CLI's environment, which its plugins inherit, as an Automation API workspace's
   * `envVars` set it; an inline program never sees it (it runs in the caller's process). Allowed with
   * `inlineHost`.
   */
  providerEnv?: Record<string, string>;
  /**
   * `--parallel`: the engine's workers. @default `PULUMI_PARALLEL`, else 4 per CPU, as the CLI
   * (pkg/cmd/pulumi/operations/up.go `defaultParallel`: `GOMAXPROCS(0) * 4`)
   */
  parallel?: number;
  /** `--continue-on-error`: a failed step stops only the steps that depend on it. */
  continueOnError?: boolean;
  /**
   * `--refresh` on a preview or up: every resource is read first and the program runs against the
   * refreshed state (deployment_executor.go Execute, `opts.Refresh`); a preview keeps it in memory.
   */
  refresh?: boolean;
  /** `--expect-no-changes`: any step other than same or read fails the operation (engine.HasChanges). */
  expectNoChanges?: boolean;
  /**
   * NOT WHAT THE ENGINE DOES, for `npm run try` alone: in a preview, what a create, update or
   * replacement tells the program it will produce (undefined from the planner: the engine's answer).
   * The Go engine answers a provider that cannot plan (no `supportsPreview`: the dynamic-provider host)
   * with the step's new inputs as its outputs (plugin/provider_plugin.go Update,
   * `req.Preview && !pcfg.supportsPreview`), so an output the provider computes, such as a role's ID,
   * is unknown in every preview of an update, and a computed field inside an input map (`roles.<key>.roleId`)
   * is simply missing, so a stack output built from it reads `null`.
   */
  plannedOutputs?: PreviewPlanner;
  /**
   * `destroy --run-program` (engine/destroy.go `DestroyV2`): the program runs (not as a preview) and
   * registers its hooks and resources, which change nothing (its custom resources keep their state, the
   * program's options and hook bindings taken: step_generator.go `destroyMode`); then every resource is
   * deleted, each delete running its hooks. Without it, a destroy of a state that binds delete hooks is
   * refused. Only with `operation: "destroy"`.
   */
  runProgram?: boolean;
  /** Kill the program if it runs longer. @default 120000 */
  timeoutMs?: number;
  /**
   * `--target URN` (each), `--exclude URN` (each) and `--replace URN` (each): the real CLI's
   * (tools/pulumi-cli/run.ts). The stand-in refuses them rather than run without them.
   */
  targets?: string[];
  excludes?: string[];
  replaces?: string[];
  /**
   * Run the program as an Automation API inline program in this persistent process (see
   * ./inline-host.ts) instead of a new `cmd/run` process: what the Automation API does, and much
   * cheaper per operation. Not with `env` (the program runs in the host's process).
   */
  inlineHost?: InlineProgramHost;
}

export interface EngineResult {
  /** No error was reported: no failed step, no program error. */
  ok: boolean;
  /** Steps in program registration order, then deletes in the order they ran. */
  plan: PlanStep[];
  /** The changing steps, one per line, e.g. `+ create  pulumi-nodejs:dynamic:Resource a`. */
  planText: string;
  /** Stack outputs, secrets unwrapped; values not known in preview are {@link UNKNOWN}. */
  outputs: Record<string, Value>;
  /** `error: <urn>: <message>` per failure, as the engine reports them. */
  errors: string[];
  /** Program log lines (info, warning, error) and engine warnings. */
  diagnostics: Diagnostic[];
  /** Output of the program process (`cmd/run`), or of the inline host during the run. */
  stdout: string;
  stderr: string;
  /** The checkpoint as it is after the run (in memory; secrets still wrapped, not encrypted). */
  resources: StateResource[];
  /**
   * The provider processes together: the dynamic-provider host and every resource plugin instance
   * (calls summed, output joined); pid and peak RSS are the first process's.
   */
  providerHost: HostReport;
  /** Each provider process: `pulumi-nodejs` (the dynamic host) or the provider resource's URN. */
  providers: Array<HostReport & { label: string }>;
  /** The exit code of `cmd/run` (not set for an inline program). */
  programExitCode?: number | null;
}

export interface HostReport {
  /** Output of the process (after the port line). */
  stdout: string;
  stderr: string;
  pid?: number;
  /** Peak RSS (Linux VmHWM) of the process in bytes; undefined if it never started. */
  peakRssBytes?: number;
  /** gRPC calls made to the process, by method. */
  calls: Record<ProviderMethod, number>;
}

function report(host: ProviderHost): HostReport {
  return {
    stdout: host.stdout,
    stderr: host.stderr,
    ...(host.pid !== undefined ? { pid: host.pid } : {}),
    ...(host.peakRssBytes !== undefined ? { peakRssBytes: host.peakRssBytes } : {}),
    calls: { ...host.calls },
  };
}

/** The processes of a run as one report: calls summed, output joined in start order. */
function combined(reports: HostReport[]): HostReport {
  const [first] = reports;
  const calls = { ...(first?.calls ?? noCalls()) };
  for (const r of reports.slice(1)) for (const [m, n] of Object.entries(r.calls)) calls[m as ProviderMethod] += n;
  return {
    stdout: reports.map((r) => r.stdout).join(""),
    stderr: reports.map((r) => r.stderr).join(""),
    ...(first?.pid !== undefined ? { pid: first.pid } : {}),
    ...(first?.peakRssBytes !== undefined ? { peakRssBytes: first.peakRssBytes } : {}),
    calls,
  };
}

/** The subset of Pulumi.yaml the engine needs; a tiny reader instead of a YAML dependency. */
function readProjectFile(dir: string): {
  name?: string;
  main?: string;
  typescript: boolean;
  plugins: ProjectPlugin[];
  config: ProjectConfig;
} {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => existsSync(f));
  if (!file) return { typescript: true, plugins: [], config: new Map() };
  const text = readFileSync(file, "utf8");
  const top = (key: string) => new RegExp(`^${key}:\\s*["']?([^"'#\\n]+?)["']?\\s*(#.*)?$`, "m").exec(text)?.[1];
  const name = top("name");
  const main = top("main");
  // runtime.options.typescript defaults to true in the Node language host.
  const typescript = !/^\s+typescript:\s*false\b/m.test(text);
  return {
    ...(name ? { name } : {}),
    ...(main ? { main } : {}),
    typescript,
    plugins: projectPlugins(text, dir),
    config: projectConfig(text),
  };
}

/** Pulumi.yaml `config:` keys, each with its default (or short-form value) when it has one. */
type ProjectConfig = Map<string, { default?: string }>;

/**
 * `config:` of Pulumi.yaml in the layouts the docs give: `key: value` (a value), or `key:` with nested
 * `type:`, `default:`, `description:` lines. Scalars only (what this package's examples declare).
 */
function projectConfig(text: string): ProjectConfig {
  const block = /^config:\s*\n((?:[ \t]+.*\n?|\s*\n)*)/m.exec(text)?.[1] ?? "";
  const keys: ProjectConfig = new Map();
  const scalar = (v: string) =>
    v
      .replace(/\s+#.*$/, "")
      .trim()
      .replace(/^(["'])(.*)\1$/, "$2");
  let current: string | undefined;
  let indent = -1;
  for (const line of block.split("\n")) {
    const m = /^([ \t]+)([^\s:#][^:#]*?):[ \t]*(.*)$/.exec(line);
    if (!m) continue;
    const [, lead, key, rest] = m as unknown as [string, string, string, string];
    if (indent < 0) indent = lead.length;
    if (lead.length === indent) {
      current = key;
      keys.set(key, rest.trim() && !rest.trim().startsWith("#") ? { default: scalar(rest) } : {});
    } else if (current !== undefined && key === "default") keys.set(current, { default: scalar(rest) });
  }
  return keys;
}

/**
 * The stack config with the project's defaults for keys it lacks, and the project's own keys that have
 * neither (workspace/config.go `ValidateStackConfigAndApplyProjectConfig`: a key without a namespace is
 * the project's; only those are required).
 */
function withProjectConfig(
  declared: ProjectConfig,
  project: string,
  given: Record<string, string>,
): { config: Record<string, string>; missing: string[] } {
  const config = { ...given };
  const missing: string[] = [];
  for (const [key, decl] of [...declared].sort(([a], [b]) => a.localeCompare(b))) {
    const full = key.includes(":") ? key : `${project}:${key}`;
    if (Object.hasOwn(config, full)) continue;
    if (decl.default !== undefined) config[full] = decl.default;
    else if (full.startsWith(`${project}:`)) missing.push(key);
  }
  return { config, missing };
}

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'` (workspace/config.go formatMissingKeys). */
function inWords(keys: string[]): string {
  const q = keys.map((k) => `'${k}'`);
  return q.length === 1 ? q[0]! : `${q.slice(0, -1).join(", ")} and ${q[q.length - 1]}`;
}

/**
 * `plugins: providers: [{ name, path }]` of Pulumi.yaml (workspace/project.go ProjectPlugin), in the
 * one layout the docs give: `- name:` then `path:` lines under `providers:` under `plugins:`.
 */
function projectPlugins(text: string, dir: string): ProjectPlugin[] {
  const block = /^plugins:\s*\n((?:[ \t]+.*\n?)*)/m.exec(text)?.[1] ?? "";
  const providers = /^[ \t]+providers:\s*\n((?:[ \t]+(?:-|\w).*\n?)*)/m.exec(block)?.[1] ?? "";
  const plugins: ProjectPlugin[] = [];
  for (const item of providers.split(/^[ \t]+-[ \t]+/m).slice(1)) {
    const field = (key: string) =>
      new RegExp(`(?:^|\\n)[ \\t]*${key}:[ \\t]*["']?([^"'#\\n]+?)["']?[ \\t]*(?:#.*)?(?:\\n|$)`).exec(item)?.[1];
    const [pluginName, pluginPath] = [field("name"), field("path")];
    if (pluginName && pluginPath) plugins.push({ name: pluginName, path: path.resolve(dir, pluginPath) });
  }
  return plugins;
}

/** Prefer the program's own copy of @pulumi/pulumi, as the language host and plugin do. */
function pulumiModule(programDir: string, sub: string): string {
  try {
    return require.resolve(`@pulumi/pulumi/${sub}`, { paths: [programDir] });
  } catch {
    return require.resolve(`@pulumi/pulumi/${sub}`);
  }
}

export async function runEngine(o: EngineOptions): Promise<EngineResult> {
  if (o.inlineHost && o.env)
    throw new Error("runEngine: `env` cannot be set for an inline program (it runs in the host's process)");
  const programDir = path.resolve(o.programDir);
  const pf = readProjectFile(programDir);
  const project = o.project ?? pf.name ?? path.basename(programDir);
  const entry = o.program ?? pf.main ?? ".";
  const parallel = o.parallel ?? defaultParallel();
  const preview = o.operation === "preview";
  const destroyProgram = o.operation === "destroy" && o.runProgram === true;
  if (o.runProgram && o.operation !== "destroy")
    throw new Error("runEngine: `runProgram` is `destroy --run-program`; the stand-in has no `refresh --run-program`");
  const { config, missing } = withProjectConfig(pf.config, project, { ...o.config, ...o.secretConfig });
  const secretKeys = Object.keys(o.secretConfig ?? {}).sort();
  const baseEnv = cleanEnv(o.env);

  const state = await loadState(o.stateFile, project, o.stack);
  // The CLI refuses before anything runs (workspace/config.go missingStackConfigurationKeysError): a
  // program run instead would throw on `config.require`, and the Node SDK then takes minutes to exit.
  if (missing.length)
    return {
      ok: false,
      plan: [],
      planText: "",
      outputs: unwrapSecrets(stackOutputsFromState(state.resources)) as Props,
      errors: [
        `error: Stack '${o.stack}' is missing configuration ${missing.length > 1 ? "values" : "value"} ${inWords(missing)}`,
      ],
      diagnostics: [],
      stdout: "",
      stderr: "",
      resources: state.resources,
      providerHost: combined([]),
      providers: [],
    };
  const writer = new StateWriter(o.stateFile);
  let engineAddr = "";
  // Processes start on first use, like the engine loads a plugin when the first resource needs it.
  const providers = new ProviderRegistry({
    programDir,
    dynamicHost: pulumiModule(programDir, "cmd/dynamic-provider"),
    // Plugins get the CLI's environment; only the program gets PULUMI_CONFIG.
    env: {
      ...baseEnv,
      ...o.providerEnv,
      PULUMI_NODEJS_PROJECT: project,
      PULUMI_NODEJS_STACK: o.stack,
      PULUMI_NODEJS_ORGANIZATION: "organization",
    },
    engineAddr: () => engineAddr,
    projectPlugins: pf.plugins,
    warn: (message) => d.diagnostics.push({ severity: "warning", message }),
    configureDynamic: (host) => {
      const name = "default";
      const type = "pulumi:providers:pulumi-nodejs";
      return host.configure(config, new Set(secretKeys), {
        urn: `urn:pulumi:${o.stack}::${project}::${type}::${name}`,
        name,
        type,
      });
    },
  });

  const d = new Deployment({
    project,
    stack: o.stack,
    preview,
    state,
    writer,
    providers,
    config,
    secretKeys: new Set(secretKeys),
    parallel,
    ...(o.continueOnError ? { continueOnError: true } : {}),
    ...(o.plannedOutputs ? { plannedOutputs: o.plannedOutputs } : {}),
    ...(o.targets?.length ? { targets: o.targets } : {}),
    ...(o.excludes?.length ? { excludes: o.excludes } : {}),
    ...(o.replaces?.length ? { replaces: o.replaces } : {}),
    ...(destroyProgram ? { destroyProgram: true } : {}),
  });
  const monitor = await startMonitor(d, { project, stack: o.stack, dryRun: preview, parallel, secretKeys });
  engineAddr = monitor.addr;

  let stdout = "";
  let stderr = "";
  let programExitCode: number | null | undefined;
  let refused = false;
  /** A program that failed: exit code 32 means "already reported"; anything else gets the language host's generic line. */
  const reportExit = (run: { code: number | null; stderr: string }) => {
    if (run.code === 0 || d.failed || d.errors.length > 0) return;
    d.errors.push(
      o.inlineHost
        ? `error: ${run.stderr}`
        : `error: Program exited with non-zero exit code: ${run.code}\n${run.stderr}`,
    );
  };
  // deployment_executor.go Execute: each `--replace` must name a resource of the stack before the program
  // runs (checkTargets(ReplaceTargets): the old snapshot only); else one error per target and a bail.
  const unknownReplaces = (o.replaces ?? []).filter((urn) => !state.resources.some((r) => r.urn === urn));
  try {
    if (unknownReplaces.length) {
      // diag.GetTargetCouldNotBeFoundError, or ...DidYouForgetError for a URN without `$`.
      for (const urn of unknownReplaces)
        d.fail(
          undefined,
          `Target '${urn}' could not be found in the stack.${urn.includes("$") ? "" : " Did you forget to escape $ in your shell?"}`,
        );
      refused = true;
    } else if (o.operation === "preview" || o.operation === "up" || destroyProgram) {
      // Start the dynamic host alongside the program when state says it will be needed (a dynamic
      // resource is in it): it is then needed as soon as the first resource registers. Otherwise it
      // starts with the first dynamic registration, as the engine loads a plugin (a program of plugin
      // resources never starts it).
      const usesDynamic = state.resources.some((r) => isDynamic(r.type));
      const warm = usesDynamic ? providers.dynamicProcess().catch(() => undefined) : Promise.resolve();
      if (o.refresh) await d.refreshFirst();
      // After a failure the engine's deployment ends once the running steps are done, and the program
      // waiting in SignalAndWaitForShutdown is answered (deployment_executor.go Execute, then `src.Cancel`).
      void d.stopped().then(() => monitor.shutdown.release());
      const running = o.inlineHost ? runInline(o.inlineHost) : runProgram();
      // The program's end, as the engine sees it: its SignalAndWaitForShutdown (it has registered
      // everything, and stays alive to serve its hooks until every step is done, deletes included:
      // source_eval.go), or its exit (a failed program; an SDK that does not signal).
      const signaled = await Promise.race([monitor.shutdown.signaled.then(() => true), running.then(() => false)]);
      await warm;
      await d.settled();
      const exited = signaled ? undefined : await running;
      if (exited) reportExit(exited);
      // Resources the program no longer declares go only after the program succeeded; a destroy deletes all.
      if ((signaled || exited?.code === 0) && !d.failed && d.errors.length === 0)
        await (destroyProgram ? d.destroy() : d.deleteUnregistered());
      monitor.shutdown.release();
      const run = exited ?? (await running);
      if (!exited) reportExit(run);
      stdout = run.stdout;
      stderr = run.stderr;
      if (!o.inlineHost) programExitCode = run.code;
    } else if (o.operation === "refresh") {
      await d.refresh();
    } else {
      // engine/destroy.go newDestroySource: without the program, no hook can run, so a state that binds
      // delete hooks refuses the destroy before anything runs: one error per such resource, then the
      // operation's own (no "update failed" line: no deployment ran; nothing is written).
      const bound = d.deleteHookBindings();
      for (const { urn, names } of bound)
        d.fail(urn, `Resource has delete hooks registered, but the program is not running. Hooks: ${names.join(", ")}`);
      if (bound.length) {
        d.fail(undefined, "You must run with the `--run-program` flag to use delete hooks during destroy.");
        refused = true;
      } else await d.destroy();
    }
    // The engine's own last line of a failed deployment, with no URN: "update failed" (also for a
    // refresh or destroy) or "preview failed" (deployment_executor.go reportExecResult): only when a
    // step failed while it ran (Deployment.stepFailed says which cases). `--expect-no-changes` is the
    // backend's check after a deployment that succeeded: not this line.
    if (d.stepFailed) {
      const message = `${preview ? "preview" : "update"} failed`; // ENGINE_FAILED_LINE matches it
      d.errors.push(`error: ${message}`);
      d.diagnostics.push({ severity: "error", message });
    }
    if (o.expectNoChanges && d.plan.some((p) => !["same", "read"].includes(p.op)))
      d.errors.push(`error: no changes were expected for ${preview ? "preview" : "update"} but changes were proposed`);
    if (!refused) await d.persist();
    await writer.flush();
  } finally {
    // Never leave the program waiting (the monitor's shutdown waits for its calls).
    monitor.shutdown.release();
    d.hooks.close();
    await providers.stopAll();
    await monitor.close();
  }

  const plan = [...d.plan].sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...s }) => s);
  return {
    ok: !d.failed && d.errors.length === 0,
    plan,
    planText: planText(plan),
    outputs: unwrapSecrets(d.stackOutputs ?? stackOutputsFromState(d.resources)) as Props,
    errors: d.errors,
    diagnostics: d.diagnostics,
    stdout,
    stderr,
    resources: [...d.resources],
    providerHost: combined(providers.started.map(({ host }) => report(host))),
    providers: providers.started.map(({ label, host }) => ({ label, ...report(host) })),
    programExitCode,
  };

  /**
   * The inline program's run; given up once a step failed and what was being served settled, as the
   * engine stops waiting for the program then. `code` is 0 for success, 1 for a run that returned an error
   * (the error is `stderr`), null for an abandoned run.
   */
  async function runInline(host: InlineProgramHost): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const r = await host.run(
      {
        project,
        stack: o.stack,
        pwd: programDir,
        program: entry,
        monitorAddress: monitor.addr,
        dryRun: preview,
        parallel,
        config,
        secretKeys,
      },
      d.stopped(),
      o.timeoutMs ?? 120_000,
    );
    const code = r.abandoned ? null : r.error === undefined ? 0 : 1;
    return { code, stdout: r.stdout, stderr: r.error ?? r.stderr };
  }

  function runProgram(): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const args = [
      pulumiModule(programDir, "cmd/run"),
      `--monitor=${monitor.addr}`,
      `--engine=${monitor.addr}`,
      `--project=${project}`,
      `--stack=${o.stack}`,
      `--organization=organization`,
      `--root-directory=${programDir}`,
      `--pwd=${programDir}`,
      `--parallel=${parallel}`,
      ...(preview ? ["--dry-run"] : []),
      entry,
    ];
    // The Node language host hands config to the program in these two variables.
    const env: NodeJS.ProcessEnv = {
      ...(pf.typescript ? { PULUMI_NODEJS_TYPESCRIPT: "true" } : {}),
      ...baseEnv,
      PULUMI_CONFIG: JSON.stringify(config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys),
      ...programCpuEnv(baseEnv.NODE_OPTIONS),
    };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: programDir, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString()));
      child.stderr.on("data", (b: Buffer) => (err += b.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 120_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: out, stderr: err });
      });
    });
  }
}

/** The CLI's `--parallel` when none is given (up.go `defaultParallel`). */
export function defaultParallel(): number {
  const fromEnv = Number(process.env.PULUMI_PARALLEL);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism() * 4;
}

/** Outputs of the root stack resource in state (refresh and destroy do not run the program). */
function stackOutputsFromState(resources: readonly StateResource[]): Props {
  const stack = resources.find((r) => r.type === "pulumi:pulumi:Stack" && !r.parent);
  return stack?.outputs ?? {};
}
