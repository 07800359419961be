/**
 * What the fault suites share (./fault-matrix.test.ts at the provider level, ./fault-engine.test.ts
 * through an engine): the faults as emulator rules, the route each operation's fault targets, and the
 * checks a pair must pass (the service holds exactly what the program declares, the state equals the
 * service, a failed first run names the operation and the role).
 */
import { ENGINE_FAILED_LINE } from "../../tools/engine";
import type { EmulatorHarness } from "../support/emulator";
import type { FAULTS, OpName } from "./matrix-table";
import type { RunResult } from "./stack-model";

/** Short reply timeout for these runs, and a latency that surely exceeds it (undici's timers fire up to ~1 s late). */
export const TIMEOUT_MS = 500;
export const LATENCY_MS = 2200;

export const FAULT_RULES: Record<(typeof FAULTS)[number], Record<string, unknown>> = {
  "429 + Retry-After": { action: "status", status: 429, retryAfter: "1" },
  "503": { action: "status", status: 503 },
  "drop before acting": { action: "drop-before" },
  "applied, then dropped": { action: "drop-after" },
  "reply slower than timeout": { action: "latency", latencyMs: LATENCY_MS },
  "malformed JSON": { action: "malformed-json" },
  "wrong shape / length": { action: "wrong-shape" },
};

export type Decl = { groupId: number; name: string; description?: string; settings?: Record<string, boolean> };

/** The emulator route a fault targets, per operation. */
export function target(op: OpName, g: number, persistent: boolean): Record<string, unknown> {
  const roles = `/api/v0/groups/${g}/roles`;
  switch (op) {
    case "create":
      return { method: "POST", path: roles };
    case "update":
      return { method: "PUT", path: roles };
    case "delete":
      // Persistent: every request of the delete (the in-use check's list, the confirmation, delete-roles).
      return persistent
        ? { path: `/api/v0/groups/${g}/*` }
        : { method: "POST", path: `/api/v0/groups/${g}/delete-roles` };
    case "read":
      return { method: "GET", path: `${roles}*` };
  }
}

const VERB: Record<OpName, string> = { create: "creating", update: "updating", delete: "deleting", read: "reading" };

interface ServiceRole {
  roleId: number;
  name: string;
  description: string;
  settings: Record<string, boolean>;
  inUse: boolean;
  userCount: number;
}

export async function serviceRoles(h: EmulatorHarness, g: number): Promise<ServiceRole[]> {
  const list = await h.listRoles(g);
  return Promise.all(
    list.map(async (r) => {
      const d = await h.api("GET", `/groups/${g}/roles/${r.roleId}`);
      return { ...r, settings: (d.json as { settings: Record<string, boolean> }).settings };
    }),
  );
}

/**
 * Adds a fault rule for one pair. The returned function removes that rule alone (pairs run side by
 * side, so clearing every rule would end other pairs' faults) and returns how many requests it hit.
 */
export async function inject(h: EmulatorHarness, rule: Record<string, unknown>): Promise<() => Promise<number>> {
  const { id } = (await h.admin("POST", "/faults", rule)) as { id: number };
  return async () => {
    try {
      return ((await h.admin("DELETE", `/faults/${id}`)) as { rule: { hits: number } }).rule.hits;
    } catch (error) {
      // 404: no longer active, i.e. a rule with a count that was used up.
      if (!/: 404 /.test((error as Error).message) || !rule.times) throw error;
      return rule.times as number;
    }
  };
}

const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** Everything the pair must hold; returns the problems found (empty when it passed). */
export function verify(
  svc: ServiceRole[],
  program: Record<string, Decl>,
  state: Array<{
    id: string;
    name: string;
    description?: string;
    settings?: Record<string, boolean>;
    inUse?: boolean;
    userCount?: number;
  }>,
  g: number,
): string[] {
  const problems: string[] = [];
  const want = Object.values(program)
    .map((d) => d.name)
    .sort();
  const have = svc.map((r) => r.name).sort();
  if (JSON.stringify(want) !== JSON.stringify(have))
    problems.push(`service holds [${have.join(", ")}], program declares [${want.join(", ")}]`);
  if ("keeper" in program && svc.find((r) => r.name === "Keeper")?.userCount !== 3)
    problems.push("the in-use role lost its users or is gone");
  for (const d of Object.values(program)) {
    const r = svc.find((x) => x.name === d.name);
    if (!r) continue;
    const description = d.description ?? "";
    if (r.description !== description) {
      problems.push(`${d.name}: service description "${r.description}", program "${description}"`);
    }
    const held = Object.fromEntries(Object.entries(r.settings).filter(([, v]) => v !== null));
    const declared = d.settings ?? {};
    if (sorted(held) !== sorted(declared)) {
      problems.push(`${d.name}: service settings ${JSON.stringify(held)}, program ${JSON.stringify(declared)}`);
    }
  }
  const stateIds = state.map((s) => s.id).sort();
  const svcIds = svc.map((r) => `${g}/${r.roleId}`).sort();
  if (JSON.stringify(stateIds) !== JSON.stringify(svcIds))
    problems.push(`state ids [${stateIds.join(", ")}] != service ids [${svcIds.join(", ")}]`);
  for (const s of state) {
    const r = svc.find((x) => `${g}/${x.roleId}` === s.id);
    if (!r) continue;
    if (s.name !== r.name) problems.push(`${s.id}: state name "${s.name}", service "${r.name}"`);
    if ((s.description ?? "") !== r.description)
      problems.push(`${s.id}: state description "${s.description}", service "${r.description}"`);
    for (const [k, v] of Object.entries(s.settings ?? {}))
      if (r.settings[k] !== v) problems.push(`${s.id}: settings.${k} state ${v}, service ${r.settings[k]}`);
    if (s.inUse !== r.inUse || s.userCount !== r.userCount)
      problems.push(`${s.id}: state inUse/userCount ${s.inUse}/${s.userCount}, service ${r.inUse}/${r.userCount}`);
  }
  return problems;
}

export function firstRunProblems(run: RunResult, op: OpName): string[] {
  if (run.ok) return [];
  if (!run.errors.length) return ["failed without an error message"];
  const named = new RegExp(`${VERB[op]} role "[^"]+"`);
  // The engine's own last line names no resource; the provider's errors before it must.
  if (run.errors.every((e) => ENGINE_FAILED_LINE.test(e))) return ["failed with only the engine's own error line"];
  return run.errors
    .filter((e) => !named.test(e) && !ENGINE_FAILED_LINE.test(e))
    .map((e) => `error does not name the operation and the role: ${e.slice(0, 300)}`);
}

export const short = (run: RunResult) => (run.ok ? "ok" : run.errors[0].slice(0, 160));
