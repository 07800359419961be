// TEST INFRASTRUCTURE (simulation): what an operation ended with, in a form two engines can be compared
// on (`npm run simulate -- --differential`): whether it succeeded, the plan it showed for this package's
// resources, what the service holds and what the state records. Role IDs are left out: two engines may
// create in another order, and the emulator numbers roles as they come.

import { GROUPS, type OpRecord } from "./lane";

export interface OpOutcome {
  operation: OpRecord["operation"];
  ok: boolean;
  /** Plan lines of Role and GroupRoles resources, sorted (the order of independent steps is the engine's). */
  plan: string[];
  /** Per group: `name | description | settings` of each role, sorted. */
  service: string[];
  /** Per resource of this package: `urn: the role names it records`, sorted. */
  state: string[];
}

const OURS = /(grouproles:index|pulumi-nodejs:dynamic\/grouproles):(Role|GroupRoles)\b/;

export function outcomeOf(operation: OpRecord["operation"], rec: OpRecord): OpOutcome {
  const service = rec.post.flatMap((roles, g) =>
    roles.map((r) => `${GROUPS[g]}: ${r.name} | ${r.description} | ${JSON.stringify(r.settings)}`),
  );
  const state = rec.postState
    .filter((r) => OURS.test(r.type))
    .map((r) => {
      const out = r.outputs as { name?: string; roles?: Record<string, { name?: string }> };
      const names = out.roles
        ? Object.entries(out.roles).map(([k, v]) => `${k}=${v?.name ?? "?"}`)
        : [String(out.name ?? "?")];
      return `${r.urn.split("::").slice(2).join("::")}: ${names.sort().join(", ")}${r.initErrors?.length ? " (init errors)" : ""}`;
    });
  return {
    operation,
    ok: rec.result.ok,
    plan: rec.result.planText
      .split("\n")
      .filter((l) => OURS.test(l))
      .sort(),
    service: service.sort(),
    state: state.sort(),
  };
}

/** What differs between the same operation's outcomes on two engines: one line per difference. */
export function compareOutcomes(a: OpOutcome, b: OpOutcome, labels: [string, string]): string[] {
  const out: string[] = [];
  const field = <K extends keyof OpOutcome>(k: K) => {
    const [x, y] = [JSON.stringify(a[k]), JSON.stringify(b[k])];
    if (x !== y) out.push(`${k}: ${labels[0]} ${x}; ${labels[1]} ${y}`);
  };
  field("ok");
  field("plan");
  field("service");
  field("state");
  return out;
}
