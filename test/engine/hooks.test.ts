// The engine stand-in's own tests: resource hooks, as the Go engine v3.274.1 runs them
// (pkg/resource/deploy/step.go `DeleteStep.Apply`, deployment.go `RunHooks`, resource_hooks.go,
// source_eval.go `RegisterResourceHook`, `SignalAndWaitForShutdown`; engine/destroy.go `newDestroySource`).
// The program is fixtures/hooks: a dynamic resource per `things` entry, a ResourceHook per `hooks`
// entry, the hooks logging each call to a file (and throwing when told to). On 2026-12-01 these nine
// cases also ran through the real CLI v3.274.1 (runPulumiCli, with `--run-program` and the export's
// `resourceHooks`) with the same outcomes; tools/engine/README.md says what the comparison left aside.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { type EngineOptions, type EngineResult, runEngine } from "../../tools/engine";
import type { Checkpoint } from "../../tools/engine/state";
import { type ProgramRunner, fileInlineHost } from "../support/program-runner";

const FIXTURE_DIR = path.join(__dirname, "fixtures", "hooks");
const TYPE = "pulumi-nodejs:dynamic/hooks:Thing";
const urn = (name: string) => `urn:pulumi:dev::hooks-fixture::${TYPE}::${name}`;

interface HookSpec {
  name: string;
  onDryRun?: boolean;
  ignoreErrors?: boolean;
  /** The callback throws an Error with this message. */
  fail?: string;
}
interface ThingSpec {
  name: string;
  value: string;
  group?: string;
  beforeDelete?: string[];
  afterDelete?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  dependsOn?: string[];
}
/** What a hook was given (the ResourceHook callback's args), and its name. */
interface HookCall {
  hook: string;
  urn: string;
  id: string;
  name: string;
  type: string;
  oldInputs?: Record<string, unknown>;
  oldOutputs?: Record<string, unknown>;
  newInputs?: Record<string, unknown>;
}

const dirs: string[] = [];
afterAll(() => {
  expect(
    dirs.filter((d) => existsSync(d)),
    "temporary stack folders left behind",
  ).toEqual([]);
});

/** A throwaway stack of the hooks fixture; inline (the file's one host) unless `runner` says "process". */
function hooksStack(runner: ProgramRunner = "inline") {
  const dir = mkdtempSync(path.join(tmpdir(), "engine-hooks-"));
  dirs.push(dir);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const stateFile = path.join(dir, "state.json");
  const log = path.join(dir, "hooks.log");
  const inlineHost = runner === "inline" ? fileInlineHost(FIXTURE_DIR) : undefined;
  return {
    run(
      operation: EngineOptions["operation"],
      program: { hooks?: HookSpec[]; things?: ThingSpec[] },
      extra: Partial<EngineOptions> = {},
    ): Promise<EngineResult> {
      return runEngine({
        operation,
        programDir: FIXTURE_DIR,
        stack: "dev",
        stateFile,
        config: { "hooks:spec": JSON.stringify({ ...program, log }) },
        ...(inlineHost ? { inlineHost } : {}),
        ...extra,
      });
    },
    /** Every hook call so far, in order. */
    calls(): HookCall[] {
      if (!existsSync(log)) return [];
      return readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as HookCall);
    },
    stateText(): string {
      return readFileSync(stateFile, "utf8");
    },
    state(): Checkpoint {
      return JSON.parse(this.stateText()) as Checkpoint;
    },
    /** The things in the checkpoint. */
    names(): string[] {
      return this.state()
        .resources.filter((r) => r.type === TYPE)
        .map((r) => r.urn.split("::").pop() ?? "");
    },
  };
}

const guard = (extra: Partial<HookSpec> = {}): HookSpec => ({ name: "guard", onDryRun: true, ...extra });

