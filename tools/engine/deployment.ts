// TEST INFRASTRUCTURE (engine stand-in): one deployment.
//
// Mirrors the Go engine's deployment (pkg/resource/deploy) for what our dynamic resources need: each
// registration is matched with its old state (by URN or alias), its step is generated one resource at a
// time (./step-generator: Check, Diff, the decision) and executed under `--parallel`
// (./step-executor); resources the program no longer declares are deleted after it ends (dependents
// first); refresh and destroy. Every completed step writes the checkpoint, so a failed run keeps
// exactly what succeeded.

import { randomUUID } from "node:crypto";
import { type HookType, ResourceHooks, unsupportedHooks } from "./hooks";
import { type PlanStep, type StepOp, parseUrn } from "./plan";
import type { ProviderHost, Target } from "./provider-host";
import {
  DYNAMIC_PACKAGE,
  type ProviderRegistry,
  defaultProviderName,
  isDynamic,
  isProviderType,
  packageOf,
  parseReference,
  providerPackage,
  providerType,
} from "./providers";
import type { Checkpoint, StateResource, StateWriter } from "./state";
import { type Journal, type PreviewPlanner, StepExecutor, type StepResult, dependenciesOf } from "./step-executor";
import {
  type Goal,
  ShutDown,
  StepError,
  checkFailures,
  generateStep,
  markSecrets,
  previewFailed,
} from "./step-generator";
import { type Props, UNKNOWN, changedKeys, containsSecret, secret, unwrapSecrets } from "./values";

export type { Goal } from "./step-generator";
export { ShutDown, StepError } from "./step-generator";
export type { StepResult } from "./step-executor";

export interface Diagnostic {
  severity: "info" | "warning" | "error";
  message: string;
  urn?: string;
}

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

export interface DeploymentOptions {
  project: string;
  stack: string;
  preview: boolean;
  state: Checkpoint;
  writer: StateWriter;
  providers: ProviderRegistry;
  /** The stack config, `ns:key` to plaintext: a package's default provider takes its namespace. */
  config: Record<string, string>;
  secretKeys: ReadonlySet<string>;
  parallel: number;
  /** `--continue-on-error`: a failed step stops only the steps that depend on it. */
  continueOnError?: boolean;
  /** In a preview, the outputs of changing steps, as a planner says (`EngineOptions.plannedOutputs`). */
  plannedOutputs?: PreviewPlanner;
  /** `--target` URNs: only these are created, updated, replaced or deleted (none: every resource). */
  targets?: readonly string[];
  /** `--exclude` URNs: every resource but these (targets take precedence, as `GenerateDeletes` says). */
  excludes?: readonly string[];
  /** `--replace` URNs: replaced whatever their Diff would say. */
  replaces?: readonly string[];
  /**
   * `destroy --run-program` (engine/destroy.go `DestroyV2`, the step generator's `destroyMode`): the
   * program's custom resources get a same step (their old inputs and outputs, the program's options and
   * hook bindings) or, without state, a skipped create; providers and components are registered as in
   * an update; then every resource is deleted ({@link Deployment.destroy}).
   */
  destroyProgram?: boolean;
}

export class Deployment implements Journal {
  readonly plan: Array<PlanStep & { seq: number }> = [];
  readonly errors: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  /** A step failed: like the engine, start no new steps, but let running ones finish. */
  failed = false;
  /**
   * A step failed while it ran (create, update, delete, read, import, refresh), or the step generator
   * marked the deployment failed and went on (a preview's protect or `--target` refusal): the cases in
   * which the engine ends with its own "update failed" / "preview failed" line (deployment_executor.go
   * Execute, `stepExecutorError || ex.stepGen.Errored()` then `reportExecResult("failed")`). A
   * registration the step generator refused (Check, Diff, a provider's config) or a failed program
   * returns a bail error before that line, so neither gets it.
   */
  stepFailed = false;
  /** Resolves when a step fails (see {@link failed}). */
  readonly failure: Promise<void>;
  private onFailure: () => void = () => undefined;
  stackOutputs?: Props;
  rootUrn?: string;
  /** The hooks the program registered (resource_hooks.go `ResourceHooks`), which delete steps run. */
  readonly hooks = new ResourceHooks();

