/**
 * Fault matrix (issue 8): every fault the service can throw at a pipeline × every Role operation,
 * batched (several roles of one group at once) and single. Each pair runs the operation with the fault
 * injected by the emulator's fault rules, then runs `up` again without faults, and asserts:
 *   - the fault fired (its rule matched at least one request; a wrong target or a request no longer
 *     sent would otherwise pass as clean),
 *   - the service holds exactly the roles the program declares, with the declared descriptions and
 *     settings (no duplicates, no orphans, the in-use role untouched),
 *   - the state equals the service (ids, names, descriptions, managed settings, inUse, userCount),
 *   - the first run either succeeded or failed with errors naming the operation and the role.
 *
 * Where it runs (cost: an engine run is 1-2 s, a provider-level pair ~0.1 s plus fault delays):
 *   - Provider level, the whole matrix, twice per cell: a transient fault (one faulty reply) and a
 *     persistent one (every matching request until cleared). The provider's methods are called
 *     concurrently for every resource, as the dynamic-provider host calls them, so writes go through
 *     the same batcher and client code (see ./stack-model.ts).
 *   - Engine stand-in, one pair per fault on the batched create path (three Roles of the spec program,
 *     test/e2e/programs/roles-spec, run inline):
 *     serialization, `configure` with `grouproles:timeoutMs`, the gRPC wire and the state file.
 * The table is printed after the run and written to test-results/fault-matrix.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { setStackConfig } from "../../config/stack-config";
import { runEngine } from "../../tools/engine";
import { specProgram } from "../e2e/harness";
import { defaultRunner, fileInlineHost } from "../support/program-runner";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import {
  FAULTS,
  MatrixTable,
  OPS,
  PARTIAL_CREATE_FAULTS,
  type FaultName,
  type OpName,
  type Shape,
} from "./matrix-table";
import { refresh, up, type RunResult, type State } from "./stack-model";

const repoRoot = path.resolve(__dirname, "../..");
/** Short reply timeout for these runs, and a latency that surely exceeds it (undici's timers fire up to ~1 s late). */
const TIMEOUT_MS = 500;
const LATENCY_MS = 2200;

const FAULT_RULES: Record<(typeof FAULTS)[number], Record<string, unknown>> = {
  "429 + Retry-After": { action: "status", status: 429, retryAfter: "1" },
  "503": { action: "status", status: 503 },
  "drop before acting": { action: "drop-before" },
  "applied, then dropped": { action: "drop-after" },
  "reply slower than timeout": { action: "latency", latencyMs: LATENCY_MS },
  "malformed JSON": { action: "malformed-json" },
  "wrong shape / length": { action: "wrong-shape" },
};

type Decl = { groupId: number; name: string; description?: string; settings?: Record<string, boolean> };
const roles = (g: number) => ({
  keeper: { groupId: g, name: "Keeper", description: "held by users", settings: { viewVideo: true } },
  alpha: { groupId: g, name: "Alpha", description: "first", settings: { viewVideo: true, remoteAssist: false } },
  beta: { groupId: g, name: "Beta", settings: { inviteGuest: true } },
  gamma: { groupId: g, name: "Gamma", description: "third" },
  alpha2: {
    groupId: g,
    name: "Alpha 2",
    description: "first, edited",
    settings: { viewVideo: false, agentAnnotation: true },
  },
  beta2: { groupId: g, name: "Beta 2", description: "now described", settings: { inviteGuest: false } },
  gamma2: { groupId: g, name: "Gamma 2", settings: { navigationAssist: true } },
});

/** Programs before and after the operation, by op and shape. */
function scenario(op: OpName, shape: Shape, g: number): { before: Record<string, Decl>; after: Record<string, Decl> } {
  const r = roles(g);
  const all = { keeper: r.keeper, alpha: r.alpha, beta: r.beta, gamma: r.gamma };
  switch (op) {
    case "create":
      return { before: { keeper: r.keeper }, after: shape === "batched" ? all : { keeper: r.keeper, alpha: r.alpha } };
    case "update":
      return {
        before: all,
        after:
          shape === "batched"
            ? { keeper: r.keeper, alpha: r.alpha2, beta: r.beta2, gamma: r.gamma2 }
            : { ...all, alpha: r.alpha2 },
      };
    case "delete":
      // Single deletes the role created last: a list that lost its last item must not make it look gone.
      return {
        before: all,
        after: shape === "batched" ? { keeper: r.keeper } : { keeper: r.keeper, alpha: r.alpha, beta: r.beta },
      };
    case "read":
      return shape === "batched"
        ? { before: all, after: all }
        : { before: { alpha: r.alpha }, after: { alpha: r.alpha } };
  }
}

