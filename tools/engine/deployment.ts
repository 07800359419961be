// TEST INFRASTRUCTURE (engine stand-in): one deployment.
//
// Mirrors the Go engine's deployment (pkg/resource/deploy) for what our dynamic resources need: each
// registration is matched with its old state (by URN or alias), its step is generated one resource at a
// time (./step-generator: Check, Diff, the decision) and executed under `--parallel`
// (./step-executor); resources the program no longer declares are deleted after it ends (dependents
// first); refresh and destroy. Every completed step writes the checkpoint, so a failed run keeps
// exactly what succeeded.

import { type PlanStep, type StepOp, parseUrn } from "./plan";
import type { ProviderHost, Target } from "./provider-host";
import type { Checkpoint, StateResource, StateWriter } from "./state";
import { type Journal, StepExecutor, type StepResult } from "./step-executor";
import { type Goal, StepError, generateStep } from "./step-generator";
import type { Props } from "./values";

export type { Goal } from "./step-generator";
export { StepError } from "./step-generator";
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
  provider: () => Promise<ProviderHost>;
  parallel: number;
}

export class Deployment implements Journal {
  readonly plan: Array<PlanStep & { seq: number }> = [];
  readonly errors: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  /** A step failed: like the engine, start no new steps, but let running ones finish. */
  failed = false;
  stackOutputs?: Props;
  rootUrn?: string;

  private readonly snapshot: StateResource[];
  private readonly olds = new Map<string, StateResource>();
  private readonly seen = new Set<string>();
  /** Olds taken over by a resource that names their URN among its aliases: never deleted. */
  private readonly aliased = new Set<string>();
  private readonly executor: StepExecutor;
  /** Step generation runs one registration at a time (Check, Diff), outside the `parallel` bound. */
  private generating: Promise<unknown> = Promise.resolve();
  private seq = 0;

  constructor(private readonly o: DeploymentOptions) {
    this.snapshot = [...o.state.resources];
    for (const r of this.snapshot) if (!r.delete) this.olds.set(r.urn, r);
    this.executor = new StepExecutor(this, o.parallel);
  }

  get preview(): boolean {
    return this.o.preview;
  }

  provider(): Promise<ProviderHost> {
    return this.o.provider();
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
    this.errors.push(`error: ${urn ? `${urn}: ` : ""}${message}`);
    this.diagnostics.push({ severity: "error", message, ...(urn ? { urn } : {}) });
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

  async register(goal: Goal): Promise<StepResult> {
    const urn = this.urn(goal.type, goal.name, goal.parent);
    const seq = this.seq++;
    if (goal.type === ROOT_STACK_TYPE && !goal.parent) this.rootUrn = urn;
    try {
      if (this.seen.has(urn)) throw new StepError(`Duplicate resource URN '${urn}'; try giving it a unique name`);
      this.seen.add(urn);
      return goal.custom ? await this.registerCustom(goal, urn, seq) : this.registerComponent(goal, urn, seq);
    } catch (e) {
      this.fail(urn, (e as Error).message);
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
  ): Promise<StepResult> {
    const urn = this.urn(type, name, parent);
    const seq = this.seq++;
    this.seen.add(urn);
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
    });
    try {
      return await this.executor.read({ urn, name, type }, id, props, this.olds.get(urn), entry, seq);
    } catch (e) {
      this.fail(urn, (e as Error).message);
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

  private registerComponent(goal: Goal, urn: string, seq: number): StepResult {
    const old = this.olds.get(urn);
    this.planStep(old ? "same" : "create", urn, {}, seq);
    this.put(old, this.entry(goal, urn, goal.inputs, old?.outputs ?? {}));
    return { urn, id: "", outputs: {} };
  }

  /** Generates the registration's step (one at a time), shows it in the plan and executes it. */
  private async registerCustom(goal: Goal, urn: string, seq: number): Promise<StepResult> {
    const provider = await this.o.provider();
    const t: Target = { urn, name: goal.name, type: goal.type };
    const old = this.oldFor(urn, goal.aliasUrns);
    if (!old && goal.importId) return this.executor.importStep(goal, t, seq);
    const generated = this.generating.then(() => generateStep(provider, t, goal, old));
    this.generating = generated.catch(() => undefined);
    const step = await generated;
    const extra: Partial<PlanStep> =
      step.op === "update"
        ? { changedProperties: step.changed }
        : step.op === "replace"
          ? { changedProperties: step.changed, deleteBeforeReplace: step.deleteBeforeReplace }
          : {};
    this.planStep(step.op, urn, { ...extra, ...(step.op === "same" ? {} : { inputs: step.plainInputs }) }, seq);
    return this.executor.execute(step);
  }

  /** After a successful program: delete what it no longer declares, plus replaced originals. */
  deleteUnregistered(): Promise<void> {
    return this.executor.deleteAll(
      this.snapshot.filter((r) => r.delete || (!this.seen.has(r.urn) && !this.aliased.has(r.urn))),
    );
  }

  destroy(): Promise<void> {
    return this.executor.deleteAll([...this.snapshot]);
  }

  /** `pulumi refresh`: Read every resource; an empty id means it is gone. The program does not run. */
  refresh(): Promise<void> {
    return this.executor.refresh([...this.snapshot]);
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
    const propDeps = Object.fromEntries(
      Object.entries(goal.propertyDependencies).filter(([, urns]) => urns.length > 0),
    );
    if (Object.keys(propDeps).length) e.propertyDependencies = propDeps;
    if (goal.protect) e.protect = true;
    if (goal.retainOnDelete) e.retainOnDelete = true;
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