describe("engine stand-in resource hooks", () => {
  it("a removed resource whose onDryRun before-delete hook throws: the preview fails with the engine's message and writes nothing; the up fails the same way, before the protect check, and keeps it", async () => {
    const s = hooksStack();
    const made = await s.run("up", {
      hooks: [guard()],
      things: [{ name: "a", value: "1", beforeDelete: ["guard"], protect: true }],
    });
    expect(made.ok, made.errors.join("\n")).toBe(true);
    const before = s.stateText();

    const refused = { hooks: [guard({ fail: "a is in use" })], things: [] };
    const preview = await s.run("preview", refused);
    // A step that fails while it runs in a preview is reported `Preview failed: <error>` (engine/update.go
    // previewActions.OnResourceStepPost); in an up, as it is.
    expect(preview.errors).toEqual([
      `error: ${urn("a")}: Preview failed: before hook "guard" failed: a is in use`,
      "error: preview failed",
    ]);
    expect(s.stateText()).toBe(before);
    // The hook was given the state's ID, URN, name, type, inputs and outputs.
    const [call, ...more] = s.calls();
    expect(more).toEqual([]);
    const kept = s.state().resources.find((r) => r.urn === urn("a"));
    expect(call).toMatchObject({ hook: "guard", urn: urn("a"), id: kept?.id, name: "a", type: TYPE });
    expect(call?.oldInputs).toMatchObject({ value: "1", group: "g1" });
    expect(call?.oldOutputs).toMatchObject({ value: "1", made: true });
    expect(call?.newInputs).toBeUndefined();

    // The hook runs before the protect check (which would have refused with its own message).
    const up = await s.run("up", refused);
    expect(up.errors).toEqual([`error: ${urn("a")}: before hook "guard" failed: a is in use`, "error: update failed"]);
    expect(up.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["a"]);
    expect(s.calls()).toHaveLength(2);
  });

  it("a hook registered without onDryRun is skipped in the preview, which shows the delete, and fails the up (retainOnDelete or not)", async () => {
    const s = hooksStack();
    const hook = guard({ onDryRun: false });
    await s.run("up", {
      hooks: [hook],
      things: [{ name: "a", value: "1", beforeDelete: ["guard"], retainOnDelete: true }],
    });
    const refused = { hooks: [{ ...hook, fail: "not now" }], things: [] };
    const preview = await s.run("preview", refused);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    expect(preview.planText).toBe(`- delete  ${TYPE} a [retain]`);
    expect(s.calls()).toEqual([]);
    const up = await s.run("up", refused);
    expect(up.errors).toEqual([`error: ${urn("a")}: before hook "guard" failed: not now`, "error: update failed"]);
    expect(s.names()).toEqual(["a"]);
  });

  it("a passing hook lets the delete go: the program (cmd/run) stays alive after its end to serve it; a --target'ed delete runs its hook, the untargeted one's none", async () => {
    const s = hooksStack("process");
    const both = {
      hooks: [guard()],
      things: ["a", "b"].map((name) => ({ name, value: "1", beforeDelete: ["guard"] })),
    };
    expect((await s.run("up", both)).ok).toBe(true);
    const up = await s.run("up", { hooks: [guard()], things: [] }, { targets: [urn("a")] });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.programExitCode).toBe(0);
    expect(up.providerHost.calls.Delete).toBe(1);
    expect(s.names()).toEqual(["b"]);
    expect(s.calls().map((c) => [c.hook, c.urn])).toEqual([["guard", urn("a")]]);
  });

  it('a hook the state binds but the program no longer registers fails the delete, in the preview too: hook "guard" was not registered', async () => {
    const s = hooksStack();
    await s.run("up", { hooks: [guard()], things: [{ name: "a", value: "1", beforeDelete: ["guard"] }] });
    const preview = await s.run("preview", { hooks: [], things: [] });
    expect(preview.errors).toEqual([
      `error: ${urn("a")}: Preview failed: hook "guard" was not registered`,
      "error: preview failed",
    ]);
  });

  it("the binding is in the state file, and a same step takes the program's: unbound, the delete runs no hook", async () => {
    const s = hooksStack();
    await s.run("up", {
      hooks: [guard()],
      things: [{ name: "a", value: "1", beforeDelete: ["guard"], afterDelete: ["guard"] }],
    });
    expect(s.state().resources.find((r) => r.urn === urn("a"))?.resourceHooks).toEqual({
      BeforeDelete: ["guard"],
      AfterDelete: ["guard"],
    });
    const failing = [guard({ fail: "still bound" })];
    const same = await s.run("up", { hooks: failing, things: [{ name: "a", value: "1" }] });
    expect(same.ok, same.errors.join("\n")).toBe(true);
    expect(same.planText).toBe("");
    expect(s.state().resources.find((r) => r.urn === urn("a"))?.resourceHooks).toBeUndefined();
    const gone = await s.run("up", { hooks: failing, things: [] });
    expect(gone.ok, gone.errors.join("\n")).toBe(true);
    expect(s.names()).toEqual([]);
    expect(s.calls()).toEqual([]);
  });

  it("a replacement's delete runs the old state's hooks, in the preview too: create-before-delete after the program, delete-before-replace at once", async () => {
    const s = hooksStack();
    const things = (aGroup: string, bGroup: string): ThingSpec[] => [
      { name: "a", value: "1", group: aGroup, beforeDelete: ["guard"] },
      { name: "b", value: "1", group: bGroup, beforeDelete: ["guard"], deleteBeforeReplace: true },
    ];
    await s.run("up", { hooks: [guard()], things: things("g1", "g1") });
    const hooks = [guard({ fail: "keep it" })];
    const cbd = await s.run("preview", { hooks, things: things("g2", "g1") });
    expect(cbd.errors).toEqual([
      `error: ${urn("a")}: Preview failed: before hook "guard" failed: keep it`,
      "error: preview failed",
    ]);
    const dbr = await s.run("preview", { hooks, things: things("g1", "g2") });
    expect(dbr.errors).toEqual([
      `error: ${urn("b")}: Preview failed: before hook "guard" failed: keep it`,
      "error: preview failed",
    ]);
    expect(s.calls().map((c) => c.urn)).toEqual([urn("a"), urn("b")]);
  });

  it("an after-delete hook that fails leaves the delete done and fails the up; an ignoreErrors hook's failure is a warning", async () => {
    const s = hooksStack();
    const hooks: HookSpec[] = [
      { name: "audit", fail: "audit log down" },
      { name: "lenient", ignoreErrors: true, fail: "shrug" },
    ];
    await s.run("up", {
      hooks,
      things: [
        { name: "a", value: "1", afterDelete: ["audit"] },
        { name: "b", value: "1", beforeDelete: ["lenient"], dependsOn: ["a"] },
      ],
    });
    const up = await s.run("up", { hooks, things: [] });
    expect(up.errors).toEqual([
      `error: ${urn("a")}: after hook "audit" failed: audit log down`,
      "error: update failed",
    ]);
    expect(up.diagnostics).toContainEqual({
      severity: "warning",
      urn: urn("b"),
      message: 'BeforeDelete hook "lenient" failed: shrug',
    });
    expect(up.providerHost.calls.Delete).toBe(2);
    expect(s.names()).toEqual([]);
    expect(s.calls().map((c) => `${c.hook} ${c.name}`)).toEqual(["lenient b", "audit a"]);
  });

  it("destroy refuses without runProgram, with the engine's texts and nothing deleted or written; with it the program registers its hooks and every delete runs the program's binding", async () => {
    const s = hooksStack();
    await s.run("up", {
      hooks: [guard(), { name: "audit" }],
      things: [
        { name: "a", value: "1", beforeDelete: ["guard"] },
        { name: "b", value: "1" },
        { name: "c", value: "1", beforeDelete: ["guard"], afterDelete: ["audit"] },
      ],
    });
    const before = s.stateText();
    const refused = await s.run("destroy", { hooks: [], things: [] });
    expect(refused.errors).toEqual([
      `error: ${urn("a")}: Resource has delete hooks registered, but the program is not running. Hooks: guard`,
      `error: ${urn("c")}: Resource has delete hooks registered, but the program is not running. Hooks: guard, audit`,
      "error: You must run with the `--run-program` flag to use delete hooks during destroy.",
    ]);
    expect(refused.providerHost.calls.Delete).toBe(0);
    expect(s.stateText()).toBe(before);

    // The program now binds the guard to b too: a destroy with the program deletes the program's view of
    // each resource it declares (step_generator.go destroyMode), so b's delete runs it.
    const destroyed = await s.run(
      "destroy",
      {
        hooks: [guard(), { name: "audit" }],
        things: [
          { name: "a", value: "1", beforeDelete: ["guard"] },
          { name: "b", value: "2", beforeDelete: ["guard"] },
          { name: "c", value: "1", beforeDelete: ["guard"], afterDelete: ["audit"] },
        ],
      },
      { runProgram: true },
    );
    expect(destroyed.ok, destroyed.errors.join("\n")).toBe(true);
    expect(destroyed.providerHost.calls).toMatchObject({ Create: 0, Update: 0, Delete: 3 });
    expect(s.state().resources).toEqual([]);
    expect(
      s
        .calls()
        .map((c) => `${c.hook} ${c.name}`)
        .sort(),
    ).toEqual(["audit c", "guard a", "guard b", "guard c"]);
    // b was deleted with its recorded inputs, not the program's.
    expect(s.calls().find((c) => c.name === "b")?.oldInputs).toMatchObject({ value: "1" });
  });

  it('registering one hook name twice is refused with the engine\'s error: resource hook already registered for name "guard"', async () => {
    const s = hooksStack();
    const r = await s.run("preview", { hooks: [guard(), guard()], things: [] });
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain('resource hook already registered for name "guard"');
  });
});