  private readonly snapshot: StateResource[];
  private readonly olds = new Map<string, StateResource>();
  private readonly seen = new Set<string>();
  /** URNs whose registration's event the main loop handled, or that a same step claimed (`hasGeneratedStep`). */
  private readonly stepGenerated = new Set<string>();
  /** With `--exclude`: what a delete may not touch (see `isTargetedForDelete`), computed once. */
  private keptByExcludes?: Set<string>;
  /** Old dependencies an untargeted resource's same step claimed before they registered. */
  private readonly claimedBySame = new Set<string>();
  /** Untargeted resources without state: not created (step_generator.go `skippedCreates`). */
  private readonly skippedCreates = new Set<string>();
  /** Olds taken over by a resource that names their URN among its aliases: never deleted. */
  private readonly aliased = new Set<string>();
  private readonly executor: StepExecutor;
  /** Registrations and reads being served (step generation and execution included). */
  private readonly serving = new Set<Promise<unknown>>();
  /**
   * The engine's main loop (deployment_executor.go `Execute`, `handleSingleEvent`): one source event at a
   * time, in arrival order, generates its step (Check, Diff) and hands it to a worker, waiting while
   * every worker is busy (step_executor.go `ExecuteSerial`). Each event chains onto this promise.
   */
  private mainLoop: Promise<unknown> = Promise.resolve();
  private seq = 0;
  /** Default provider references by package and version, registered on first use. */
  private readonly defaults = new Map<string, Promise<string>>();

  constructor(private readonly o: DeploymentOptions) {
    this.snapshot = [...o.state.resources];
    for (const r of this.snapshot) if (!r.delete) this.olds.set(r.urn, r);
    this.executor = new StepExecutor(this, o.parallel);
    this.failure = new Promise((resolve) => {
      this.onFailure = resolve;
    });
  }

  get preview(): boolean {
    return this.o.preview;
  }

  get plannedOutputs(): PreviewPlanner | undefined {
    return this.o.plannedOutputs;
  }

  /**
   * The provider process serving resource `r`: the dynamic-provider host for dynamic resources, else
   * the plugin instance its provider reference names (configured this run, or from its state entry,
   * as registry.go Same loads a provider that deletes and refreshes need).
   */
  hostFor(r: { type: string; provider?: string }): Promise<ProviderHost> {
    if (isDynamic(r.type) && !r.provider) return this.o.providers.dynamic();
    if (!r.provider) throw new StepError(`resource of type ${r.type} has no provider reference`);
    const { urn } = parseReference(r.provider);
    const running = this.o.providers.configured(urn);
    if (running) return running;
    const entry = this.snapshot.find((s) => s.urn === urn);
    if (!entry) throw new StepError(`provider ${urn} is neither in the program nor in state`);
    return this.o.providers.track(
      urn,
      (async () => {
        const t = { urn, ...parseUrn(urn) };
        const host = await this.o.providers.load(urn, providerPackage(t.type));
        return this.o.providers.configure(urn, t, host, entry.inputs, plain(entry.inputs));
      })(),
    );
  }

  /**
   * Resolves once every running step has finished: when the program fails, the engine starts no new
   * step but waits for the running ones (deployment_executor.go, `stepExec.WaitForCompletion`) before
   * it closes the provider plugins.
   */
  settled(): Promise<void> {
    return this.executor.settled();
  }

  /**
   * Resolves once a step has failed and the registrations already being served (their Check or Diff
   * included) have finished: the engine then answers every new one with "shut down" and stops waiting
   * for the program.
   */
  async stopped(): Promise<void> {
    await this.failure;
    while (this.serving.size > 0) await Promise.allSettled([...this.serving]);
    await this.settled();
  }

  /** Counts `work` (a registration or read the monitor serves) as being served until it settles (see {@link stopped}). */
  serve<T>(work: Promise<T>): Promise<T> {
    this.serving.add(work);
    void work.then(
      () => this.serving.delete(work),
      () => this.serving.delete(work),
    );
    return work;
  }

  /**
   * Runs `handle` as the main loop's next event: after every earlier event was handed to a worker.
   * After a failure the engine's main loop has exited (its context is cancelled): no event is handled.
   */
  private nextEvent<T>(handle: () => Promise<T>, urn?: string): Promise<T> {
    const handled = this.mainLoop.then(() => {
      if (this.failed) throw new ShutDown();
      if (urn !== undefined) this.generatingStepOf(urn);
      return handle();
    });
    // A failed event ends the loop before the next one is looked at (its error is reported by the
    // registration it belongs to, a few turns later; the next event must not be handled meanwhile).
    this.mainLoop = handled.then(
      () => undefined,
      () => {
        this.failed = true;
      },
    );
    return handled;
  }

