/**
 * How the engine stand-in schedules registrations, as the Go engine does: the main loop generates one
 * registration's step (Check, Diff) at a time and hands it to one of `--parallel` workers over an
 * unbuffered channel (pkg/resource/deploy/step_executor.go `ExecuteSerial`), so while every worker is
 * busy, the registrations behind do not even reach Check.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultParallel } from "../../tools/engine";
import { ProviderInitError } from "../../tools/engine/provider-host";
import { type StateResource, StateWriter, loadState } from "../../tools/engine/state";
import { type Journal, StepExecutor } from "../../tools/engine/step-executor";
import { fixtureStack } from "./fixture-stack";

/** The store's log as `op:id` strings, checks included (items with `traceCheck`). */
const trace = (s: ReturnType<typeof fixtureStack>) => s.store().log.map((l) => `${l.op}:${l.id}`);

describe("engine stand-in scheduling", () => {
  it("while every worker is busy, the main loop waits: the registration after the next one gets no Check", async () => {
    const s = fixtureStack();
    const slow = (name: string) => ({ name, props: { value: name, delayMs: 1500, traceCheck: true } });
    const r = await s.run("up", [slow("a"), slow("b"), slow("c"), slow("d")], { parallel: 2 });
    expect(r.errors).toEqual([]);
    // Two steps take the two workers; the third registration's step is generated and waits to be handed
    // over, holding the main loop; the fourth is checked only once a step has ended. (The SDK sends the
    // four in an order of its own.)
    const log = trace(s);
    const checks = log.flatMap((l, i) => (l.startsWith("check:") ? [i] : []));
    expect(checks).toHaveLength(4);
    expect(checks[2]).toBeLessThan(log.findIndex((l) => l.startsWith("create:")));
    expect(checks[3]).toBeGreaterThan(log.findIndex((l) => l.startsWith("create:")));
  });

  it("with one worker every registration waits for the step before it (--parallel 1)", async () => {
    const s = fixtureStack();
    const item = (name: string) => ({ name, props: { value: name, delayMs: 300, traceCheck: true } });
    const r = await s.run("up", [item("a"), item("b"), item("c")], { parallel: 1 });
    expect(r.errors).toEqual([]);
    expect(trace(s).map((l) => l.split(":")[0])).toEqual(["check", "create", "check", "create", "check", "create"]);
  });

  it("--parallel defaults to PULUMI_PARALLEL, else 4 per CPU (up.go defaultParallel)", () => {
    const saved = process.env.PULUMI_PARALLEL;
    try {
      delete process.env.PULUMI_PARALLEL;
      expect(defaultParallel()).toBe(require("node:os").availableParallelism() * 4);
      process.env.PULUMI_PARALLEL = "3";
      expect(defaultParallel()).toBe(3);
    } finally {
      if (saved === undefined) delete process.env.PULUMI_PARALLEL;
      else process.env.PULUMI_PARALLEL = saved;
    }
  });
});

describe("engine stand-in: refresh and destroy configure providers from state", () => {
  it("dynamic resources: the stack config recorded at the last up, until an up records the new one", async () => {
    // deployment.go EnsureProvider -> registry.go Same: the provider resource's inputs in state, which for
    // `pulumi:providers:pulumi-nodejs` are the whole stack config (target.go GetPackageConfig).
    const s = fixtureStack();
    const item = [{ name: "x", props: { value: "v" } }];
    const rotated = { secretConfig: { "fixture:token": "new-token-0123456789" } };
    await s.run("up", item);
    const tokenSeen = () => s.store().tokenStartsWith;
    expect(tokenSeen()).toBe("tok");
    expect((await s.run("refresh", [], rotated)).ok).toBe(true);
    expect(tokenSeen()).toBe("tok"); // the old token, from state
    // An up (here a no-op for the resource) updates the provider's inputs in state...
    const up = await s.run("up", item, rotated);
    expect(up.planText).toBe("");
    expect((await s.run("refresh", [], rotated)).ok).toBe(true);
    expect(tokenSeen()).toBe("new"); // ...so refresh and destroy use the new one
    const provider = s.state().resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(JSON.stringify(provider?.inputs)).not.toContain("new-token"); // sealed as a secret
  });
});

