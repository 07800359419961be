// TEST INFRASTRUCTURE (engine stand-in): step execution.
//
// As the Go engine's step executor and steps (pkg/resource/deploy/step_executor.go, step.go): runs the
// steps the generator (./step-generator) decided, at most `--parallel` at once, records each outcome
// in the checkpoint (a partial create or update with its init errors, as the engine keeps them), and
// runs the deletes after the program, refresh, and the import and read steps.

import type { HookType } from "./hooks";
import type { PlanStep, StepOp } from "./plan";
import { parseUrn } from "./plan";
import { type ProviderHost, ProviderInitError, type Target } from "./provider-host";
import { DYNAMIC_PACKAGE, isProviderType, parseReference, providerPackage } from "./providers";
import type { StateResource } from "./state";
import { type GeneratedStep, type Goal, ShutDown, StepError, markSecrets, previewFailed } from "./step-generator";
import { type Props, UNKNOWN, changedKeys, containsSecret, unwrapSecrets } from "./values";

export interface StepResult {
  urn: string;
  id: string;
  outputs: Props;
  /** With `--continue-on-error`: the step failed. */
  result?: "fail";
}

/** What the executor records a step's outcome in: the deployment's snapshot, plan and errors. */
/**
 * What a preview tells the program a create, update or replacement will produce: the resource's type,
 * its checked inputs and, for an update, what state holds (secrets unwrapped). Undefined keeps the
 * engine's answer (the new inputs). See {@link import("./index").EngineOptions.plannedOutputs}.
 */
export type PreviewPlanner = (step: {
  type: string;
  op: "create" | "update" | "replace";
  inputs: Props;
  old?: { inputs: Props; outputs: Props };
}) => Props | undefined;

export interface Journal {
  readonly preview: boolean;
  /** In a preview, the outputs of steps that would change something, when the caller plans them. */
  readonly plannedOutputs?: PreviewPlanner | undefined;
  readonly failed: boolean;
  /** The provider process serving `r` (its type, and its provider reference if a plugin's). */
  hostFor(r: { type: string; provider?: string }): Promise<ProviderHost>;
  /** A state entry for `goal` with these inputs and outputs. */
  entry(goal: Goal, urn: string, inputs: Props, outputs: Props, id?: string): StateResource;
  /** Swaps `old` for `next` in the snapshot (either may be absent) and writes the checkpoint. */
  put(old: StateResource | undefined, next: StateResource | undefined): void;
  persist(): Promise<void>;
  /** A plan line; `seq` orders it (registration order), a new one when absent. */
  planStep(op: StepOp, urn: string, extra?: Partial<PlanStep>, seq?: number): void;
  fail(urn: string | undefined, message: string): void;
  /** A step that failed while it ran: {@link fail}, and the engine's "update failed" line at the end. */
  failStep(urn: string, message: string): void;
  /** An error that fails the operation without stopping other steps. */
  report(urn: string, message: string): void;
  warn(urn: string, message: string): void;
  /** The next plan position: a step's line keeps the place it had when the step started. */
  nextSeq(): number;
  /** Runs the delete hooks of one type that state `r` binds (throws the step's error). */
  deleteHooks(r: StateResource, type: HookType): Promise<void>;
}

const plain = (p: Props) => unwrapSecrets(p) as Props;

export class StepExecutor {
  readonly workers: WorkerPool;
  /**
   * In a preview, the old states of create-before-delete replacements: the engine's preview also runs
   * their delete steps after the program (step.go `CreateStep.Apply` marks the old `Delete` in a dry run
   * too; `GenerateDeletes`), whose hooks registered `onDryRun` run.
   */
  readonly previewReplaced = new Set<StateResource>();

  constructor(
    private readonly j: Journal,
    parallel: number,
  ) {
    this.workers = new WorkerPool(parallel);
  }

