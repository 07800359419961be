/**
 * The plugin for teams without Node tooling (issue 54): `npm run plugin:pack` builds the archives, and
 * `pulumi plugin install resource grouproles <version> --file <archive>` installs the single-executable
 * one, with which a YAML program runs through the real CLI and YAML host with no Node.js on the PATH
 * and no node_modules (only the CLI's directory is on the PATH; the project's node_modules link is
 * unused by a YAML program). Outcomes are read from the service. CLI-only.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineOptions, EngineResult } from "../../tools/engine";
import { cliBinDir, cliHome, runPulumiCli } from "../../tools/pulumi-cli/run";
import { type EmulatorHarness, startHarness } from "../support/emulator";
import { engineKind } from "./harness";

const root = path.resolve(__dirname, "../..");
const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

describe.runIf(engineKind() === "cli")("the plugin archive, installed by pulumi plugin install", () => {
  let h: EmulatorHarness;
  let work: string;
  let archive: string;
  beforeAll(() => {
    // Packed before the emulator starts: the pack blocks this process for seconds.
    const packed = spawnSync(process.execPath, [path.join(root, "scripts/pack-plugin.js")], { encoding: "utf8" });
    if (packed.status !== 0) throw new Error(`plugin:pack failed: ${packed.stderr}`);
    const name = readdirSync(path.join(root, "dist-plugin")).find((f) => /-(linux|darwin)-\w+\.tar\.gz$/.test(f));
    archive = path.join(root, "dist-plugin", name!);
  });
  beforeAll(async () => {
    h = await startHarness();
    work = mkdtempSync(path.join(os.tmpdir(), "grouproles-archive-"));
  });
  afterAll(async () => {
    await h?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("a YAML program runs with no Node.js on the PATH: up, then a no-op preview", async () => {
    const programDir = path.join(work, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: archive-roles
runtime: yaml
resources:
  support:
    type: grouproles:index:Role
    properties: { groupId: 42, name: Support }
  backOffice:
    type: grouproles:index:GroupRoles
    properties:
      groupId: 42
      roles: { billing: { name: Billing } }
outputs:
  supportId: \${support.roleId}
`,
    );
    const options = (operation: EngineOptions["operation"]): EngineOptions => ({
      operation,
      programDir,
      stack: "dev",
      stateFile: path.join(work, "state.json"),
      config: { "grouproles:baseUrl": h.emu.baseUrl },
      secretConfig: { "grouproles:accessToken": h.emu.token },
      // The PATH is the CLI's directory and this: no `node`, no pulumi-resource-grouproles.
      env: { PATH: path.join(work, "nothing-here") },
    });
    const failed = (r: EngineResult) => r.errors.join("\n") + r.stderr;

    const installed = spawnSync(
      path.join(cliBinDir(), "pulumi"),
      ["plugin", "install", "resource", "grouproles", version, "--file", archive],
      { encoding: "utf8", env: { ...process.env, PULUMI_HOME: cliHome(options("up").stateFile) } },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const up = await runPulumiCli(options("up"));
    expect(up.ok, failed(up)).toBe(true);
    const roles = new Map((await h.listRoles(42)).map((r) => [r.name, r.roleId]));
    expect([...roles.keys()].sort()).toEqual(["Billing", "Support"]);
    expect(up.outputs.supportId).toBe(roles.get("Support"));
    const noop = await runPulumiCli({ ...options("preview"), expectNoChanges: true });
    expect(noop.ok, failed(noop)).toBe(true);
  });
});