describe("engine stand-in refresh, as the engine's refresh steps", () => {
  it("a resource gone drops out of others' dependencies (TestRefreshDeleteDependencies)", async () => {
    const s = fixtureStack();
    await s.run("up", [
      { name: "a", props: { value: "a" } },
      { name: "b", props: { value: "b" }, opts: { dependsOn: ["a"] } },
    ]);
    const store = s.store();
    delete store.items["1"];
    writeFileSync(s.storeFile, JSON.stringify(store));
    expect((await s.run("refresh")).ok).toBe(true);
    const b = s.state().resources.find((r) => r.urn.endsWith("::b"));
    expect(s.names()).toEqual(["b"]);
    expect(b?.dependencies.some((u) => u.endsWith("::a"))).toBe(false);
  });

  it("a Read answering an init error keeps the resource with it and goes on; a good Read clears it (TestRefreshInitFailure)", async () => {
    // The dynamic-provider host turns no Read error into an init error, so the refresh steps are driven
    // with a provider that answers as a plugin may (the engine's side is what is tested here).
    const resources: StateResource[] = ["x", "y"].map((name, i) => ({
      urn: `urn:pulumi:dev::p::test:index:T::${name}`,
      type: "test:index:T",
      custom: true,
      id: String(i + 1),
      inputs: { v: name },
      outputs: { v: name },
      dependencies: [],
      provider: "urn:pulumi:dev::p::pulumi:providers:test::default::uuid",
      ...(name === "x" ? { initErrors: ["failed before"] } : {}),
    }));
    let failX = true;
    const host = {
      read: async (t: { name: string }, id: string) => {
        if (t.name === "x" && failX)
          throw new ProviderInitError("Read", "not ready", id, { v: "partial" }, ["still not initialized"]);
        return { id, properties: { v: t.name }, inputs: { v: t.name } };
      },
      diff: async () => ({ changes: "none", replaces: [], deleteBeforeReplace: false, diffs: [] }),
    };
    const failures: string[] = [];
    const journal = {
      preview: false,
      failed: false,
      hostFor: async () => host,
      persist: async () => undefined,
      put: () => undefined,
      planStep: () => undefined,
      nextSeq: () => 0,
      fail: (_u: unknown, m: string) => failures.push(m),
    } as unknown as Journal;
    const executor = new StepExecutor(journal, 4);
    await executor.refresh(resources);
    expect(failures).toEqual([]);
    expect(resources[0]).toMatchObject({ id: "1", outputs: { v: "partial" }, initErrors: ["still not initialized"] });
    failX = false;
    await executor.refresh(resources);
    expect(resources[0]?.initErrors).toBeUndefined();
    expect(resources[0]?.outputs).toEqual({ v: "x" });
  });
});