  /** Resolves once every step started so far has finished (successfully or not). */
  settled(): Promise<void> {
    return this.workers.idle();
  }

  /**
   * Runs a generated step on `worker`, which the main loop took for it (nothing in preview but the
   * outputs the program sees; a same step holds its worker too, as in the engine).
   */
  execute(step: GeneratedStep, worker: Worker): Promise<StepResult> {
    const { t, goal, old, secretKeys } = step;
    const seal = (p: Props) => markSecrets(p, secretKeys);
    const inputs = seal(step.plainInputs);
    const id = old?.id ?? "";
    // In preview a host that cannot plan (no supportsPreview) gets the new inputs as outputs and every
    // other old output becomes unknown, exactly what the program sees under `pulumi preview`.
    const previewOutputs = (): Props => {
      const out: Props = { ...inputs };
      for (const k of Object.keys(old?.outputs ?? {})) if (!(k in out)) out[k] = UNKNOWN;
      return out;
    };
    const planned = (engines: Props): Props => {
      if (step.op === "same") return engines;
      const before =
        step.op === "update" && old ? { inputs: plain(old.inputs), outputs: plain(old.outputs) } : undefined;
      const p = this.j.plannedOutputs?.({
        type: t.type,
        op: step.op,
        inputs: step.plainInputs,
        ...(before ? { old: before } : {}),
      });
      return p ? seal(p) : engines;
    };
    // A preview's create, update or replacement: the provider's plan where it plans (supportsPreview),
    // else the engine's answer (plugin/provider_plugin.go Create and Update with `req.Preview`).
    const previewed = async (op: "create" | "update"): Promise<StepResult> => {
      const host = await this.j.hostFor(goal);
      const answer =
        op === "update"
          ? await host.previewUpdate(
              t,
              id,
              plain(old!.outputs),
              step.plainInputs,
              plain(old!.inputs),
              goal.ignoreChanges,
            )
          : await host.previewCreate(t, step.plainInputs);
      const outputs = answer
        ? seal(answer)
        : planned(op === "create" && step.op === "create" ? inputs : previewOutputs());
      return { urn: t.urn, id: op === "update" ? id : "", outputs };
    };
    return this.workers.runOn(worker, async () => {
      switch (step.op) {
        case "same":
          this.j.put(old, this.j.entry(goal, t.urn, inputs, old!.outputs, id));
          return { urn: t.urn, id, outputs: old!.outputs };
        case "create":
          if (this.j.preview) return previewed("create");
          return this.create(goal, t, inputs, step.plainInputs, seal);
        case "update":
          if (this.j.preview) return previewed("update");
          return this.update(step, inputs, seal);
        case "replace":
          if (this.j.preview) {
            // The delete of a replacement runs in a preview too (its hooks registered onDryRun): first for
            // delete-before-replace, after the program otherwise.
            if (step.deleteBeforeReplace) {
              await this.j.deleteHooks(old!, "BeforeDelete");
              if (!(await this.afterDelete(old!))) throw new ShutDown();
            } else this.previewReplaced.add(old!);
            return previewed("create");
          }
          if (step.deleteBeforeReplace) {
            // step.go DeleteStep.Apply (replacing: no protect check): before hooks, the delete, after hooks;
            // a failing after hook leaves the resource deleted and starts nothing more, the create included.
            await this.j.deleteHooks(old!, "BeforeDelete");
            if (!old!.retainOnDelete)
              await (await this.j.hostFor(old!)).delete(t, id, plain(old!.outputs), plain(old!.inputs));
            this.j.put(old, undefined);
            await this.j.persist();
            if (!(await this.afterDelete(old!))) throw new ShutDown();
          } else {
            old!.delete = true; // the old one is deleted after the program finishes
          }
          return this.create(goal, t, inputs, step.plainInputs, seal);
      }
    });
  }