  /**
   * The event of registration `urn` is handled: a URN an untargeted resource's same step already
   * claimed for one of its old dependencies fails here (step_generator.go `generateURN`, in the event,
   * as the engine's main loop handles it; see {@link sameOldDependencies}).
   */
  private generatingStepOf(urn: string): void {
    if (this.claimedBySame.has(urn))
      throw new StepError(`Duplicate resource URN '${urn}'; try giving it a unique name`);
    this.stepGenerated.add(urn); // an import's registration has two events: the second adds it again
  }

  /**
   * The old state of a registration: by URN, else by one of its aliases (step_generator.go: an alias
   * may be claimed once; the old is then this resource, under its new URN).
   */
  private oldFor(urn: string, aliasUrns: string[]): StateResource | undefined {
    const own = this.olds.get(urn);
    if (own) return own;
    for (const alias of aliasUrns) {
      const old = this.olds.get(alias);
      if (!old || this.seen.has(alias)) continue;
      if (this.aliased.has(alias))
        throw new StepError(`Two resources ('${urn}' and another) are aliased to '${alias}'`);
      this.aliased.add(alias);
      return old;
    }
    return undefined;
  }

  get resources(): readonly StateResource[] {
    return this.snapshot;
  }

  fail(urn: string | undefined, message: string): void {
    this.failed = true;
    this.onFailure();
    this.errors.push(`error: ${urn ? `${urn}: ` : ""}${message}`);
    this.diagnostics.push({ severity: "error", message, ...(urn ? { urn } : {}) });
  }

  /** An error that fails the operation but stops nothing (a preview's protect refusal, a protected delete). */
  report(urn: string, message: string): void {
    this.stepFailed = true;
    this.errors.push(`error: ${urn}: ${message}`);
    this.diagnostics.push({ severity: "error", message, urn });
  }

  /** A step that failed while it ran (the step executor's): see {@link stepFailed}. */
  failStep(urn: string, message: string): void {
    this.stepFailed = true;
    this.fail(urn, message);
  }

