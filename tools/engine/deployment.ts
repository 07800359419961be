// TEST INFRASTRUCTURE (engine stand-in): the step generator and executor.
//
// Mirrors the Go engine's lifecycle (pkg/resource/deploy: step_generator.go, step.go) for what our
// dynamic resources need: Check -> Diff -> same/create/update/replace per registration, deletes of
// unregistered resources after the program ends (dependents first), refresh and destroy. Every
// completed step writes the checkpoint, so a failed run keeps exactly what succeeded.

import { type PlanStep, type StepOp, parseUrn } from "./plan";
import { type ProviderHost, ProviderInitError, type Target } from "./provider-host";
import type { Checkpoint, StateResource, StateWriter } from "./state";
import {
  type Props,
  type Value,
  UNKNOWN,
  changedKeys,
  containsSecret,
  isObject,
  isSecret,
  secret,
  unwrapSecrets,
} from "./values";

/** What one RegisterResource request asks for. */
export interface Goal {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  inputs: Props;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  /** undefined when the program did not set the option: the provider's Diff then decides. */
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  importId: string;
  additionalSecretOutputs: string[];
  /** URNs this resource was known by before (the `aliases` option, as the SDK resolves them). */
  aliasUrns: string[];
}

export interface StepResult {
  urn: string;
  id: string;
  outputs: Props;
}

export interface Diagnostic {
  severity: "info" | "warning" | "error";
  message: string;
  urn?: string;
}

/** A step the engine refuses or a provider call that failed; the message is shown as is. */
export class StepError extends Error {}

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

export class Deployment {
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
  private readonly limit: Limiter;
  /** The step generator: Check and Diff run one resource at a time, outside the `parallel` bound. */
  private readonly generator = new Limiter(1);
  private seq = 0;