/** The emulator route a fault targets, per operation. */
function target(op: OpName, g: number, persistent: boolean): Record<string, unknown> {
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

async function serviceRoles(h: EmulatorHarness, g: number): Promise<ServiceRole[]> {
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
async function inject(rule: Record<string, unknown>): Promise<() => Promise<number>> {
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
function verify(
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

function firstRunProblems(run: RunResult, op: OpName): string[] {
  if (run.ok) return [];
  if (!run.errors.length) return ["failed without an error message"];
  const named = new RegExp(`${VERB[op]} role "[^"]+"`);
  return run.errors
    .filter((e) => !named.test(e))
    .map((e) => `error does not name the operation and the role: ${e.slice(0, 300)}`);
}

const short = (run: RunResult) => (run.ok ? "ok" : run.errors[0].slice(0, 160));
const table = new MatrixTable();
let h: EmulatorHarness;
let nextGroup = 5000;

beforeAll(async () => {
  h = await startHarness();
  const config: Record<string, string> = {
    "grouproles:baseUrl": h.emu.baseUrl,
    "grouproles:accessToken": h.emu.token,
    "grouproles:timeoutMs": String(TIMEOUT_MS),
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
});

afterAll(async () => {
  await h?.close();
  setStackConfig(undefined);
  if (!table.outcomes.length) return;
  const text =
    `# Fault matrix\n\n` +
    `Generated by \`test/faults/fault-matrix.test.ts\` (part of \`npm test\`). Each cell counts fault/operation pairs passed/total. ` +
    `A pair runs the operation with the fault injected by the emulator, then \`up\` again without faults, and checks ` +
    `that the fault fired (its rule matched at least one request), that the service holds exactly the declared roles ` +
    `with the declared descriptions and settings (no duplicates, no orphans, the in-use role untouched), that the ` +
    `state equals the service, and that the first run succeeded or failed with errors naming the operation and the ` +
    `role.\n\n` +
    `Every cell runs at the provider level twice (a transient fault: one faulty reply; a persistent one: every matching request until ` +
    `cleared), calling the provider's methods concurrently for every resource, as the dynamic-provider host does, so writes go through ` +
    `the same batcher and client. The batched create column also runs once per fault through the engine stand-in ` +
    `(three Roles of one program: serialized provider, \`configure\`, gRPC, state file). Reply timeout ${TIMEOUT_MS} ms ` +
    `(\`grouproles:timeoutMs\`), slow replies ${LATENCY_MS} ms.\n\n` +
    table.markdown();
  console.log(`\n${text}`);
  // Beside vitest's own report, not in the tree: a partial run must not overwrite the README's table.
  mkdirSync(path.join(repoRoot, "test-results"), { recursive: true });
  writeFileSync(path.join(repoRoot, "test-results/fault-matrix.md"), text);
});

/** One provider-level pair. */
async function providerPair(
  fault: (typeof FAULTS)[number],
  op: OpName,
  shape: Shape,
  persistent: boolean,
): Promise<string[]> {
  const g = nextGroup++;
  const { before, after } = scenario(op, shape, g);
  const state: State = new Map();
  const setup = await up(state, before);
  if (!setup.ok) throw new Error(`setup failed: ${setup.errors.join("; ")}`);
  if ("keeper" in before) {
    await h.setUsers(g, Number(state.get("keeper")!.id.split("/")[1]), 3);
    const r = await refresh(state);
    if (!r.ok) throw new Error(`setup refresh failed: ${r.errors.join("; ")}`);
  }
  const clearFault = await inject({ ...FAULT_RULES[fault], ...target(op, g, persistent), times: persistent ? 0 : 1 });
  const first = op === "read" ? await refresh(state) : await up(state, after);
  const hits = await clearFault();
  // A slow request that timed out still lands later; let it, so the check sees the final service state.
  await h.idle(`/api/v0/groups/${g}/`);
  const second = await up(state, after);
  const problems = [...firstRunProblems(first, op)];
  if (hits === 0) problems.push("the fault never fired: no request matched its rule");
  if (!second.ok) problems.push(`second run failed: ${second.errors.join("; ").slice(0, 300)}`);
  const stateView = [...state.values()].map((e) => ({ id: e.id, ...e.outs }));
  problems.push(...verify(await serviceRoles(h, g), after, stateView, g));
  table.add({
    fault,
    op,
    shape,
    layer: "provider",
    variant: persistent ? "persistent" : "transient",
    passed: problems.length === 0,
    firstRun: short(first),
    ...(problems.length ? { problem: problems.join("; ") } : {}),
  });
  return problems;
}

const CELLS = FAULTS.flatMap((fault) =>
  OPS.flatMap((op) => (["batched", "single"] as const).map((shape) => ({ fault, op, shape }))),
);

// One test per cell, each running the transient and the persistent variant; cells run concurrently
// (vitest's maxConcurrency, 8 in vitest.config.mts), each in its own group, as the pairs are independent.
describe.concurrent("fault matrix, provider level (every fault × operation × batched/single, transient and persistent)", () => {
  it.each(CELLS)(
    "$fault × $op ($shape): converges, exact roles, state equals service, clear first-run errors",
    async (c) => {
      const problems: string[] = [];
      for (const persistent of [false, true]) {
        const found = await providerPair(c.fault, c.op, c.shape, persistent);
        problems.push(...found.map((p) => `${persistent ? "persistent" : "transient"}: ${p}`));
      }
      expect(problems).toEqual([]);
    },
    300_000,
  );
});

describe("fault matrix, engine stand-in (batched create of three Roles, one pair per fault)", () => {
  let work: string;
  // The spec program (test/e2e/programs/roles-spec), inline in one process for the file: what is tested
  // is the provider behind the engine (serialized provider, configure, gRPC, state file), not the
  // program's own process, which costs a second or more of CPU per run through cmd/run.
  const inlineHost = defaultRunner() === "inline" ? fileInlineHost(specProgram) : undefined;
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "fault-matrix-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** The rules of each engine pair: one faulty create reply, or a partial create's pair of rules. */
  const rulesOf = (fault: FaultName, g: number): Array<Record<string, unknown>> => {
    const list = { method: "GET", path: `/api/v0/groups/${g}/roles` };
    switch (fault) {
      case "lost reply, group not listable (unconfirmed)":
        return [
          { ...target("create", g, false), action: "drop-after", times: 1 },
          { ...list, action: "status", status: 503, times: 0 },
        ];
      case "created, read-back failing":
        return [{ ...list, action: "status", status: 503, times: 0 }];
      default:
        return [{ ...FAULT_RULES[fault], ...target("create", g, false), times: 1 }];
    }
  };

  for (const fault of [...FAULTS, ...PARTIAL_CREATE_FAULTS]) {
    it(`${fault}: up with the fault, then up again`, async () => {
      const g = nextGroup++;
      const stateFile = path.join(work, `g${g}.json`);
      // Three Roles of one group in one program, registered together: the batched create path.
      const declared: Array<Omit<Decl, "groupId"> & { key: string }> = [
        {
          key: "support",
          name: "Support",
          description: "First-line support",
          settings: { viewVideo: true, remoteAssist: true },
        },
        { key: "billing", name: "Billing", settings: { visitorDocumentShare: true } },
        { key: "sales", name: "Sales", description: "Sales team" },
      ];
      const spec = declared.map(({ key, ...args }) => ({ name: key, args: { groupId: g, ...args } }));
      const run = () =>
        runEngine({
          operation: "up",
          programDir: specProgram,
          stack: "dev",
          stateFile,
          config: {
            "grouproles:baseUrl": h.emu.baseUrl,
            "roles-spec:spec": JSON.stringify(spec),
            "grouproles:timeoutMs": String(TIMEOUT_MS),
          },
          secretConfig: { "grouproles:accessToken": h.emu.token },
          ...(inlineHost ? { inlineHost } : {}),
        });
      const clearFaults = await Promise.all(rulesOf(fault, g).map(inject));
      const first = await run();
      const hits = Math.min(...(await Promise.all(clearFaults.map((clear) => clear()))));
      await h.idle(`/api/v0/groups/${g}/`);
      const second = await run();
      const firstResult: RunResult = { ok: first.ok, errors: first.errors };
      const problems = [...firstRunProblems(firstResult, "create")];
      if (hits === 0) problems.push("the fault never fired: no request matched its rule");
      if (!second.ok) problems.push(`second run failed: ${second.errors.join("; ").slice(0, 300)}`);
      const onDisk = JSON.parse(readFileSync(stateFile, "utf8")) as {
        resources: Array<{ type: string; id?: string; outputs: Record<string, unknown> }>;
      };
      const stateView = onDisk.resources
        .filter((r) => r.type.endsWith("grouproles:Role"))
        .map((r) => ({
          id: r.id!,
          ...(r.outputs as {
            name: string;
            description?: string;
            settings?: Record<string, boolean>;
            inUse?: boolean;
            userCount?: number;
          }),
        }));
      const program = Object.fromEntries(declared.map(({ key, ...d }) => [key, { ...d, groupId: g }]));
      problems.push(...verify(await serviceRoles(h, g), program, stateView, g));
      table.add({
        fault,
        op: "create",
        shape: "batched",
        layer: "engine",
        variant: "transient",
        passed: problems.length === 0,
        firstRun: short(firstResult),
        ...(problems.length ? { problem: problems.join("; ") } : {}),
      });
      expect(problems).toEqual([]);
    }, 300_000); // two engine runs, each 1-2 s idle; far more on a loaded machine
  }
});