  private async update(
    step: GeneratedStep & { op: "update" },
    inputs: Props,
    seal: (p: Props) => Props,
  ): Promise<StepResult> {
    const { t, goal, old } = step;
    const id = old!.id ?? "";
    const provider = await this.j.hostFor(goal);
    let outs: Props;
    try {
      outs = seal(
        await provider.update(t, id, plain(old!.outputs), step.plainInputs, plain(old!.inputs), goal.ignoreChanges),
      );
    } catch (e) {
      // A partial update: the engine records the properties the provider returned, with init errors, and
      // the OLD inputs, "because the resource that exists was not created or updated successfully with
      // those inputs" (engine/update.go OnResourceStepPost, pulumi/pulumi#2011; found through the real CLI).
      if (e instanceof ProviderInitError)
        this.j.put(old, { ...this.j.entry(goal, t.urn, old!.inputs, seal(e.properties), id), initErrors: e.reasons });
      throw e;
    }
    this.j.put(old, this.j.entry(goal, t.urn, inputs, outs, id));
    return { urn: t.urn, id, outputs: outs };
  }

  /**
   * Create, as step.go CreateStep: a partial create (the provider's init error) is kept in state with
   * the id, the properties it returned and its reasons as init errors, and the step fails.
   */
  private async create(
    goal: Goal,
    t: Target,
    inputs: Props,
    plainInputs: Props,
    seal: (p: Props) => Props,
  ): Promise<StepResult> {
    const provider = await this.j.hostFor(goal);
    try {
      const created = await provider.create(t, plainInputs);
      const entry = this.j.entry(goal, t.urn, inputs, seal(created.properties), created.id);
      this.j.put(undefined, entry);
      return { urn: t.urn, id: created.id, outputs: entry.outputs };
    } catch (e) {
      if (e instanceof ProviderInitError && e.id) {
        this.j.put(undefined, {
          ...this.j.entry(goal, t.urn, inputs, seal(e.properties), e.id),
          initErrors: e.reasons,
        });
      }
      throw e;
    }
  }

  /**
   * The `import` option, as step.go ImportStep: Read with the ID alone (no inputs, no state); what it
   * read becomes the resource's old state, and the engine then generates the usual step against the
   * program (step_generator.go continueStepsFromImport: Check with those olds, Diff), so a program that
   * differs imports and then updates (Pulumi 3.174 and later, lifecycletest TestImportOption). NB: with
   * the dynamic-provider host the ID-only Read cannot find `__provider` and fails ("code must be a
   * string, not undefined", pulumi/pulumi#3550), as it does under the CLI.
   */
  importStep(goal: Goal, t: Target, seq: number, worker: Worker): Promise<StateResource> {
    return this.workers.runOn(worker, async () => {
      const provider = await this.j.hostFor(goal);
      this.j.planStep("import", t.urn, {}, seq);
      const read = await provider.read(t, goal.importId);
      if (!read.id) throw new StepError(`resource '${goal.importId}' does not exist`);
      if (!read.inputs)
        throw new StepError(
          "provider does not support importing resources; please try updating the 'pulumi-nodejs' plugin",
        );
      const secretKeys = [
        ...Object.keys(goal.inputs).filter((k) => containsSecret(goal.inputs[k])),
        ...goal.additionalSecretOutputs,
      ];
      const entry = this.j.entry(
        goal,
        t.urn,
        markSecrets(read.inputs, secretKeys),
        markSecrets(read.properties, secretKeys),
        read.id,
      );
      this.j.put(undefined, entry);
      return entry;
    });
  }

  /** `Resource.get`: Read with only the id and the request's properties (which carry `__provider`). */
  read(
    host: ProviderHost,
    t: Target,
    id: string,
    props: Props,
    old: StateResource | undefined,
    entry: (outputs: Props, id: string) => StateResource,
    seq: number,
    worker: Worker,
  ): Promise<StepResult> {
    return this.workers.runOn(worker, async () => {
      // step.go ReadStep sends the request's properties as both inputs and state ("since forever").
      const plainProps = plain(props);
      const r = await host.read(t, id, plainProps, plainProps);
      if (!r.id) throw new StepError(`resource '${id}' does not exist`);
      this.j.planStep("read", t.urn, {}, seq);
      this.j.put(old, entry(r.properties, r.id));
      return { urn: t.urn, id: r.id, outputs: r.properties };
    });
  }

