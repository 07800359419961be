/**
 * Runs example programs through the engine stand-in (tools/engine) against a real emulator, with the
 * stack config a user would set. The roles config is secret, as users set it.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { runEngine, type EngineOptions, type EngineResult, type InlineProgramHost } from "../../tools/engine";
import { cliStackDirs, runPulumiCli } from "../../tools/pulumi-cli/run";
import { defaultRunner, inlineHostFor, type ProgramRunner } from "../support/program-runner";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import type { EmulatorOptions } from "../../emulator";

export const repoRoot = path.resolve(__dirname, "../..");
export const exampleDir = (name: string) => path.join(repoRoot, "examples", name);

/**
 * Which resources a test program uses: the dynamic ones (`pulumi-grouproles`) or the resource
 * plugin's (`pulumi-grouproles/package`). Suites that hold for both run once per kind.
 */
export type SdkKind = "dynamic" | "package";
export const SDK_KINDS: readonly SdkKind[] = ["dynamic", "package"];

/**
 * The kind a suite that does not name one runs with: "dynamic", or the `E2E_SDK` environment variable
 * (`E2E_SDK=package npx vitest run test/e2e/<file>` runs a dynamic-only suite through the plugin once;
 * not part of `npm test`, see docs/development.md).
 */
export function defaultSdk(): SdkKind {
  const chosen = process.env.E2E_SDK ?? "dynamic";
  if (!(SDK_KINDS as readonly string[]).includes(chosen))
    throw new Error(`E2E_SDK must be one of ${SDK_KINDS.join(", ")}, got ${chosen}`);
  return chosen as SdkKind;
}

/** A type token's prefix by kind: `pulumi-nodejs:dynamic/grouproles:` or `grouproles:index:`. */
export const typePrefix = (sdk: SdkKind): string =>
  sdk === "dynamic" ? "pulumi-nodejs:dynamic/grouproles:" : "grouproles:index:";

/** True for a Role or GroupRoles type of either kind (`kind` names which). */
export const isGroupRolesType = (type: string, kind?: "Role" | "GroupRoles"): boolean =>
  /^(pulumi-nodejs:dynamic\/grouproles|grouproles:index):(Role|GroupRoles)$/.test(type) &&
  (kind === undefined || type.endsWith(`:${kind}`));

/**
 * Which engine runs the operations: the stand-in (tools/engine, the default) or the real Pulumi CLI
 * (`E2E_ENGINE=cli`, set by `npm run test:cli`, which builds the CLI first: tools/pulumi-cli/README.md).
 */
export type EngineKind = "stand-in" | "cli";
/** A test as `it` declares it (name, body, timeout). */
type TestDeclaration = (name: string, body: () => Promise<void>, timeout?: number) => void;

/**
 * How the tests of a suite that runs once per SDK kind (`describe.each(SDK_KINDS)`) are declared, from
 * inside the kind's `describe`. `both(...)`: with each kind, for what the kinds do differently (the
 * plugin's own wire and init failures, `import` steps, plans and messages that differ). `once(...)`: with
 * one kind through the engine stand-in, the kinds taking turns in the order the file declares its `once`
 * tests (so each file still runs both kinds' paths), and with each kind through the real CLI (`npm run
 * test:cli`), so `.ci/run` still runs every test with both. `E2E_SDK_BOTH=1` runs every test with both
 * kinds through the stand-in too. Issue 42: the suite's CPU is mostly engine operations, a provider
 * process each.
 */
export function kindTests(sdk: SdkKind): { once: TestDeclaration; both: TestDeclaration } {
  let declared = 0;
  const every = engineKind() === "cli" || process.env.E2E_SDK_BOTH === "1";
  const both: TestDeclaration = (name, body, timeout) => it(name, body, timeout);
  const once: TestDeclaration = (name, body, timeout) => {
    const turn = SDK_KINDS[declared++ % SDK_KINDS.length];
    if (every || turn === sdk) it(name, body, timeout);
  };
  return { once, both };
}

export function engineKind(): EngineKind {
  const chosen = process.env.E2E_ENGINE ?? "stand-in";
  if (chosen !== "stand-in" && chosen !== "cli") throw new Error(`E2E_ENGINE must be stand-in or cli, got ${chosen}`);
  return chosen;
}

/** Runs one operation through the engine {@link engineKind} names. */
export const runOperation = (o: EngineOptions): Promise<EngineResult> =>
  engineKind() === "cli" ? runPulumiCli(o) : runEngine(o);