describe("engine stand-in --continue-on-error", () => {
  it("a failed step stops no independent step, and the deployment fails", async () => {
    // step_executor.go cancelDueToError (ContinueOnError). The Node SDK rejects a failed resource's
    // outputs (@pulumi/pulumi runtime/resource.js: "failed to register"), and nothing in a program awaits its URN, so
    // the program itself ends with that unhandled rejection: no deletes follow, as for any failed program.
    const s = fixtureStack();
    await s.run("up", [
      { name: "old", props: { value: "old" } },
      { name: "bad", props: { value: "v" }, opts: { dependsOn: ["old"] } },
      { name: "gone", props: { value: "gone" } },
    ]);
    const next = [
      { name: "bad", props: { value: "fail" } },
      { name: "independent", props: { value: "i" } },
    ];
    const outputs = { config: { "fixture:outputs": "false" } };
    // --parallel 1: the SDK sends `independent` only once `bad` was answered, so only the option lets it run.
    const r = await s.run("up", next, { continueOnError: true, parallel: 1, ...outputs });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      expect.stringMatching(/::bad: fixture refused to update item \d+ to value 'fail'$/),
      expect.stringContaining("resource bad [pulumi-nodejs:dynamic/fixture:Item] failed to register"),
      "error: update failed",
    ]);
    // independent created beside the failure; nothing deleted after a failed program.
    expect(s.names().sort()).toEqual(["bad", "gone", "independent", "old"]);
    expect(
      Object.values(s.store().items)
        .map((i) => i.value)
        .sort(),
    ).toEqual(["gone", "i", "old", "v"]);
    // Without it, the failure stops the steps that had not started, and nothing is deleted.
    const t = fixtureStack();
    await t.run("up", [{ name: "gone", props: { value: "gone" } }]);
    const stopped = await t.run(
      "up",
      [
        { name: "bad", props: { value: "fail" } },
        { name: "later", props: { value: "l", checkDelayMs: 500 } },
      ],
      { parallel: 1, ...outputs },
    );
    expect(stopped.ok).toBe(false);
    expect(t.names()).toEqual(["gone"]);
  });
});

describe("engine stand-in --refresh and --expect-no-changes", () => {
  it("a drift check: preview --refresh --expect-no-changes fails on drift and writes nothing; up --refresh undoes it", async () => {
    const s = fixtureStack();
    const items = [{ name: "x", props: { value: "v" } }];
    await s.run("up", items);
    const clean = await s.run("preview", items, { refresh: true, expectNoChanges: true });
    expect(clean.ok, clean.errors.join("\n")).toBe(true);
    const store = s.store();
    store.items["1"]!.value = "changed by hand";
    writeFileSync(s.storeFile, JSON.stringify(store));
    const before = s.stateText();
    const drift = await s.run("preview", items, { refresh: true, expectNoChanges: true });
    expect(drift.ok).toBe(false);
    expect(drift.errors).toEqual(["error: no changes were expected for preview but changes were proposed"]);
    const lines = drift.planText.split("\n");
    // The refresh names no property (the CLI's display diffs inputs, which a refresh keeps).
    expect(lines).toContain("~ refresh pulumi-nodejs:dynamic/fixture:Item x");
    expect(lines.some((l) => l.startsWith("~ update  pulumi-nodejs:dynamic/fixture:Item x"))).toBe(true);
    expect(s.stateText()).toBe(before);
    // Without --refresh the program is compared with the state only: no change.
    expect((await s.run("preview", items, { expectNoChanges: true })).ok).toBe(true);
    const fixed = await s.run("up", items, { refresh: true });
    expect(fixed.ok, fixed.errors.join("\n")).toBe(true);
    expect(s.store().items["1"]!.value).toBe("v");
  });
});

describe("engine stand-in: a state from before providers were recorded", () => {
  it("gets its default provider without a change; refresh and destroy work (TestSingleResourceDefaultProviderUpgrade)", async () => {
    const s = fixtureStack();
    const items = [{ name: "x", props: { value: "v" } }];
    await s.run("up", items);
    // The state as the stand-in wrote it before dynamic resources had a provider: no reference, no entry.
    const state = await loadState(s.stateFile, "engine-fixture", "dev");
    state.resources = state.resources
      .filter((r) => !r.type.startsWith("pulumi:providers:"))
      .map(({ provider: _provider, ...r }) => r);
    await new StateWriter(s.stateFile).write(state);
    const up = await s.run("up", items);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.planText).toBe("");
    const item = s.state().resources.find((r) => r.urn.endsWith("::x"));
    expect(item?.provider).toMatch(/::pulumi:providers:pulumi-nodejs::default::/);
    expect((await s.run("refresh")).ok).toBe(true);
    const destroy = await s.run("destroy");
    expect(destroy.ok, destroy.errors.join("\n")).toBe(true);
    expect(s.state().resources).toEqual([]);
  });
});