  /**
   * Deletes in reverse dependency order: a resource goes only once nothing left depends on it
   * (deployment_executor.go performPostSteps, one antichain at a time). A resource that could not go
   * (protected) keeps what it depends on: those are skipped (the errored steps' dependencies).
   */
  async deleteAll(candidates: StateResource[]): Promise<void> {
    const remaining = new Set(candidates);
    while (remaining.size > 0 && !this.j.failed) {
      const all = [...remaining];
      let wave = all.filter((r) => !all.some((o) => o !== r && o.urn !== r.urn && dependsOn(o, r.urn)));
      if (wave.length === 0) wave = all; // a cycle cannot come from a real program; do not hang on one
      const kept = await Promise.all(wave.map((r) => this.workers.run(() => this.deleteOne(r))));
      for (const r of wave) remaining.delete(r);
      const stayed = wave.filter((_, i) => kept[i]);
      for (let changed = stayed.length > 0; changed; ) {
        changed = false;
        for (const r of remaining) {
          if (stayed.some((k) => dependsOn(k, r.urn))) {
            remaining.delete(r);
            stayed.push(r);
            changed = true;
          }
        }
      }
    }
  }

  /**
   * Deletes one resource, as step.go `DeleteStep.Apply`: its BeforeDelete hooks first (in a preview
   * those registered `onDryRun`), before the protect check, the preview's stop and `retainOnDelete`;
   * then the delete; then its AfterDelete hooks. True when it stays (a hook, protect, or its delete failed).
   */
  private async deleteOne(r: StateResource): Promise<boolean> {
    if (r.external) {
      // A resource read with `get` is only forgotten, never deleted (its state binds no hooks: a read's never does).
      if (!this.j.preview) this.j.put(r, undefined);
      return false;
    }
    const replacing = r.delete === true || this.previewReplaced.has(r);
    // A replaced original shows as part of its `+-` line, not as a delete of its own; the dynamic
    // resources' provider not at all (see the deployment's registerProvider).
    if (!replacing && !(isProviderType(r.type) && providerPackage(r.type) === DYNAMIC_PACKAGE))
      this.j.planStep("delete", r.urn, r.retainOnDelete ? { retain: true } : {});
    try {
      await this.j.deleteHooks(r, "BeforeDelete");
    } catch (e) {
      this.j.failStep(r.urn, this.failure((e as Error).message));
      return true;
    }
    if (r.protect && !replacing) {
      // deleteProtectedError: the step executor always continues past it (cancelDueToError), so every
      // protected delete is reported in one run and the other deletes go on (TestMultipleProtectedDeletes).
      this.j.report(
        r.urn,
        this.failure(
          `resource ${r.urn} cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the ` +
            "`protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
            `\`pulumi state unprotect '${r.urn}'\``,
        ),
      );
      return true;
    }
    if (!this.j.preview) {
      try {
        // A provider resource has nothing to delete in the service (registry.go Delete only forgets it).
        if (r.custom && !r.retainOnDelete && !isProviderType(r.type)) {
          await (await this.j.hostFor(r)).delete(target(r), r.id ?? "", plain(r.outputs), plain(r.inputs));
        }
        this.j.put(r, undefined);
      } catch (e) {
        this.j.failStep(r.urn, (e as Error).message);
        return true;
      }
    }
    await this.afterDelete(r);
    return false;
  }

