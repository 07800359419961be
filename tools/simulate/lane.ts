// TEST INFRASTRUCTURE (simulation): a lane runs histories one after another: its own emulator (reset
// between histories), its own inline program host (the spec program evaluated afresh for every
// operation, @pulumi/pulumi loaded once), its own state file. Lanes run side by side and share nothing,
// so each one's request log and fault rules are its own.

import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type EmulatorHarness, startHarness } from "../../test/support/emulator";
import { type EngineResult, InlineProgramHost, type StateResource, readCheckpoint, runEngine } from "../engine";
import { cliStackDirs, runPulumiCli } from "../pulumi-cli/run";
import type { RequestLogEntry } from "../../emulator/request-log";
import { type FaultKind, type FaultSpec, type GroupIx, type Program, specConfig } from "./model";

/** This checkout: the nearest directory above this file with the spec program (tools run compiled, from .tmp/tools). */
function repoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, SPEC))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no checkout of pulumi-grouproles above ${from}`);
  }
}
const SPEC = "test/e2e/programs/roles-spec";
/** The spec program: its resources come from the stack config. */
export const specProgram = path.join(repoRoot(__dirname), SPEC);
/** The groups a history uses (the emulator is reset before each history). */
export const GROUPS: readonly [number, number] = [101, 102];
/** Reply timeout of the provider's client, and the delay of a slow reply (well past it: undici's timers may fire late). */
export const TIMEOUT_MS = 1000;
export const SLOW_MS = 3000;

/** One role as the service holds it (`GET /_emulator/state`). */
export interface ServiceRole {
  roleId: number;
  name: string;
  description: string;
  settings: Record<string, boolean>;
  userCount: number;
}
/** The service's roles of the history's groups, by group index. */
export type Service = [ServiceRole[], ServiceRole[]];

/** What one engine operation did, with the service and the state before and after it. */
export interface OpRecord {
  operation: "preview" | "up" | "refresh" | "destroy";
  result: EngineResult;
  pre: Service;
  post: Service;
  preState: StateResource[];
  postState: StateResource[];
  /** The state file's text after the operation ("" when none). */
  stateText: string;
  /** The requests to the history's groups during the operation. */
  requests: RequestLogEntry[];
  /** Faults injected, each with how many requests it hit. */
  faults: Array<{ spec: FaultSpec; hits: number }>;
  /** Time in the engine stand-in (the rest of the operation's time is the checks' reads). */
  engineMs: number;
  /** Run with `--target` or `--exclude`: resources left out keep their old state, deletes included. */
  partial: boolean;
}

export interface OpOptions {
  parallel?: number;
  batch?: number;
  refresh?: boolean;
  expectNoChanges?: boolean;
  faults?: FaultSpec[];
  /** `--target`, `--exclude`, `--replace` of these resources of the program, by resource name. */
  target?: string[];
  exclude?: string[];
  replace?: string[];
}

/** The URN of resource `res` of the spec program's stack `sim` (dynamic resources: the simulation's SDK). */
export function simUrn(program: Program, res: string): string {
  const type = program.slow?.some((x) => x.res === res)
    ? "pulumi-nodejs:dynamic:Resource"
    : `pulumi-nodejs:dynamic/grouproles:${program.catalogues.some((c) => c.res === res) ? "GroupRoles" : "Role"}`;
  return `urn:pulumi:sim::roles-spec::${type}::${res}`;
}

const ROUTE_RULES: Record<FaultSpec["route"], (g: number) => { method: string; path: string }> = {
  list: (g) => ({ method: "GET", path: `/api/v0/groups/${g}/roles` }),
  details: (g) => ({ method: "GET", path: `/api/v0/groups/${g}/roles/*` }),
  create: (g) => ({ method: "POST", path: `/api/v0/groups/${g}/roles` }),
  update: (g) => ({ method: "PUT", path: `/api/v0/groups/${g}/roles` }),
  delete: (g) => ({ method: "POST", path: `/api/v0/groups/${g}/delete-roles` }),
};

const ACTIONS: Record<FaultKind, Record<string, unknown>> = {
  "429": { action: "status", status: 429, retryAfter: "0" },
  "500": { action: "status", status: 500 },
  "503": { action: "status", status: 503 },
  "drop-before": { action: "drop-before" },
  "drop-after": { action: "drop-after" },
  slow: { action: "latency", latencyMs: SLOW_MS },
  "wrong-shape": { action: "wrong-shape" },
  "malformed-json": { action: "malformed-json" },
};

export type SimulationEngine = "stand-in" | "cli";

export class Lane {
  private constructor(
    /** Two tokens, both granted every group: the stack rotates from one to the other. */
    readonly tokens: readonly [string, string],
    readonly h: EmulatorHarness,
    readonly host: InlineProgramHost,
    readonly work: string,
    /** The engine every operation runs through: the stand-in, or the real CLI (`npm run cli:install` first). */
    readonly engine: SimulationEngine,
  ) {}

  static async start(engine: SimulationEngine = "stand-in"): Promise<Lane> {
    const tokens = [`sim-a-${randomUUID()}`, `sim-b-${randomUUID()}`] as const;
    const h = await startHarness({ tokens: [...tokens] });
    const host = new InlineProgramHost(
      path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [specProgram] })),
    );
    return new Lane(tokens, h, host, mkdtempSync(path.join(os.tmpdir(), "simulate-")), engine);
  }

  get stateFile(): string {
    return path.join(this.work, "state.json");
  }

  /** A new stack on an empty service: no state, no roles, no fault rules, an empty log. */
  async fresh(): Promise<void> {
    rmSync(this.stateFile, { force: true });
    rmSync(cliStackDirs(this.stateFile).backend, { recursive: true, force: true });
    await this.h.admin("POST", "/reset");
  }

  async close(): Promise<void> {
    await this.host.close();
    await this.h.close();
    rmSync(this.work, { recursive: true, force: true });
  }

  async service(): Promise<Service> {
    const s = (await this.h.admin("GET", "/state")) as { groups: Record<string, ServiceRole[]> };
    return [s.groups[String(GROUPS[0])] ?? [], s.groups[String(GROUPS[1])] ?? []];
  }

  async state(): Promise<StateResource[]> {
    return (await readCheckpoint(this.stateFile, "roles-spec", "sim")).resources;
  }

  /** Runs one engine operation on the spec program with `program`, faults injected for its length. */
  async op(operation: OpRecord["operation"], program: Program, tokenIx: 0 | 1, o: OpOptions = {}): Promise<OpRecord> {
    await this.h.clearRequests();
    const [pre, preState] = [await this.service(), await this.state()];
    const injected: Array<{ spec: FaultSpec; id: number }> = [];
    for (const spec of o.faults ?? []) {
      const rule = {
        ...ROUTE_RULES[spec.route](GROUPS[spec.group]),
        ...ACTIONS[spec.kind],
        times: spec.persistent ? 0 : 1,
        ...(spec.skip ? { skip: spec.skip } : {}),
      };
      const { id } = (await this.h.admin("POST", "/faults", rule)) as { id: number };
      injected.push({ spec, id });
    }
    let result: EngineResult;
    let faults: OpRecord["faults"] = [];
    const engineStart = Date.now();
    try {
      // The real Pulumi CLI starts its own language host: no inline program.
      const viaCli = this.engine === "cli";
      result = await (viaCli ? runPulumiCli : runEngine)({
        operation,
        programDir: specProgram,
        stack: "sim",
        stateFile: this.stateFile,
        config: {
          "grouproles:baseUrl": this.h.emu.baseUrl,
          "grouproles:timeoutMs": String(TIMEOUT_MS),
          ...(o.batch ? { "grouproles:maxBatchSize": String(o.batch) } : {}),
          ...specConfig(program, GROUPS),
        },
        secretConfig: { "grouproles:accessToken": this.tokens[tokenIx] },
        ...(viaCli ? {} : { inlineHost: this.host }),
        ...(o.parallel !== undefined ? { parallel: o.parallel } : {}),
        ...(o.refresh ? { refresh: true } : {}),
        ...(o.expectNoChanges ? { expectNoChanges: true } : {}),
        ...(o.target?.length ? { targets: o.target.map((r) => simUrn(program, r)) } : {}),
        ...(o.exclude?.length ? { excludes: o.exclude.map((r) => simUrn(program, r)) } : {}),
        ...(o.replace?.length ? { replaces: o.replace.map((r) => simUrn(program, r)) } : {}),
        // Every resource carries the before-delete hook: a destroy runs the program, as the README says.
        ...(operation === "destroy" ? { runProgram: true } : {}),
      });
    } finally {
      // A rule not used up is removed; its hits say whether it fired.
      faults = await Promise.all(
        injected.map(async ({ spec, id }) => ({ spec, hits: await this.clearFault(id, spec) })),
      );
    }
    const engineMs = Date.now() - engineStart;
    // A slowed request goes on after its client gave up, and may still apply: wait for it.
    await this.h.idle("/api/v0/groups/");
    const log = await this.h.requests();
    const groups = GROUPS.map((g) => `/api/v0/groups/${g}/`);
    const requests = log.entries.filter((e) => e.server === "api" && groups.some((g) => `${e.path}/`.startsWith(g)));
    const [post, postState] = [await this.service(), await this.state()];
    let stateText = "";
    try {
      stateText = readFileSync(this.stateFile, "utf8");
    } catch {}
    const partial = Boolean(o.target?.length || o.exclude?.length);
    return { operation, result, pre, post, preState, postState, stateText, requests, faults, engineMs, partial };
  }

  private async clearFault(id: number, spec: FaultSpec): Promise<number> {
    try {
      return ((await this.h.admin("DELETE", `/faults/${id}`)) as { rule: { hits: number } }).rule.hits;
    } catch (error) {
      // 404: no longer active, i.e. a one-time rule that was used up.
      if (!/: 404 /.test((error as Error).message) || spec.persistent) throw error;
      return 1;
    }
  }

  /** The role of `group` that holds `name` now, if any. */
  async holder(group: GroupIx, name: string): Promise<ServiceRole | undefined> {
    return (await this.service())[group].find((r) => r.name === name);
  }

  /** Calls the roles API as a person editing by hand would; returns the status and reply. */
  api(method: string, group: GroupIx, suffix: string, body?: unknown) {
    return this.h.api(method, `/groups/${GROUPS[group]}${suffix}`, body);
  }
}
