// TEST INFRASTRUCTURE (engine stand-in): step generation.
//
// As the Go engine's step generator (pkg/resource/deploy/step_generator.go) does for each registration,
// one resource at a time: Check the program's inputs (ignoreChanges applied first), Diff them against
// the old state, and decide the step (same, create, update, replace). Nothing is executed here; the
// executor (./step-executor) runs the step under `--parallel`.

import type { HookBinding } from "./hooks";
import { ignoreChange, parsePropertyPath } from "./property-path";
import type { ProviderHost, Target } from "./provider-host";
import type { StateResource } from "./state";
import {
  type Props,
  UNKNOWN,
  type Value,
  changedKeys,
  containsSecret,
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
  /** The provider reference `<urn>::<id>` (the `provider` option; the engine fills in a default one). */
  provider?: string;
  /** The package version the SDK asks for (names the default provider, `default_<major>_<minor>_<patch>`). */
  version?: string;
  /** Hook names bound to the resource (the `hooks` option), by hook type; kept in its state. */
  resourceHooks?: HookBinding;
}

/** A step the engine refuses or a provider call that failed; the message is shown as is. */
export class StepError extends Error {}

/**
 * How a preview reports a step that failed while it ran (engine/update.go `previewActions.OnResourceStepPost`:
 * diag.GetPreviewFailedError, `Preview failed: %v`); an update reports the error as it is.
 */
export function previewFailed(message: string): string {
  return `Preview failed: ${message}`;
}

/** An event that arrived after the main loop stopped: answered "shut down", not reported as a failure. */
export class ShutDown extends Error {
  constructor() {
    super("resource monitor shut down while waiting on step's done channel");
  }
}

/** A step decided for one registration, with the checked inputs it runs with. */
export type GeneratedStep = {
  t: Target;
  goal: Goal;
  old?: StateResource;
  secretKeys: string[];
  /** The engine's warning for a Diff it could not ask the provider for (its config is unknown). */
  warning?: string;
} & (
  | { op: "create"; plainInputs: Props }
  | { op: "same"; plainInputs: Props }
  | { op: "update"; plainInputs: Props; changed: string[]; detailedDiff?: Record<string, string> }
  | {
      op: "replace";
      plainInputs: Props;
      changed: string[];
      deleteBeforeReplace: boolean;
      /** Protected before and after: `up` fails the step; a preview reports it and goes on. */
      protectedError?: string;
    }
);

/**
 * Check, Diff and the decision for a registration with old state `old` (none: a create).
 * `forceReplace` (`--replace`): Check without olds and no Diff, a replacement blamed on `id`
 * (step_generator.go: `isTargetedReplace` in `generateSteps` and `diff`); it deletes first only when the
 * program's `deleteBeforeReplace` says so (no Diff, so nothing of the provider's).
 */
export async function generateStep(
  provider: ProviderHost,
  t: Target,
  goal: Goal,
  old: StateResource | undefined,
  forceReplace = false,
): Promise<GeneratedStep> {
  // The dynamic-provider host answers Configure with acceptSecrets=false: it sees plain values and
  // the engine re-marks as secret the outputs whose inputs were secret.
  const secretKeys = [
    ...Object.keys(goal.inputs).filter((k) => containsSecret(goal.inputs[k])),
    ...goal.additionalSecretOutputs,
  ];
  const base = { t, goal, secretKeys, ...(old ? { old } : {}) };
  const news =
    old && goal.ignoreChanges.length ? applyIgnoreChanges(goal.inputs, old.inputs, goal.ignoreChanges) : goal.inputs;
  const checked = await provider.check(t, old && !forceReplace ? plain(old.inputs) : {}, plain(news));
  if (checked.failures.length) throw new StepError(checkFailures(goal, checked.failures));
  if (!old) return { ...base, op: "create", plainInputs: checked.inputs };
  if (forceReplace) {
    const protectedError = protectedReplace(t, goal, old);
    return {
      ...base,
      op: "replace",
      plainInputs: checked.inputs,
      changed: ["id"],
      deleteBeforeReplace: goal.deleteBeforeReplace ?? false,
      ...(protectedError ? { protectedError } : {}),
    };
  }

  const diff = await provider.diff(
    t,
    old.id ?? "",
    plain(old.outputs),
    checked.inputs,
    plain(old.inputs),
    goal.ignoreChanges,
  );
  // continueStepsFromDiff: a Diff the provider could not answer (DiffUnavailable) counts as a change, warned.
  if (diff.unavailable) Object.assign(base, { warning: diff.unavailable });
  // step_generator.go diffResource: only DIFF_UNKNOWN (a dynamic provider without `diff`) makes the
  // engine compare inputs itself; otherwise the changed keys are the ones the provider reported
  // (`diffs`), possibly none (the dynamic-provider host never reports any).
  const inputChanges = changedKeys(plain(old.inputs), checked.inputs);
  const reported = diff.changes === "unknown" ? inputChanges : [...diff.diffs].sort();
  const hasChanges = diff.changes === "unknown" ? inputChanges.length > 0 : diff.changes === "some";
  // applyReplaceOnChanges matches `replaceOnChanges` against those keys only.
  const replace =
    hasChanges && (diff.replaces.length > 0 || goal.replaceOnChanges.some((k) => matchesPath(k, reported)));
  // What the CLI shows: the reported keys, else what differs between the inputs.
  const changed = reported.length ? reported : inputChanges;
  // A resource kept with init errors (a partial create or update) gets an update even without a diff,
  // so that the provider can finish the job (step_generator.go, hasInitErrors).
  const finishing = !hasChanges && (old.initErrors?.length ?? 0) > 0;
  if (!hasChanges && !finishing) return { ...base, op: "same", plainInputs: checked.inputs };
  if (!replace)
    return {
      ...base,
      op: "update",
      plainInputs: checked.inputs,
      changed,
      ...(diff.detailedDiff ? { detailedDiff: diff.detailedDiff } : {}),
    };
  const protectedError = protectedReplace(t, goal, old);
  const deleteBeforeReplace = goal.deleteBeforeReplace ?? diff.deleteBeforeReplace;
  // continueStepsFromDiff: a replacement's defaults are computed anew, so Check runs again, with no olds
  // and the program's own inputs.
  const rechecked = await provider.check(t, {}, plain(goal.inputs));
  if (rechecked.failures.length) throw new StepError(checkFailures(goal, rechecked.failures));
  return {
    ...base,
    op: "replace",
    plainInputs: rechecked.inputs,
    changed,
    deleteBeforeReplace,
    ...(protectedError ? { protectedError } : {}),
  };
}