  /**
   * A delete's AfterDelete hooks (step.go `DeleteStep.Apply`): a failure is the resource's error, but the
   * delete stands (state no longer holds it); the deployment fails and no new step starts
   * (`RecordPostStepError`, then step_executor.go cancels). False when one failed.
   */
  private async afterDelete(r: StateResource): Promise<boolean> {
    try {
      await this.j.deleteHooks(r, "AfterDelete");
      return true;
    } catch (e) {
      this.j.failStep(r.urn, this.failure((e as Error).message));
      return false;
    }
  }

  /**
   * A step's error as the engine reports it: in a preview, `Preview failed: <error>` (engine/update.go
   * `previewActions.OnResourceStepPost`); in an update, as it is.
   */
  private failure(message: string): string {
    return this.j.preview ? previewFailed(message) : message;
  }

  /** `pulumi refresh`: Read every resource; an empty id means it is gone. The program does not run. */
  async refresh(resources: readonly StateResource[]): Promise<void> {
    const gone = new Map<string, StateResource>();
    await Promise.all(
      resources
        .filter((r) => r.custom && r.id && !isProviderType(r.type))
        .map((r) =>
          this.workers.run(async () => {
            if (this.j.failed) return;
            const seq = this.j.nextSeq();
            try {
              if (await this.refreshOne(r, seq)) gone.set(r.urn, r);
            } catch (e) {
              this.j.failStep(r.urn, this.failure((e as Error).message));
            }
          }),
        ),
    );
    if (gone.size) {
      undangle(
        resources.filter((r) => !gone.has(r.urn)),
        gone,
      );
      await this.j.persist();
    }
  }

  /**
   * Refreshes one resource (step.go RefreshStep); true when the provider says it is gone. A Read that
   * answers with an init error keeps the resource with what it read and those errors, and does not fail
   * the refresh; a Read that succeeds clears earlier init errors (lifecycletest TestRefreshInitFailure).
   */
  private async refreshOne(r: StateResource, seq: number): Promise<boolean> {
    const t = target(r);
    const provider = await this.j.hostFor(r);
    let got: Awaited<ReturnType<ProviderHost["read"]>>;
    try {
      got = await provider.read(t, r.id ?? "", plain(r.outputs), plain(r.inputs));
    } catch (e) {
      if (!(e instanceof ProviderInitError)) throw e;
      this.j.planStep("refresh", r.urn, { changedProperties: [] }, seq);
      const outputs = markSecrets(e.properties, secretKeysOf(r.outputs));
      Object.assign(r, { id: e.id || r.id, outputs, initErrors: e.reasons });
      await this.j.persist();
      return false;
    }
    if (!got.id) {
      this.j.planStep("delete", r.urn, {}, seq);
      this.j.put(r, undefined);
      return true;
    }
    const outputs = markSecrets(got.properties, secretKeysOf(r.outputs));
    const inputs = got.inputs ? markSecrets(got.inputs, secretKeysOf(r.inputs)) : r.inputs;
    const oldInputs = plain(r.inputs);
    const newInputs = got.inputs ?? oldInputs;
    const outputChanges = changedKeys(plain(r.outputs), got.properties);
    let drifted = outputChanges.length > 0;
    let changed = outputChanges; // the CLI shows a refresh's diff on outputs
    if (!r.external) {
      // step.go RefreshStep: drift is what an `up` of an unchanged program would change, i.e. Diff with
      // the refreshed state as "old" and the recorded inputs as "new".
      const diff = await provider.diff(t, got.id, got.properties, oldInputs, newInputs, []);
      drifted = diff.changes === "unknown" ? changedKeys(newInputs, oldInputs).length > 0 : diff.changes === "some";
      // The CLI names only what the provider's diff names (a refresh leaves the inputs as they were, and
      // the display diffs inputs: backend/display/rows.go getDiffInfo); a dynamic provider names nothing.
      // Found by `npm run simulate -- --differential` against the real CLI.
      changed = diff.diffs.length ? [...diff.diffs].sort() : [];
    }
    this.j.planStep(drifted ? "refresh" : "same", r.urn, drifted ? { changedProperties: changed } : {}, seq);
    Object.assign(r, { id: got.id, outputs, inputs });
    delete r.initErrors;
    await this.j.persist();
    return false;
  }
}