export interface Stack {
  h: EmulatorHarness;
  /** The resources the spec program uses (runSpec, runMixed). @default "dynamic" */
  sdk: SdkKind;
  work: string;
  stateFile: string;
  /** The process the spec program runs in, when it runs inline (see {@link ProgramRunner}). */
  inlineHost?: InlineProgramHost;
  /** `--parallel` for the runs that follow; undefined: the CLI's default (4 per CPU). */
  parallel?: number;
  /** Engine flags for the runs that follow (`--target`, `--exclude`, `--replace`, `--refresh`, ...). */
  flags?: Pick<
    EngineOptions,
    "targets" | "excludes" | "replaces" | "refresh" | "expectNoChanges" | "timeoutMs" | "runProgram"
  >;
  run(
    operation: EngineOptions["operation"],
    config?: Record<string, string>,
    programDir?: string,
    secretConfig?: Record<string, string>,
  ): Promise<EngineResult>;
  /** The engine options {@link run} runs with (for a command of the real CLI's own, `pulumi import`). */
  options(
    operation: EngineOptions["operation"],
    config?: Record<string, string>,
    programDir?: string,
    secretConfig?: Record<string, string>,
  ): EngineOptions;
  /**
   * A new stack on an empty service: the state file removed, the emulator reset (roles, fault rules,
   * request log). Cheaper than a `destroy`, which would start the program's provider host only to
   * delete roles the reset removes anyway.
   */
  fresh(): Promise<void>;
  /**
   * The stack and service that `make` leaves, from a fresh start: made by the first call with this
   * `key` in the file, restored by later ones (the state file and the emulator's store, fault rules
   * and request log cleared). Tests that share a starting point pay for its engine runs once.
   */
  baseline(key: string, make: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function stackFor(
  programDir: string,
  project: string,
  baseConfig: Record<string, string> = {},
  emulator: EmulatorOptions = {},
  /** The secret stack config; default: the emulator's token as `grouproles:accessToken`. */
  secrets?: (h: EmulatorHarness) => Record<string, string>,
  sdk: SdkKind = defaultSdk(),
  /** How the spec program and the examples run; other programs always run through `cmd/run`. */
  runner: ProgramRunner = defaultRunner(),
): Promise<Stack> {
  const h = await startHarness({ presenceServers: 2, ...emulator });
  const work = mkdtempSync(path.join(os.tmpdir(), `e2e-${project}-`));
  // The spec program (plain JS) and the examples (TypeScript, through ts-node as `cmd/run` registers it)
  // run inline unless E2E_PROGRAM says otherwise. The real CLI starts its own language host and a
  // `cmd/run` per operation, so through it (`npm run test:cli`) every program runs as `pulumi up` runs it.
  const inlineHost =
    (programDir === specProgram || path.dirname(programDir) === exampleDir("")) &&
    runner === "inline" &&
    engineKind() === "stand-in"
      ? inlineHostFor(programDir)
      : undefined;
  const stateFile = path.join(work, "state.json");
  // The real CLI's file backend: its own copy of the stack's state, kept beside the state file.
  const backend = cliStackDirs(stateFile).backend;
  const fresh = async () => {
    rmSync(stateFile, { force: true });
    rmSync(backend, { recursive: true, force: true });
    await h.admin("POST", "/reset");
  };
  const baselines = new Map<string, { state: string; service: unknown; backend?: string }>();
  const stack: Stack = {
    h,
    sdk,
    work,
    stateFile,
    ...(inlineHost ? { inlineHost } : {}),
    run: (...args) => runOperation(stack.options(...args)),
    options: (
      operation,
      config = {},
      dir = programDir,
      secretConfig = secrets?.(h) ?? { "grouproles:accessToken": h.emu.token },
    ) => ({
      operation,
      programDir: dir,
      stack: "dev",
      stateFile,
      config: {
        "grouproles:baseUrl": h.emu.baseUrl,
        "grouproles:presenceUrl": h.emu.presenceUrl,
        ...baseConfig,
        ...config,
      },
      secretConfig,
      ...(inlineHost && dir === programDir ? { inlineHost } : {}),
      ...(stack.parallel !== undefined ? { parallel: stack.parallel } : {}),
      // Every Role and GroupRoles carries the before-delete hook, so a destroy runs the program, as the
      // README tells users (docs/delete-hooks.md); a test of the refusal sets `flags.runProgram: false`.
      ...(operation === "destroy" ? { runProgram: true } : {}),
      ...stack.flags,
    }),
    fresh,
    baseline: async (key, make) => {
      const saved = baselines.get(key);
      if (saved) {
        writeFileSync(stateFile, saved.state);
        if (saved.backend) {
          rmSync(backend, { recursive: true, force: true });
          cpSync(saved.backend, backend, { recursive: true });
        }
        await h.admin("PUT", "/state", saved.service);
        return;
      }
      await fresh();
      await make();
      let savedBackend: string | undefined;
      if (existsSync(backend)) {
        savedBackend = path.join(work, `baseline-${baselines.size}`);
        cpSync(backend, savedBackend, { recursive: true });
      }
      baselines.set(key, {
        state: readFileSync(stateFile, "utf8"),
        service: await h.admin("GET", "/state"),
        ...(savedBackend ? { backend: savedBackend } : {}),
      });
      await h.clearRequests();
    },
    close: async () => {
      await inlineHost?.close();
      await h.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
  return stack;
}

/** The plan lines of resources of one kind, type left out (the stack's and providers' lines are engine noise). */
const planOf = (r: EngineResult, kind: "Role" | "GroupRoles"): string[] =>
  r.planText
    .split("\n")
    .map((l) => /^(\S+\s+\S+\s+)(\S+) (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && isGroupRolesType(m[2]!, kind))
    .map((m) => `${m[1]}${m[3]}`.replace(/\s+/g, " ").trim());

/** The plan lines of Role resources only (the stack's own line is engine noise). */
export const rolePlan = (r: EngineResult): string[] => planOf(r, "Role");

/** The test program whose Role resources (args and options) come from the `roles-spec:spec` config. */
export const specProgram = path.join(__dirname, "programs", "roles-spec");

/** One Role of the spec program: resource name, RoleArgs, resource options. */
export interface RoleSpec {
  name: string;
  args: { groupId: number; name: string; description?: string; settings?: Record<string, boolean> };
  opts?: Record<string, unknown>;
}

/**
 * Registers a test file's hooks for the spec program: one stack and emulator for the file (handed to
 * `set`), and before each test a new stack on an empty service (`fresh`).
 */
export function specStackPerFile(set: (s: Stack) => void, sdk?: SdkKind): void {
  let s: Stack | undefined;
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec", {}, {}, undefined, sdk);
    set(s);
  });
  afterAll(() => s?.close());
  beforeEach(() => s!.fresh());
}

/** Runs the spec program with these resources. */
export const runSpec = (
  s: Stack,
  op: EngineOptions["operation"],
  roles: RoleSpec[],
  config: Record<string, string> = {},
  secretConfig?: Record<string, string>,
) =>
  s.run(
    op,
    {
      "roles-spec:spec": JSON.stringify(roles),
      ...(s.sdk === "package" ? { "roles-spec:sdk": "package" } : {}),
      ...config,
    },
    specProgram,
    secretConfig,
  );

/** One GroupRoles of the spec program: resource name, GroupRolesArgs, resource options. */
export interface GroupRolesSpec {
  name: string;
  args: {
    groupId: number;
    roles: Record<string, { name: string; description?: string; settings?: Record<string, boolean>; retain?: boolean }>;
    adoptExisting?: boolean;
    exclusive?: boolean;
  };
  opts?: Record<string, unknown>;
}

/** A GroupRoles of the spec program in group 42 (or `extra.groupId`), with its resource options. */
export const catalogueSpec = (
  name: string,
  roles: GroupRolesSpec["args"]["roles"],
  extra: Partial<GroupRolesSpec["args"]> = {},
  opts?: Record<string, unknown>,
): GroupRolesSpec => ({ name, args: { groupId: 42, roles, ...extra }, ...(opts ? { opts } : {}) });

/** A Role of the spec program named `roleName` in group `groupId` (42), with its resource options. */
export const roleSpec = (name: string, roleName: string, opts?: Record<string, unknown>, groupId = 42): RoleSpec => ({
  name,
  args: { groupId, name: roleName },
  ...(opts ? { opts } : {}),
});

/** Runs the spec program with these Role and GroupRoles resources. */
export const runMixed = (
  s: Stack,
  op: EngineOptions["operation"],
  catalogues: GroupRolesSpec[],
  roles: RoleSpec[] = [],
  config: Record<string, string> = {},
  secretConfig?: Record<string, string>,
) => runSpec(s, op, roles, { "roles-spec:groupRoles": JSON.stringify(catalogues), ...config }, secretConfig);

/**
 * The stack after an `up` of these resources from empty, at the CLI's default `--parallel`: made by the
 * first call with this key in the file (per SDK kind), restored by later ones (`Stack.baseline`), so tests
 * that start from the same stack pay for its engine runs once. The caller's `--parallel` is kept.
 */
export const startFrom = (s: Stack, key: string, catalogues: GroupRolesSpec[], roles: RoleSpec[] = []) =>
  s.baseline(`${key} (${s.sdk})`, async () => {
    const parallel = s.parallel;
    s.parallel = undefined;
    try {
      const first = await runMixed(s, "up", catalogues, roles);
      expect(first.ok, first.errors.join("\n")).toBe(true);
    } finally {
      s.parallel = parallel;
    }
  });

/** The plan lines of GroupRoles resources only. */
export const catalogPlan = (r: EngineResult): string[] => planOf(r, "GroupRoles");
