// The engine stand-in's inline programs (tools/engine/inline-host.ts): the fixture program run as an
// Automation API inline program, several operations in one process, against the same expectations as
// through `cmd/run`.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InlineProgramHost, runEngine } from "../../tools/engine";
import { ITEM, type ItemSpec, TOKEN, fixtureStack } from "./fixture-stack";

const host = new InlineProgramHost(path.dirname(require.resolve("@pulumi/pulumi/package.json")));
afterAll(() => host.close());

describe("engine stand-in inline programs", () => {
  it("runs preview, up, a change and a no-op up in one process, as through cmd/run", async () => {
    const s = fixtureStack();
    const before = host.starts;
    const preview = await s.run("preview", [{ name: "a", props: { value: "v1" } }], { inlineHost: host });
    expect(preview.planText).toContain(`+ create  ${ITEM} a`);
    expect(s.stateText()).toBe("");

    const up = await s.run("up", [{ name: "a", props: { value: "v1" } }], { inlineHost: host });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.outputs["token"]).toBe(TOKEN); // stack outputs and secret config reach the inline program
    expect(s.store().items).toEqual({ "1": { value: "v1" } });

    const changed = await s.run("up", [{ name: "a", props: { value: "v2" } }], { inlineHost: host });
    expect(changed.planText).toContain(`~ update  ${ITEM} a [value]`);
    expect(s.store().items).toEqual({ "1": { value: "v2" } });

    const again = await s.run("up", [{ name: "a", props: { value: "v2" } }], { inlineHost: host });
    expect(again.plan.filter((p) => p.op !== "same")).toEqual([]);
    // The program was evaluated afresh every time, by one process.
    expect(host.starts - before).toBe(1);
    expect(up.programExitCode).toBeUndefined();
  });

  it("a failed step ends a run that awaits nothing of it; the next run goes to the same process", async () => {
    const s = fixtureStack();
    const noOutputs = { "fixture:store": s.storeFile, "fixture:outputs": "false" };
    const spec = (items: ItemSpec[]) => ({ config: { ...noOutputs, "fixture:spec": JSON.stringify(items) } });
    await s.run("up", [], { inlineHost: host, ...spec([{ name: "keep", props: { value: "k" } }]) });
    const before = host.starts;
    const failed = await s.run("up", [], { inlineHost: host, ...spec([{ name: "bad", props: { value: "fail" } }]) });
    expect(failed.errors).toEqual([
      expect.stringContaining("fixture refused to create item with value 'fail'"),
      "error: update failed",
    ]);
    expect(s.names()).toEqual(["keep"]);
    const next = await s.run("up", [], { inlineHost: host, ...spec([{ name: "keep", props: { value: "k" } }]) });
    expect(next.ok, next.errors.join("\n")).toBe(true);
    expect(host.starts - before).toBe(0);
  });

  it("a failed step that a stack output waits for: the run is given up (nothing deleted) and the next one gets a new process", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "keep", props: { value: "k" } }], { inlineHost: host });
    const before = host.starts;
    const failed = await s.run("up", [{ name: "bad", props: { value: "fail" } }], { inlineHost: host });
    expect(failed.ok).toBe(false);
    expect(failed.errors).toEqual([
      `error: urn:pulumi:dev::engine-fixture::${ITEM}::bad: fixture refused to create item with value 'fail'`,
      "error: update failed",
    ]);
    expect(failed.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["keep"]);

    const next = await s.run("up", [{ name: "keep", props: { value: "k" } }], { inlineHost: host });
    expect(next.ok, next.errors.join("\n")).toBe(true);
    expect(next.plan.filter((p) => p.op !== "same")).toEqual([]);
    // Nothing of the abandoned run (its pending work, its error handlers) is left to reach the next one.
    expect(host.starts - before).toBe(1);
  });

  it("an exception in the program is the run's error, and deletes nothing", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "keep", props: { value: "k" } }], { inlineHost: host });
    const r = await s.run("up", [], {
      inlineHost: host,
      config: { "fixture:spec": "not json", "fixture:store": s.storeFile },
    });
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("SyntaxError");
    expect(r.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["keep"]);
  });

  // The leak check comes after the program signalled its end (SignalAndWaitForShutdown), which the engine
  // answers once every step is done: what the program no longer declares is deleted first, as with the
  // Go engine v3.274.1 (cmd/run checks at `exit`, after its `beforeExit` handler's signal; the Automation
  // API after `LanguageServer.run`). Before the stand-in answered the signal, it deleted nothing.
  it("a run that leaves a tracked promise pending fails as through cmd/run, after the deletes", async () => {
    for (const runner of ["process", "inline"] as const) {
      const s = fixtureStack(runner);
      await s.run("up", [{ name: "keep", props: { value: "k" } }], runner === "inline" ? { inlineHost: host } : {});
      const leak = { "fixture:spec": "[]", "fixture:store": s.storeFile, "fixture:leak": "true" };
      const r = await s.run("up", [], { config: leak, ...(runner === "inline" ? { inlineHost: host } : {}) });
      expect(r.ok, runner).toBe(false);
      expect(r.errors.join("\n"), runner).toContain("1 promise was still active");
      expect(r.providerHost.calls.Delete, runner).toBe(1);
      expect(s.names(), runner).toEqual([]);
    }
  });

  it("refuses an environment for the program, which runs in the host's process", async () => {
    const s = fixtureStack();
    await expect(s.run("up", [], { inlineHost: host, env: { X: "1" } })).rejects.toThrow(
      "`env` cannot be set for an inline program",
    );
  });

  it("a check failure while other items register reports that failure only (their Check and Diff finish)", async () => {
    const s = fixtureStack();
    // Their Checks outlast the second a run that waits for a failed resource is given after the failure.
    const items = Array.from({ length: 2 }, (_, i) => ({
      name: `ok${i}`,
      props: { value: `v${i}`, checkDelayMs: 800 },
    }));
    const r = await s.run("preview", [{ name: "bad", props: { value: "invalid" } }, ...items], { inlineHost: host });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([expect.stringContaining("value must not be 'invalid'")]);
  });
});

describe("engine stand-in inline programs in TypeScript", () => {
  // A project in the checkout (.tmp/, ignored), so that the program resolves @pulumi/pulumi as the examples do.
  const scratch = path.join(__dirname, "../../.tmp");
  mkdirSync(scratch, { recursive: true });
  const dir = mkdtempSync(path.join(scratch, "inline-ts-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "inline-ts-state-"));
  const tsHost = new InlineProgramHost(path.dirname(require.resolve("@pulumi/pulumi/package.json")));
  afterAll(async () => {
    await tsHost.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: inline-ts\nruntime: nodejs\nmain: index.ts\n");
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  const program = (body: string) =>
    writeFileSync(
      path.join(dir, "index.ts"),
      `import * as pulumi from "@pulumi/pulumi";\nconst n: number = new pulumi.Config().requireNumber("n");\n${body}\n`,
    );
  const run = () =>
    runEngine({
      operation: "up",
      programDir: dir,
      stack: "dev",
      stateFile: path.join(work, "state.json"),
      config: { "inline-ts:n": "21" },
      inlineHost: tsHost,
    });

  it("compiles the program through ts-node as cmd/run does: its outputs, and its type errors fail the run", async () => {
    program("export const doubled = n * 2;");
    const up = await run();
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.outputs.doubled).toBe(42);
    // Type checked, as `cmd/run` checks a TypeScript program unless told to transpile only.
    program("export const doubled: string = n * 2;");
    const wrong = await run();
    expect(wrong.ok).toBe(false);
    expect(wrong.errors.join("\n")).toContain("TS2322");
  });
});