/**
 * After a refresh dropped resources: no one may depend on them any more (deployment_executor.go
 * rebuildBaseState, undangleParentResources): dependencies on them go, and a child of one takes its
 * parent's parent (lifecycletest TestRefreshDeleteDependencies).
 */
function undangle(remaining: readonly StateResource[], gone: ReadonlyMap<string, StateResource>): void {
  const live = (parent: string | undefined): string | undefined => {
    let p = parent;
    while (p !== undefined && gone.has(p)) p = gone.get(p)!.parent;
    return p;
  };
  for (const r of remaining) {
    r.dependencies = r.dependencies.filter((u) => !gone.has(u));
    if (r.propertyDependencies) {
      for (const [k, urns] of Object.entries(r.propertyDependencies)) {
        const kept = urns.filter((u) => !gone.has(u));
        if (kept.length) r.propertyDependencies[k] = kept;
        else delete r.propertyDependencies[k];
      }
    }
    const parent = live(r.parent);
    if (parent === undefined) delete r.parent;
    else r.parent = parent;
  }
}

function target(r: StateResource): Target {
  return { urn: r.urn, ...parseUrn(r.urn) };
}

/**
 * What a resource (its old state, or the program's goal) depends on as the engine's dependency graph reads
 * it: its parent, its dependencies, its property dependencies and its provider (pkg/resource/graph
 * dependency_graph.go v3.274.1 `DependenciesOf`, through `State.GetAllDependencies`).
 */
export function dependenciesOf(r: {
  parent?: string;
  dependencies: readonly string[];
  propertyDependencies?: Record<string, readonly string[]>;
  provider?: string;
}): string[] {
  return [
    ...(r.parent ? [r.parent] : []),
    ...r.dependencies,
    ...Object.values(r.propertyDependencies ?? {}).flat(),
    ...(r.provider ? [parseReference(r.provider).urn] : []),
  ];
}

function dependsOn(r: StateResource, urn: string): boolean {
  return dependenciesOf(r).includes(urn);
}

function secretKeysOf(p: Props): string[] {
  return Object.keys(p).filter((k) => containsSecret(p[k]));
}

/**
 * The engine's workers (step_executor.go): `n` goroutines that each take one chain of steps at a time
 * from an *unbuffered* channel. The main loop hands a step over only when a worker takes it
 * (`ExecuteSerial`), so it waits while every worker is busy, and registrations behind it wait too.
 * A finishing step hands its worker straight to the next waiter, so the bound is never exceeded.
 */
export class WorkerPool {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(readonly size: number) {}

  /** Resolves once every step started so far has finished (successfully or not). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Waits for a free worker; the caller must `release` it when the step ends. */
  async acquire(): Promise<Worker> {
    if (this.active >= this.size) await new Promise<void>((r) => this.queue.push(r));
    else this.active++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const next = this.queue.shift();
        if (next) next();
        else this.active--;
      },
    };
  }

  /** Runs `f` on `worker` (already taken), releasing it when `f` settles. */
  runOn<T>(worker: Worker, f: () => Promise<T>): Promise<T> {
    const step = (async () => {
      try {
        return await f();
      } finally {
        worker.release();
      }
    })();
    this.running.add(step);
    void step.then(
      () => this.running.delete(step),
      () => this.running.delete(step),
    );
    return step;
  }

  /** Takes a worker (waiting for one), then runs `f` on it: ExecuteParallel's one step. */
  async run<T>(f: () => Promise<T>): Promise<T> {
    return this.runOn(await this.acquire(), f);
  }
}

export interface Worker {
  release(): void;
}