  /**
   * Runs a step; a failure marks {@link stepFailed} and goes on to the registration's own handling. In a
   * preview the engine reports a step that failed while it ran as `Preview failed: <error>`
   * (engine/update.go `previewActions.OnResourceStepPost`, diag.GetPreviewFailedError).
   */
  private async executing<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      if (e instanceof ShutDown) throw e;
      this.stepFailed = true;
      if (this.o.preview) throw new StepError(previewFailed((e as Error).message));
      throw e;
    }
  }

  warn(urn: string, message: string): void {
    this.diagnostics.push({ severity: "warning", urn, message });
  }

  /** URN as sdk/go/common/resource/urn.go builds it: the parent's type chain, except the root stack. */
  urn(type: string, name: string, parent: string): string {
    const parentType = parent ? (parent.split("::")[2] ?? "") : "";
    const qualified = parentType && parentType !== ROOT_STACK_TYPE ? `${parentType}$${type}` : type;
    return `urn:pulumi:${this.o.stack}::${this.o.project}::${qualified}::${name}`;
  }

  /**
   * A package's default provider, `pulumi:providers:<pkg>::default_<version>`, registered like a
   * provider resource the first time a resource or function of the package has no `provider`
   * (default_providers.go newRegisterDefaultProviderEvent): its inputs are the stack config of the
   * package's namespace, keys without it, secrets kept secret, plus `version`. Dynamic resources' one,
   * `pulumi:providers:pulumi-nodejs::default`, takes the whole stack config with its namespaces
   * (target.go GetPackageConfig): refresh and destroy configure the host from it, i.e. with the config
   * of the last `up`.
   */
  defaultProvider(pkg: string, version: string | undefined): Promise<string> {
    const key = `${pkg}@${version ?? ""}`;
    let ref = this.defaults.get(key);
    if (!ref) {
      const inputs: Props = {};
      const dynamic = pkg === DYNAMIC_PACKAGE;
      for (const [k, v] of Object.entries(this.o.config)) {
        const value = this.o.secretKeys.has(k) ? secret(v) : v;
        if (dynamic) inputs[k] = value;
        else if (k.startsWith(`${pkg}:`)) inputs[k.slice(pkg.length + 1)] = value;
      }
      if (version) inputs.version = version;
      const goal: Goal = {
        type: providerType(pkg),
        name: defaultProviderName(version ?? ""),
        parent: "",
        custom: true,
        inputs,
        dependencies: [],
        propertyDependencies: {},
        protect: false,
        retainOnDelete: false,
        ignoreChanges: [],
        replaceOnChanges: [],
        importId: "",
        additionalSecretOutputs: [],
        aliasUrns: [],
      };
      // A default provider whose registration fails (its CheckConfig refused the config) fails the
      // deployment with its own error alone: the resource that asked for it gets no error of its own,
      // only the monitor's shut-down answer (resource/deploy/source_eval.go getProviderReference ->
      // defaultProviders.getDefaultProviderRef; seen with the real CLI v3.274.1: one error, the provider's).
      ref = this.register(goal).then(
        (r) => `${r.urn}::${r.id}`,
        (e: unknown) => {
          throw e instanceof ShutDown ? e : new ShutDown();
        },
      );
      this.defaults.set(key, ref);
    }
    return ref;
  }

  /** A function call of a package (ResourceMonitor Invoke): its default provider's, or the one named. */
  async invoke(
    tok: string,
    args: Props,
    provider: string,
    version: string,
  ): Promise<{ result: Props; failures: Array<{ property: string; reason: string }> }> {
    const ref = provider || (await this.defaultProvider(packageOf(tok), version || undefined));
    const host = await this.hostFor({ type: tok, provider: ref });
    return host.invoke(tok, plain(args));
  }

  async register(goal: Goal): Promise<StepResult> {
    const urn = this.urn(goal.type, goal.name, goal.parent);
    const seq = this.seq++;
    if (goal.type === ROOT_STACK_TYPE && !goal.parent) this.rootUrn = urn;
    try {
      if (this.seen.has(urn)) throw new StepError(`Duplicate resource URN '${urn}'; try giving it a unique name`);
      this.seen.add(urn);
      return goal.custom ? await this.registerCustom(goal, urn, seq) : await this.registerComponent(goal, urn, seq);
    } catch (e) {
      if (!(e instanceof ShutDown)) this.fail(urn, (e as Error).message);
      throw e;
    }
  }

  /** `Resource.get`: Read with only the id and the request's properties (which carry `__provider`). */
  async read(
    type: string,
    name: string,
    parent: string,
    id: string,
    props: Props,
    dependencies: string[],
    providerRef = "",
    version = "",
  ): Promise<StepResult> {
    const urn = this.urn(type, name, parent);
    const seq = this.seq++;
    this.seen.add(urn);
    const provider =
      providerRef || (await this.defaultProvider(packageOf(type), isDynamic(type) ? undefined : version || undefined));
    const entry = (outputs: Props, readId: string): StateResource => ({
      urn,
      type,
      custom: true,
      id: readId,
      inputs: props,
      outputs,
      dependencies,
      external: true,
      ...(parent ? { parent } : {}),
      ...(provider ? { provider } : {}),
    });
    try {
      const host = await this.hostFor({ type, provider });
      // step_generator.go GenerateReadSteps makes the step without a provider call; a worker runs Read.
      const worker = await this.nextEvent(() => this.executor.workers.acquire(), urn);
      return await this.executing(() =>
        this.executor.read(host, { urn, name, type }, id, props, this.olds.get(urn), entry, seq, worker),
      );
    } catch (e) {
      if (!(e instanceof ShutDown)) this.fail(urn, (e as Error).message);
      throw e;
    }
  }

  registerOutputs(urn: string, outputs: Props): void {
    if (urn === this.rootUrn) this.stackOutputs = outputs;
    const entry = this.snapshot.find((r) => r.urn === urn && !r.delete);
    if (entry && !entry.custom) {
      entry.outputs = outputs;
      void this.persist();
    }
  }

  /** A component's step needs no provider, but a worker runs it all the same. */
  private async registerComponent(goal: Goal, urn: string, seq: number): Promise<StepResult> {
    const old = this.olds.get(urn);
    const worker = await this.nextEvent(() => {
      // A component's after-create and after-update hooks run at its RegisterResourceOutputs
      // (step_executor.go): not modelled, so refused.
      const unsupported = unsupportedHooks(goal.resourceHooks);
      if (unsupported) throw new StepError(unsupported);
      return this.executor.workers.acquire();
    }, urn);
    return this.executor.workers.runOn(worker, async () => {
      this.planStep(old ? "same" : "create", urn, {}, seq);
      this.put(old, this.entry(goal, urn, goal.inputs, old?.outputs ?? {}));
      return { urn, id: "", outputs: {} };
    });
  }

  /** Generates the registration's step (one at a time), shows it in the plan and executes it. */
  private async registerCustom(goal: Goal, urn: string, seq: number): Promise<StepResult> {
    if (isProviderType(goal.type)) return this.registerProvider(goal, urn, seq);
    if (!goal.provider) {
      const pkg = packageOf(goal.type);
      // The SDK sends no version for dynamic resources: their default provider is `default`.
      goal = { ...goal, provider: await this.defaultProvider(pkg, pkg === DYNAMIC_PACKAGE ? undefined : goal.version) };
    }
    const provider = await this.hostFor(goal);
    const t: Target = { urn, name: goal.name, type: goal.type };
    let old = this.oldFor(urn, goal.aliasUrns);
    if (this.o.destroyProgram) return this.registerForDestroy(goal, urn, old, seq);
    if (!this.isTargeted(urn)) return this.registerUntargeted(urn, old);
    const skipped = goal.dependencies.find((d) => this.skippedCreates.has(d));
    if (skipped) {
      // step_generator.go GenerateSteps: a targeted step that depends on an untargeted create
      // (diag.GetResourceWillBeCreatedButWasNotSpecifiedInTargetList); a preview goes on, an update bails.
      const message = `Resource '${urn}' depends on '${skipped}' which was was not specified in --target list.`;
      if (!this.preview) throw new StepError(message);
      this.report(urn, message);
    }
    if (!old && goal.importId) {
      // The import step runs on a worker; its result comes back to the main loop as an event, which
      // goes on as any registration with the imported state as old (deployment_executor.go
      // ContinueResourceImportEvent).
      const worker = await this.nextEvent(() => this.executor.workers.acquire(), urn);
      old = await this.executing(() => this.executor.importStep(goal, t, seq, worker));
    }
    const { step, worker } = await this.nextEvent(async () => {
      const step = await generateStep(provider, t, goal, old, this.o.replaces?.includes(urn) ?? false);
      if (step.warning) this.warn(urn, step.warning);
      // A create, update or replacement would run the before/after create and update hooks, which the
      // stand-in does not model: refused rather than run without them.
      const unsupported = step.op === "same" ? undefined : unsupportedHooks(goal.resourceHooks);
      if (unsupported) throw new StepError(unsupported);
      if (step.op === "replace" && goal.importId) {
        // continueStepsFromDiff: a replacement would change the ID the program still names.
        const message =
          "previously-imported resources that still specify an ID may not be replaced; please remove the `import` " +
          `declaration from your program;\n${step.changed.join(", ")}`;
        if (!this.preview) throw new StepError(message);
        this.warn(urn, message);
      }
      if (step.op === "replace" && step.protectedError) {
        // In a preview the engine marks the deployment failed and goes on, so the plan shows the diff
        // that needs it; an update bails before any create (step_generator.go continueStepsFromDiff).
        if (!this.preview) throw new StepError(step.protectedError);
        this.report(urn, step.protectedError);
      }
      const extra: Partial<PlanStep> =
        step.op === "update"
          ? { changedProperties: step.changed, ...(step.detailedDiff ? { detailedDiff: step.detailedDiff } : {}) }
          : step.op === "replace"
            ? { changedProperties: step.changed, deleteBeforeReplace: step.deleteBeforeReplace }
            : {};
      const report: Partial<PlanStep> =
        step.op === "same"
          ? {}
          : {
              inputs: step.plainInputs,
              ...(step.secretKeys.length ? { secretInputs: step.secretKeys } : {}),
              ...(old && step.op !== "create" ? { old: { inputs: old.inputs, outputs: old.outputs } } : {}),
            };
      this.planStep(step.op, urn, { ...extra, ...report }, seq);
      return { step, worker: await this.executor.workers.acquire() };
    }, urn);
    if (!this.o.continueOnError) return this.executing(() => this.executor.execute(step, worker));
    try {
      return await this.executor.execute(step, worker);
    } catch (e) {
      if (e instanceof ShutDown) throw e; // already reported (a replacement's after-delete hook)
      // cancelDueToError with ContinueOnError: the step is recorded as failed and the deployment goes on;
      // the program is told (Result FAIL). The engine would also skip a later step that depends on it
      // (handleSingleEvent, doesStepDependOn), but the Node SDK never sends one: it rejects the failed
      // resource's outputs, which its dependents wait for.
      this.report(urn, (e as Error).message);
      return { urn, id: old?.id ?? "", outputs: old?.outputs ?? {}, result: "fail" };
    }
  }

  /**
   * A provider resource (explicit, or a default one): registry.go Check loads a plugin instance and
   * calls CheckConfig; Diff calls DiffConfig against the old inputs; then Create, Update or Same
   * configure that instance with the checked inputs. A provider's outputs are its inputs; its ID is a
   * UUID (unknown in a preview of a new provider), kept while it is not replaced.
   */
  private async registerProvider(goal: Goal, urn: string, seq: number): Promise<StepResult> {
    const { step, worker } = await this.nextEvent(async () => {
      const step = await this.providerStep(goal, urn);
      return { step, worker: await this.executor.workers.acquire() };
    }, urn);
    return this.executor.workers.runOn(worker, async () => {
      const { t, host, old, op, changed, inputs, checked } = step;
      await this.o.providers.configure(urn, t, host, inputs, checked);
      const id = old?.id ?? (this.preview ? UNKNOWN : randomUUID());
      // The stand-in's plan text leaves out the dynamic resources' provider: every such program has it.
      if (providerPackage(goal.type) !== DYNAMIC_PACKAGE)
        this.planStep(op, urn, op === "update" ? { changedProperties: changed } : {}, seq);
      this.put(old, this.entry(goal, urn, inputs, inputs, id));
      return { urn, id, outputs: inputs };
    });
  }

  /** A provider registration's CheckConfig and DiffConfig (in the main loop, as any step generation). */
  private async providerStep(goal: Goal, urn: string) {
    const t: Target = { urn, name: goal.name, type: goal.type };
    const old = this.oldFor(urn, goal.aliasUrns);
    const host = await this.o.providers.load(urn, providerPackage(goal.type));
    if (providerPackage(goal.type) === DYNAMIC_PACKAGE) {
      // The dynamic-provider host answers CheckConfig and DiffConfig UNIMPLEMENTED: the engine takes the
      // inputs as they are and compares them itself (plugin/provider_plugin.go CheckConfig, DiffConfig).
      const changed = old ? changedKeys(plain(old.inputs), plain(goal.inputs)) : [];
      const op: StepOp = !old ? "create" : changed.length ? "update" : "same";
      return { t, host, old, op, changed, inputs: goal.inputs, checked: plain(goal.inputs) };
    }
    const checked = await host.checkConfig(t, old ? plain(old.inputs) : {}, plain(goal.inputs));
    if (checked.failures.length) throw new StepError(checkFailures(goal, checked.failures));
    let op: StepOp = old ? "same" : "create";
    let changed: string[] = [];
    if (old) {
      const diff = await host.diffConfig(t, old.id ?? "", plain(old.outputs), checked.inputs);
      changed = diff.diffs.length ? [...diff.diffs].sort() : changedKeys(plain(old.inputs), checked.inputs);
      const hasChanges = diff.changes === "unknown" ? changed.length > 0 : diff.changes === "some";
      if (diff.replaces.length) {
        throw new StepError(`the engine stand-in does not replace providers (${urn}: ${diff.replaces.join(", ")})`);
      }
      if (hasChanges) op = "update";
    }
    const secretKeys = Object.keys(goal.inputs).filter((k) => containsSecret(goal.inputs[k]));
    const inputs = markSecrets(checked.inputs, secretKeys);
    return { t, host, old, op, changed, inputs, checked: checked.inputs };
  }

  /** After a successful program: delete what it no longer declares (if targeted), plus replaced originals. */
  deleteUnregistered(): Promise<void> {
    return this.executor.deleteAll(
      this.snapshot.filter(
        (r) =>
          r.delete ||
          this.executor.previewReplaced.has(r) ||
          (!this.seen.has(r.urn) && !this.aliased.has(r.urn) && this.isTargetedForDelete(r.urn)),
      ),
    );
  }

  /**
   * Whether a resource the program no longer declares may be deleted: with `--target`, the targets; with
   * `--exclude`, every resource but the excluded ones and, transitively, what they depend on in the old
   * snapshot (parent, dependencies, property dependencies, provider), which their old state needs
   * (step_generator.go v3.274.1 `GenerateDeletes`, `determineForbiddenResourcesToDeleteFromExcludes`,
   * `getExcludeDependencies`; graph/dependency_graph.go `DependenciesOf`). Seen through the real CLI by the
   * simulator's differential run: `up --exclude` of a GroupRoles whose old `dependsOn` named a Role the
   * program removed kept that Role. `--exclude-dependents` is not modelled.
   */
  private isTargetedForDelete(urn: string): boolean {
    if (this.o.targets?.length || !this.o.excludes?.length) return this.isTargeted(urn);
    this.keptByExcludes ??= this.excludedWithDependencies(this.o.excludes);
    return !this.keptByExcludes.has(urn);
  }

  /** The excluded URNs and, transitively, what their old states depend on (see {@link isTargetedForDelete}). */
  private excludedWithDependencies(excludes: readonly string[]): Set<string> {
    const kept = new Set<string>();
    const frontier = [...excludes];
    for (let urn = frontier.shift(); urn !== undefined; urn = frontier.shift()) {
      if (kept.has(urn)) continue;
      kept.add(urn);
      const old = this.olds.get(urn);
      if (!old) continue;
      frontier.push(...dependenciesOf(old));
    }
    return kept;
  }

  /**
   * Whether `--target` (else `--exclude`) lets the operation change this resource: targets take
   * precedence (step_generator.go `isTargetedForUpdate`, `GenerateDeletes`); dependents are not
   * targeted (`--target-dependents` is not modelled).
   */
  private isTargeted(urn: string): boolean {
    if (this.o.targets?.length) return this.o.targets.includes(urn);
    return !this.o.excludes?.includes(urn);
  }

  /**
   * An untargeted resource: no Check, no Diff, nothing shown. With state it keeps its old inputs and
   * outputs (`NewUntargetedSameStep`); without, it is not created and not recorded (`NewSkippedCreateStep`).
   */
  private async registerUntargeted(urn: string, old: StateResource | undefined): Promise<StepResult> {
    const worker = await this.nextEvent(() => {
      if (old) this.sameOldDependencies(urn, old);
      return this.executor.workers.acquire();
    }, urn);
    return this.executor.workers.runOn(worker, async () => {
      if (!old) {
        this.skippedCreates.add(urn);
        return { urn, id: "", outputs: {} };
      }
      this.put(old, { ...old, urn });
      return { urn, id: old.id ?? "", outputs: old.outputs };
    });
  }

  /**
   * An untargeted resource's same step copies its old state, old dependencies included, so the engine
   * first gives each old dependency that has no step yet a same step of its own, and claims its URN
   * (step_generator.go v3.274.1 `GenerateSteps`, `getDependencySteps`: `sg.urns[old.URN] = true`). When
   * the program no longer orders that dependency first (an edge removed), its own registration then
   * meets "Duplicate resource URN" (`generateURN`): pulumi/pulumi#24303, open, its fix #24381 unmerged.
   * A dependency without old state fails the step.
   */
  private sameOldDependencies(urn: string, old: StateResource): void {
    if (old.delete) return;
    // Each old dependency with what the engine's bail says when it has no old state.
    const deps: Array<[string, string]> = [
      ...(old.parent ? [[old.parent, `parent ${old.parent} of untargeted resource ${urn}`] as [string, string]] : []),
      ...old.dependencies.map((d): [string, string] => [d, `dependency ${d} of untargeted resource ${urn}`]),
      ...Object.entries(old.propertyDependencies ?? {}).flatMap(([key, urns]) =>
        urns.map((d): [string, string] => [
          d,
          `property dependency ${d} of untargeted resource ${urn}'s property ${key}`,
        ]),
      ),
    ];
    for (const [dep, what] of deps) {
      if (this.stepGenerated.has(dep)) continue;
      const depOld = this.olds.get(dep);
      if (!depOld) throw new StepError(`${what} has no old state`);
      // The old dependency a resource of this deployment took over by an alias (a rename under
      // `--target`): the engine copies it too (`getDependencySteps` checks steps by URN, not aliases) and
      // then fails on its snapshot: "snapshot integrity error", in the preview too (seen through the real
      // CLI v3.274.1 by the simulator's differential run: `up --target` of a Role renamed with `aliases`
      // while an untargeted Role depends on it). Refused the same way.
      if (this.aliased.has(dep))
        throw new StepError(
          "The Pulumi CLI encountered a snapshot integrity error. This is a bug! " +
            `(untargeted resource ${urn} depends on ${dep}, which a resource of this deployment took over by an alias)`,
        );
      if (depOld.delete) continue;
      this.stepGenerated.add(dep);
      this.claimedBySame.add(dep);
      this.sameOldDependencies(dep, depOld);
      this.put(depOld, depOld); // its same step: the state as it was, moved ahead of the resource that depends on it
    }
  }

  /**
   * A custom resource the program registers in `destroy --run-program` (step_generator.go `generateSteps`,
   * `sg.mode == destroyMode`): with old state, a same step whose new state is the program's (its options
   * and hook bindings) with the old inputs and outputs, deleted at the end with the rest; without old
   * state, or when it depends on a skipped one, a skipped create (nothing recorded, no outputs; an old
   * state it had is deleted as it was).
   */
  private async registerForDestroy(
    goal: Goal,
    urn: string,
    old: StateResource | undefined,
    seq: number,
  ): Promise<StepResult> {
    const worker = await this.nextEvent(() => this.executor.workers.acquire(), urn);
    return this.executor.workers.runOn(worker, async () => {
      if (!old || dependenciesOf(goal).some((dep) => this.skippedCreates.has(dep))) {
        this.skippedCreates.add(urn);
        return { urn, id: "", outputs: old?.outputs ?? {} };
      }
      this.planStep("same", urn, {}, seq);
      this.put(old, this.entry(goal, urn, old.inputs, old.outputs, old.id));
      return { urn, id: old.id ?? "", outputs: old.outputs };
    });
  }

  /** `pulumi destroy`: every resource in state, dependents first (after the program, with `--run-program`). */
  destroy(): Promise<void> {
    return this.executor.deleteAll([...this.snapshot]);
  }

  /**
   * The resources in state that bind delete hooks, with their names (BeforeDelete, then AfterDelete):
   * a destroy without the program refuses to run them (engine/destroy.go `getDeleteHooks`).
   */
  deleteHookBindings(): Array<{ urn: string; names: string[] }> {
    return this.snapshot
      .filter((r) => r.resourceHooks?.BeforeDelete !== undefined || r.resourceHooks?.AfterDelete !== undefined)
      .map((r) => ({
        urn: r.urn,
        names: [...(r.resourceHooks?.BeforeDelete ?? []), ...(r.resourceHooks?.AfterDelete ?? [])],
      }));
  }

  /**
   * Runs a state's delete hooks of one type (step.go `DeleteStep.Apply`, deployment.go `RunHooks`): the
   * old state's ID, URN, name, type, inputs and outputs; no new ones.
   */
  deleteHooks(r: StateResource, type: HookType): Promise<void> {
    return this.hooks.run(
      r.resourceHooks?.[type],
      type,
      this.o.preview,
      {
        urn: r.urn,
        id: r.id ?? "",
        name: parseUrn(r.urn).name,
        type: r.type,
        oldInputs: r.inputs,
        oldOutputs: r.outputs,
      },
      (urn, message) => this.warn(urn, message),
    );
  }

  /** `pulumi refresh`: Read every resource; an empty id means it is gone. The program does not run. */
  refresh(): Promise<void> {
    return this.executor.refresh([...this.snapshot]);
  }

  /** `--refresh` before a preview or up: the program then runs against what the reads found. */
  async refreshFirst(): Promise<void> {
    await this.refresh();
    this.olds.clear();
    for (const r of this.snapshot) if (!r.delete) this.olds.set(r.urn, r);
  }

  entry(goal: Goal, urn: string, inputs: Props, outputs: Props, id?: string): StateResource {
    const e: StateResource = {
      urn,
      type: goal.type,
      custom: goal.custom,
      inputs,
      outputs,
      dependencies: goal.dependencies,
    };
    if (id !== undefined) e.id = id;
    if (goal.parent) e.parent = goal.parent;
    if (goal.provider) e.provider = goal.provider;
    const propDeps = Object.fromEntries(
      Object.entries(goal.propertyDependencies).filter(([, urns]) => urns.length > 0),
    );
    if (Object.keys(propDeps).length) e.propertyDependencies = propDeps;
    if (goal.protect) e.protect = true;
    if (goal.retainOnDelete) e.retainOnDelete = true;
    // Every step built from the registration carries its binding (step_generator.go: same, create,
    // update, replacement, import), so a same step with a new binding rewrites it (snapshot.go mustWrite).
    if (goal.resourceHooks) e.resourceHooks = goal.resourceHooks;
    return e;
  }

  nextSeq(): number {
    return this.seq++;
  }

  planStep(op: StepOp, urn: string, extra: Partial<PlanStep> = {}, seq = this.seq++): void {
    this.plan.push({ seq, op, urn, ...parseUrn(urn), ...extra });
  }

  /** Swaps `old` for `next` in the snapshot (either may be absent) and writes the checkpoint. */
  put(old: StateResource | undefined, next: StateResource | undefined): void {
    const i = old ? this.snapshot.indexOf(old) : -1;
    if (i >= 0) this.snapshot.splice(i, 1);
    // Completion order keeps dependencies ahead of dependents, as in Pulumi's checkpoints.
    if (next) this.snapshot.push(next);
    void this.persist();
  }

  persist(): Promise<void> {
    if (this.o.preview) return Promise.resolve();
    return this.o.writer.write({ version: 1, project: this.o.project, stack: this.o.stack, resources: this.snapshot });
  }
}

const plain = (p: Props) => unwrapSecrets(p) as Props;
