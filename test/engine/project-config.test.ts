/**
 * Pulumi.yaml `config:` in the engine stand-in, as the CLI applies it before anything runs
 * (pkg/workspace/config.go `ValidateStackConfigAndApplyProjectConfig`): a project key with neither a
 * stack value nor a default refuses the operation, naming it; a default (or short-form value) fills a
 * key the stack lacks; a key of another namespace is never required.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runEngine } from "../../tools/engine";

const programDir = path.join(__dirname, "fixtures", "project-config");
const work = mkdtempSync(path.join(tmpdir(), "project-config-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = (config: Record<string, string>) =>
  runEngine({ operation: "preview", programDir, stack: "dev", stateFile: path.join(work, "state.json"), config });

describe("engine stand-in: the project's config", () => {
  it("a required key missing: refused before the program runs, naming it (a run threw, then took minutes to exit)", async () => {
    const r = await run({});
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual(["error: Stack 'dev' is missing configuration value 'groupId'"]);
    expect(r.plan).toEqual([]); // not even the stack: nothing registered
    expect(r.stdout + r.stderr).toBe("");
  });

  it("defaults and short-form values fill the keys the stack lacks; a stack value wins", async () => {
    const r = await run({ "project-config:groupId": "7" });
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect(r.outputs).toEqual({ groupId: 7, label: "from-project", short: "short-form value" });
    const set = await run({ "project-config:groupId": "7", "project-config:label": "from-stack" });
    expect(set.outputs).toMatchObject({ label: "from-stack" });
  });
});
