// TEST INFRASTRUCTURE (engine stand-in): the plan a run shows, and its text form.

import type { Props } from "./values";

export type StepOp = "create" | "update" | "replace" | "delete" | "same" | "read" | "import" | "refresh";

export interface PlanStep {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  /** Top-level properties that differ, sorted (the CLI's `[diff: ...]`). */
  changedProperties?: string[];
  /** What the provider's detailed diff says happens to each property path (`roles.a: update`), if it sent one. */
  detailedDiff?: Record<string, string>;
  /** The delete only drops the resource from state (`retainOnDelete`). */
  retain?: boolean;
  /** Replacement order chosen: delete-before-replace or create-before-delete. */
  deleteBeforeReplace?: boolean;
  /** The checked inputs a create, update or replacement runs with (secrets unwrapped), for reports. */
  inputs?: Props;
  /** Top-level keys of {@link inputs} the program marked secret (a report shows `[secret]`). */
  secretInputs?: string[];
  /** What state held before an update or replacement (secrets still marked), for reports. */
  old?: { inputs: Props; outputs: Props };
}

const SYMBOL: Record<StepOp, string> = {
  create: "+",
  update: "~",
  replace: "+-",
  delete: "-",
  same: " ",
  read: ">",
  import: "=",
  refresh: "~",
};

/**
 * One line per step that changes something, like the CLI's preview without `--show-sames`:
 * `+ create  pulumi-nodejs:dynamic/grouproles:Role support`, `~ update  ... [name, settings]`.
 */
export function planText(steps: PlanStep[]): string {
  return steps
    .filter((s) => s.op !== "same")
    .map((s) => {
      // The CLI lists changed keys without internal ones (`__structure`, `__provider`): backend/display/rows.go
      // `getDiffInfo` diffs inputs with `IgnoreKeyFunc(resource.IsInternalPropertyKey)`.
      const shown = s.changedProperties?.filter((k) => !k.startsWith("__"));
      const extra = shown?.length ? ` [${shown.join(", ")}]` : s.retain ? " [retain]" : "";
      return `${SYMBOL[s.op]} ${s.op.padEnd(8)}${s.type} ${s.name}${extra}`;
    })
    .join("\n");
}

/** The parts of a URN (`urn:pulumi:<stack>::<project>::<qualified type>::<name>`). */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return { type: qualified.slice(qualified.lastIndexOf("$") + 1), name: parts.slice(3).join("::") };
}
