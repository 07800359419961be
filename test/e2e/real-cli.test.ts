/**
 * The same examples through the real Pulumi CLI (Automation API, LocalWorkspace, local file backend),
 * when `pulumi` is on PATH. Where it is not (the machines this package is built on), these tests are
 * reported as skipped, never as passed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import { exampleDir } from "./harness";

const hasCli = (() => {
  try {
    execFileSync("pulumi", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasCli)("real Pulumi CLI (Automation API)", () => {
  let h: EmulatorHarness;
  let backend: string;
  beforeAll(async () => {
    h = await startHarness();
    backend = mkdtempSync(path.join(os.tmpdir(), "pulumi-backend-"));
  });
  afterAll(async () => {
    await h?.close();
    rmSync(backend, { recursive: true, force: true });
  });

  it("quickstart: preview, up, no-op up, destroy", async () => {
    const stack = await pulumi.automation.LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: exampleDir("quickstart") },
      { envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "test" } },
    );
    await stack.setConfig("quickstart:groupId", { value: "42" });
    await stack.setConfig("grouproles:baseUrl", { value: h.emu.baseUrl });
    await stack.setConfig("grouproles:presenceUrl", { value: h.emu.presenceUrl });
    await stack.setConfig("grouproles:accessToken", { value: h.emu.token, secret: true });
    const preview = await stack.preview();
    expect(preview.changeSummary.create).toBeGreaterThanOrEqual(3);
    await stack.up();
    expect((await h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Supervisors", "Support", "Viewers"]);
    await h.clearRequests();
    const again = await stack.up();
    expect(again.summary.resourceChanges?.update ?? 0).toBe(0);
    await stack.destroy();
    expect(await h.listRoles(42)).toEqual([]);
  }, 300_000);
});