/**
 * step_generator.go continueStepsFromDiff refuses a replacement only when protected before and after
 * (`new.Protect && old.Protect`): unprotect-and-replace, and protect-and-replace, work in one run.
 */
function protectedReplace(t: Target, goal: Goal, old: StateResource): string | undefined {
  return goal.protect && old.protect
    ? `unable to replace resource "${t.urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
        "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`"
    : undefined;
}

/**
 * Whether a `replaceOnChanges` path covers one of the changed keys (`resource.PropertyPath.Contains`):
 * `*` covers all, `a` covers `a` and what is below it, `a[*]` any element of `a`.
 */
function matchesPath(path: string, keys: readonly string[]): boolean {
  const covering = parsePropertyPath(path);
  return keys.some((k) => {
    const key = parsePropertyPath(k);
    return covering.length <= key.length && covering.every((seg, i) => seg === "*" || seg === key[i]);
  });
}

const plain = (p: Props) => unwrapSecrets(p) as Props;

/** The engine's copy of `p` with the values of `keys` marked secret. */
export function markSecrets(p: Props, keys: string[]): Props {
  const out: Props = { ...p };
  for (const k of keys) {
    const v = out[k];
    if (v !== undefined && !isSecret(v)) out[k] = secret(v);
  }
  return out;
}

/**
 * `ignoreChanges`: take the old value of each path (or drop it if it had none) before Check, with full
 * property paths (`a.b`, `a["b.c"]`, `a[0]`, `a[*]`: ./property-path), as processIgnoreChanges does.
 */
export function applyIgnoreChanges(news: Props, olds: Props, paths: string[]): Props {
  return paths.reduce((acc, p) => ignoreChange(acc, olds, p), news);
}

/**
 * The CLI's wording for CheckFailures, as the engine prints it (step_generator.go issueCheckFailures,
 * diag.GetResourcePropertyInvalidValueError: `%v resource '%v': property %v value %v has a problem: %v`):
 * the value is the declared inputs' (the goal's, before Check) at the failure's property taken as one
 * top-level key, so a path such as `roles.support.name` prints `{<nil>}`; it is rendered as Go prints a
 * PropertyValue (`{Support}`, `{42}`, `{<nil>}`), secrets as `[secret]` (PropertyValue.RedactSecrets).
 * Provider resources are no exception. Checked against the real CLI v3.274.1 (`npm run test:cli`).
 */
export function checkFailures(goal: Goal, failures: Array<{ property: string; reason: string }>): string {
  return failures
    .map((f) =>
      f.property
        ? `${goal.type} resource '${goal.name}': property ${f.property} value {${goValue(goal.inputs[f.property])}} has a problem: ${f.reason}`
        : `${goal.type} resource '${goal.name}' has a problem: ${f.reason}`,
    )
    .join("\n");
}

/** A property value as Go's `%v` prints the inside of a PropertyValue (properties.go String), secrets redacted. */
function goValue(v: Value | undefined): string {
  if (v === undefined || v === null) return "<nil>";
  if (isSecret(v)) return "[secret]";
  if (v === UNKNOWN) return "output<string>{}";
  if (Array.isArray(v)) return `[${v.map((x) => `{${goValue(x)}}`).join(" ")}]`;
  if (typeof v === "object")
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:{${goValue(v[k])}}`)
      .join(" ")}]`;
  return String(v);
}