  constructor(private readonly o: DeploymentOptions) {
    this.snapshot = [...o.state.resources];
    for (const r of this.snapshot) if (!r.delete) this.olds.set(r.urn, r);
    this.limit = new Limiter(o.parallel);
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

  /**
   * Resolves once every running step has finished: when the program fails, the engine starts no new
   * step but waits for the running ones (deployment_executor.go, `stepExec.WaitForCompletion`) before
   * it closes the provider plugins.
   */
  settled(): Promise<void> {
    return this.limit.idle();
  }

  get resources(): readonly StateResource[] {
    return this.snapshot;
  }

  fail(urn: string | undefined, message: string): void {
    this.failed = true;
    this.errors.push(`error: ${urn ? `${urn}: ` : ""}${message}`);
    this.diagnostics.push({ severity: "error", message, ...(urn ? { urn } : {}) });
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
    try {
      return await this.limit.run(async () => {
        // step.go ReadStep sends the request's properties as both inputs and state ("since forever").
        const plainProps = unwrapSecrets(props) as Props;
        const r = await (await this.o.provider()).read({ urn, name, type }, id, plainProps, plainProps);
        if (!r.id) throw new StepError(`resource '${id}' does not exist`);
        this.step(seq, "read", urn);
        const entry: StateResource = {
          urn,
          type,
          custom: true,
          id: r.id,
          inputs: props,
          outputs: r.properties,
          dependencies,
          external: true,
        };
        if (parent) entry.parent = parent;
        this.put(this.olds.get(urn), entry);
        return { urn, id: r.id, outputs: r.properties };
      });
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
    this.step(seq, old ? "same" : "create", urn);
    this.put(old, this.entry(goal, urn, goal.inputs, old?.outputs ?? {}));
    return { urn, id: "", outputs: {} };
  }

  private async registerCustom(goal: Goal, urn: string, seq: number): Promise<StepResult> {
    const provider = await this.o.provider();
    const t: Target = { urn, name: goal.name, type: goal.type };
    const old = this.oldFor(urn, goal.aliasUrns);
    // The dynamic-provider host answers Configure with acceptSecrets=false: it sees plain values and
    // the engine re-marks as secret the outputs whose inputs were secret.
    const secretKeys = [
      ...Object.keys(goal.inputs).filter((k) => containsSecret(goal.inputs[k])),
      ...goal.additionalSecretOutputs,
    ];
    const plain = (p: Props) => unwrapSecrets(p) as Props;
    const seal = (p: Props) => markSecrets(p, secretKeys);

    if (!old && goal.importId) return this.limit.run(() => this.importStep(goal, t, seq, secretKeys));

    // Step generation (step_generator.go): Check and Diff are called as resources register, one at a
    // time; only the steps they produce run under `--parallel`.
    const generated = await this.generator.run(async () => {
      const news =
        old && goal.ignoreChanges.length
          ? applyIgnoreChanges(goal.inputs, old.inputs, goal.ignoreChanges)
          : goal.inputs;
      const checked = await provider.check(t, old ? plain(old.inputs) : {}, plain(news));
      if (checked.failures.length) throw new StepError(checkFailures(goal, checked.failures, checked.inputs));
      if (!old) return { checked };
      const diff = await provider.diff(
        t,
        old.id ?? "",
        plain(old.outputs),
        checked.inputs,
        plain(old.inputs),
        goal.ignoreChanges,
      );
      return { checked, diff };
    });
    const { checked, diff } = generated;
    const inputs = seal(checked.inputs);

    if (!old || !diff) {
      this.step(seq, "create", urn);
      if (this.o.preview) return { urn, id: "", outputs: inputs };
      return this.limit.run(() => this.createStep(goal, t, inputs, checked.inputs, seal));
    }

    const id = old.id ?? "";
    const changed = diff.diffs.length ? [...diff.diffs].sort() : changedKeys(plain(old.inputs), checked.inputs);
    // DIFF_UNKNOWN (a dynamic provider without `diff`): the engine falls back to comparing inputs.
    const hasChanges = diff.changes === "unknown" ? changed.length > 0 : diff.changes === "some";
    const replace =
      hasChanges && (diff.replaces.length > 0 || goal.replaceOnChanges.some((k) => k === "*" || changed.includes(k)));
    // A resource kept with init errors (a partial create or update) gets an update even without a diff,
    // so that the provider can finish the job (step_generator.go, hasInitErrors).
    const finishing = !hasChanges && (old.initErrors?.length ?? 0) > 0;

    if (!hasChanges && !finishing) {
      this.step(seq, "same", urn);
      const entry = this.entry(goal, urn, inputs, old.outputs, id);
      this.put(old, entry);
      return { urn, id, outputs: old.outputs };
    }

    // In preview the host cannot plan (no supportsPreview), so outputs are the new inputs and every
    // other old output becomes unknown, exactly what the program sees under `pulumi preview`.
    const previewOutputs = (): Props => {
      const out: Props = { ...inputs };
      for (const k of Object.keys(old.outputs)) if (!(k in out)) out[k] = UNKNOWN;
      return out;
    };

    if (!replace) {
      this.step(seq, "update", urn, { changedProperties: changed });
      if (this.o.preview) return { urn, id, outputs: previewOutputs() };
      return this.limit.run(async () => {
        let outs: Props;
        try {
          outs = seal(
            await provider.update(t, id, plain(old.outputs), checked.inputs, plain(old.inputs), goal.ignoreChanges),
          );
        } catch (e) {
          // A partial update: the engine records the properties the provider returned, with init errors.
          if (e instanceof ProviderInitError)
            this.put(old, { ...this.entry(goal, urn, inputs, seal(e.properties), id), initErrors: e.reasons });
          throw e;
        }
        this.put(old, this.entry(goal, urn, inputs, outs, id));
        return { urn, id, outputs: outs };
      });
    }

    // step_generator.go checks the *new* protect flag, so unprotect-and-replace works in one run.
    if (goal.protect) {
      throw new StepError(
        `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
          "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`",
      );
    }
    const dbr = goal.deleteBeforeReplace ?? diff.deleteBeforeReplace;
    this.step(seq, "replace", urn, { changedProperties: changed, deleteBeforeReplace: dbr });
    if (this.o.preview) return { urn, id: "", outputs: previewOutputs() };
    return this.limit.run(async () => {
      if (dbr) {
        if (!old.retainOnDelete) await provider.delete(t, id, plain(old.outputs), plain(old.inputs));
        this.put(old, undefined);
        await this.persist();
      } else {
        old.delete = true; // the old one is deleted after the program finishes
      }
      return this.createStep(goal, t, inputs, checked.inputs, seal);
    });
  }

  /**
   * Create, as step.go CreateStep: a partial create (the provider's init error) is kept in state with
   * the id, the properties it returned and its reasons as init errors, and the step fails.
   */
  private async createStep(
    goal: Goal,
    t: Target,
    inputs: Props,
    plainInputs: Props,
    seal: (p: Props) => Props,
  ): Promise<StepResult> {
    const provider = await this.o.provider();
    try {
      const created = await provider.create(t, plainInputs);
      const entry = this.entry(goal, t.urn, inputs, seal(created.properties), created.id);
      this.put(undefined, entry);
      return { urn: t.urn, id: created.id, outputs: entry.outputs };
    } catch (e) {
      if (e instanceof ProviderInitError && e.id) {
        this.put(undefined, { ...this.entry(goal, t.urn, inputs, seal(e.properties), e.id), initErrors: e.reasons });
      }
      throw e;
    }
  }

  /**
   * The `import` option, as step.go ImportStep: Read with the id alone (no inputs, no state), Check
   * the program's inputs against the inputs Read returned, Diff; a mismatch fails `up` and only warns
   * in preview. NB: with the dynamic-provider host the id-only Read cannot find `__provider` and
   * fails ("code must be a string, not undefined", pulumi/pulumi#3550) - as it does under the CLI.
   */
  private async importStep(goal: Goal, t: Target, seq: number, secretKeys: string[]): Promise<StepResult> {
    const provider = await this.o.provider();
    this.step(seq, "import", t.urn);
    const read = await provider.read(t, goal.importId);
    if (!read.id) throw new StepError(`resource '${goal.importId}' does not exist`);
    if (!read.inputs)
      throw new StepError(
        "provider does not support importing resources; please try updating the 'pulumi-nodejs' plugin",
      );
    const news = applyIgnoreChanges(unwrapSecrets(goal.inputs) as Props, read.inputs, goal.ignoreChanges);
    const checked = await provider.check(t, read.inputs, news);
    if (checked.failures.length) throw new StepError(checkFailures(goal, checked.failures, checked.inputs));
    const diff = await provider.diff(t, read.id, read.properties, checked.inputs, read.inputs, goal.ignoreChanges);
    const changed = diff.diffs.length ? [...diff.diffs].sort() : changedKeys(read.inputs, checked.inputs);
    if (diff.changes === "unknown" ? changed.length > 0 : diff.changes === "some") {
      const message = `inputs to import do not match the existing resource: [${changed.join(" ")}]`;
      if (!this.o.preview) throw new StepError(message);
      this.diagnostics.push({
        severity: "warning",
        urn: t.urn,
        message: `${message}; importing this resource will fail`,
      });
    }
    const entry = this.entry(
      goal,
      t.urn,
      markSecrets(checked.inputs, secretKeys),
      markSecrets(read.properties, secretKeys),
      read.id,
    );
    this.put(undefined, entry);
    return { urn: t.urn, id: read.id, outputs: entry.outputs };
  }

  /** After a successful program: delete what it no longer declares, plus replaced originals. */
  deleteUnregistered(): Promise<void> {
    return this.deleteAll(this.snapshot.filter((r) => r.delete || (!this.seen.has(r.urn) && !this.aliased.has(r.urn))));
  }

  destroy(): Promise<void> {
    return this.deleteAll([...this.snapshot]);
  }

  /** `pulumi refresh`: Read every resource; an empty id means it is gone. The program does not run. */
  async refresh(): Promise<void> {
    await Promise.all(
      this.snapshot
        .filter((r) => r.custom && r.id)
        .map((r) =>
          this.limit.run(async () => {
            if (this.failed) return;
            const seq = this.seq++;
            const t = target(r);
            try {
              const got = await (await this.o.provider()).read(
                t,
                r.id ?? "",
                unwrapSecrets(r.outputs) as Props,
                unwrapSecrets(r.inputs) as Props,
              );
              if (!got.id) {
                this.step(seq, "delete", r.urn);
                this.put(r, undefined);
                return;
              }
              const outputs = markSecrets(got.properties, secretKeysOf(r.outputs));
              const inputs = got.inputs ? markSecrets(got.inputs, secretKeysOf(r.inputs)) : r.inputs;
              const oldInputs = unwrapSecrets(r.inputs) as Props;
              const newInputs = got.inputs ?? oldInputs;
              const outputChanges = changedKeys(unwrapSecrets(r.outputs) as Props, got.properties);
              let drifted = outputChanges.length > 0;
              let changed = outputChanges; // the CLI shows a refresh's diff on outputs
              if (!r.external) {
                // step.go RefreshStep: drift is what an `up` of an unchanged program would change, i.e.
                // Diff with the refreshed state as "old" and the recorded inputs as "new".
                const diff = await (await this.o.provider()).diff(t, got.id, got.properties, oldInputs, newInputs, []);
                drifted =
                  diff.changes === "unknown" ? changedKeys(newInputs, oldInputs).length > 0 : diff.changes === "some";
                if (diff.diffs.length) changed = [...diff.diffs].sort();
              }
              this.step(seq, drifted ? "refresh" : "same", r.urn, drifted ? { changedProperties: changed } : {});
              Object.assign(r, { id: got.id, outputs, inputs });
              await this.persist();
            } catch (e) {
              this.fail(r.urn, (e as Error).message);
            }
          }),
        ),
    );
  }

  /** Deletes in reverse dependency order: a resource goes only once nothing left depends on it. */
  private async deleteAll(candidates: StateResource[]): Promise<void> {
    const remaining = new Set(candidates);
    while (remaining.size > 0 && !this.failed) {
      const all = [...remaining];
      let wave = all.filter((r) => !all.some((o) => o !== r && o.urn !== r.urn && dependsOn(o, r.urn)));
      if (wave.length === 0) wave = all; // a cycle cannot come from a real program; do not hang on one
      await Promise.all(wave.map((r) => this.limit.run(() => this.deleteOne(r))));
      for (const r of wave) remaining.delete(r);
    }
  }

  private async deleteOne(r: StateResource): Promise<void> {
    if (r.external) {
      // A resource read with `get` is only forgotten, never deleted.
      if (!this.o.preview) this.put(r, undefined);
      return;
    }
    // A replaced original shows as part of its `+-` line, not as a delete of its own.
    if (!r.delete) this.step(this.seq++, "delete", r.urn, r.retainOnDelete ? { retain: true } : {});
    if (r.protect && !r.delete) {
      this.fail(
        r.urn,
        `resource ${r.urn} cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the ` +
          "`protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
          `\`pulumi state unprotect '${r.urn}'\``,
      );
      return;
    }
    if (this.o.preview) return;
    try {
      if (r.custom && !r.retainOnDelete) {
        await (await this.o.provider()).delete(
          target(r),
          r.id ?? "",
          unwrapSecrets(r.outputs) as Props,
          unwrapSecrets(r.inputs) as Props,
        );
      }
      this.put(r, undefined);
    } catch (e) {
      this.fail(r.urn, (e as Error).message);
    }
  }

  private entry(goal: Goal, urn: string, inputs: Props, outputs: Props, id?: string): StateResource {
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

  private step(seq: number, op: StepOp, urn: string, extra: Partial<PlanStep> = {}): void {
    this.plan.push({ seq, op, urn, ...parseUrn(urn), ...extra });
  }

  /** Swaps `old` for `next` in the snapshot (either may be absent) and writes the checkpoint. */
  private put(old: StateResource | undefined, next: StateResource | undefined): void {
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

function target(r: StateResource): Target {
  return { urn: r.urn, ...parseUrn(r.urn) };
}

function dependsOn(r: StateResource, urn: string): boolean {
  return (
    r.parent === urn ||
    r.dependencies.includes(urn) ||
    Object.values(r.propertyDependencies ?? {}).some((urns) => urns.includes(urn))
  );
}

function secretKeysOf(p: Props): string[] {
  return Object.keys(p).filter((k) => containsSecret(p[k]));
}

function markSecrets(p: Props, keys: string[]): Props {
  const out: Props = { ...p };
  for (const k of keys) {
    const v = out[k];
    if (v !== undefined && !isSecret(v)) out[k] = secret(v);
  }
  return out;
}

/** `ignoreChanges`: take the old value of each path (or drop it if it had none) before Check. */
function applyIgnoreChanges(news: Props, olds: Props, paths: string[]): Props {
  const out = structuredClone(news);
  for (const p of paths) {
    const keys = p.split(".");
    const last = keys.pop() ?? "";
    let src: Value | undefined = olds;
    let dst: Value | undefined = out;
    for (const k of keys) {
      src = isObject(src) ? src[k] : undefined;
      dst = isObject(dst) ? dst[k] : undefined;
    }
    if (!isObject(dst)) continue;
    if (isObject(src) && last in src) dst[last] = structuredClone(src[last] as Value);
    else delete dst[last];
  }
  return out;
}

/** The CLI's wording for CheckFailures (diag.GetResourcePropertyInvalidValueError). */
function checkFailures(goal: Goal, failures: Array<{ property: string; reason: string }>, inputs: Props): string {
  return failures
    .map((f) =>
      f.property
        ? `${goal.type} resource '${goal.name}': property ${f.property} value {${JSON.stringify(inputs[f.property] ?? null)}} has a problem: ${f.reason}`
        : `${goal.type} resource '${goal.name}' has a problem: ${f.reason}`,
    )
    .join("\n");
}

/** At most `n` provider steps at once, like `pulumi up --parallel n`. */
class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly n: number) {}

  /** Resolves once every step started so far has finished (successfully or not). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  run<T>(f: () => Promise<T>): Promise<T> {
    const step = this.runBounded(f);
    this.running.add(step);
    void step.then(
      () => this.running.delete(step),
      () => this.running.delete(step),
    );
    return step;
  }

  private async runBounded<T>(f: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so the bound is never exceeded.
    if (this.active >= this.n) await new Promise<void>((r) => this.queue.push(r));
    else this.active++;
    try {
      return await f();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}
