/**
 * What only the real Pulumi CLI does, through the CLI that `npm run cli:install` builds (run by
 * `npm run test:cli`, never by `npm test`): the Automation API driving it, `pulumi import` (the
 * command), `--target`, `--exclude`, `deleteBeforeReplace` of a Role moved to another group, and
 * `preview --refresh --expect-no-changes` after an `up`, for both kinds of resource. Outcomes are read
 * from the service.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBinDir, runPulumiImport } from "../../tools/pulumi-cli/run";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import {
  catalogueSpec,
  roleSpec,
  runMixed,
  engineKind,
  exampleDir,
  runSpec,
  SDK_KINDS,
  specStackPerFile,
  typePrefix,
  type Stack,
} from "./harness";

const role = roleSpec;
const names = async (h: EmulatorHarness, groupId = 42) => (await h.listRoles(groupId)).map((r) => r.name).sort();

describe.runIf(engineKind() === "cli")("the real Pulumi CLI", () => {
  describe("the Automation API (LocalWorkspace, a local file backend) on examples/quickstart", () => {
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

    it("preview, up, a no-op up, destroy", async () => {
      const pulumiCommand = await pulumi.automation.PulumiCommand.get({
        root: path.dirname(cliBinDir()),
        skipVersionCheck: true,
      });
      const stack = await pulumi.automation.LocalWorkspace.createOrSelectStack(
        { stackName: "dev", workDir: exampleDir("quickstart") },
        {
          pulumiCommand,
          // The workspace's config file would be written into the example: keep it in the backend's directory.
          envVars: {
            PULUMI_BACKEND_URL: `file://${backend}`,
            PULUMI_CONFIG_PASSPHRASE: "test",
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PATH: `${cliBinDir()}${path.delimiter}${process.env.PATH}`,
          },
        },
      );
      // The example's stack settings, as the repository keeps them: setAllConfig rewrites the file and
      // removeStack deletes it, so it is put back after the run.
      const settingsFile = path.join(exampleDir("quickstart"), "Pulumi.dev.yaml");
      const settings = existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : undefined;
      try {
        await stack.setAllConfig({
          "quickstart:groupId": { value: "42" },
          "grouproles:baseUrl": { value: h.emu.baseUrl },
          "grouproles:presenceUrl": { value: h.emu.presenceUrl },
          "grouproles:accessToken": { value: h.emu.token, secret: true },
        });
        const preview = await stack.preview();
        expect(preview.changeSummary.create).toBeGreaterThanOrEqual(3);
        expect(await names(h)).toEqual([]);
        await stack.up();
        expect(await names(h)).toEqual(["Supervisors", "Support", "Viewers"]);
        const again = await stack.up();
        expect(again.summary.resourceChanges?.update ?? 0).toBe(0);
        // The resources carry the before-delete hook: a destroy runs the program (docs/delete-hooks.md).
        await stack.destroy({ runProgram: true });
        expect(await h.listRoles(42)).toEqual([]);
      } finally {
        await stack.workspace.removeStack("dev").catch(() => undefined);
        if (settings !== undefined) writeFileSync(settingsFile, settings);
      }
    });
  });

  describe.each(SDK_KINDS)("%s resources through the CLI", (sdk) => {
    let s: Stack;
    specStackPerFile((stack) => (s = stack), sdk);
    const urn = (name: string) => `urn:pulumi:dev::roles-spec::${typePrefix(sdk)}Role::${name}`;

    it("--target creates only the targeted Role; --exclude then creates all but the excluded one", async () => {
      const roles = [role("a", "A"), role("b", "B"), role("c", "C")];
      s.flags = { targets: [urn("a")] };
      const targeted = await runSpec(s, "up", roles);
      expect(targeted.ok, targeted.errors.join("\n")).toBe(true);
      expect(await names(s.h)).toEqual(["A"]);
      s.flags = { excludes: [urn("c")] };
      const excluded = await runSpec(s, "up", roles);
      s.flags = undefined;
      expect(excluded.ok, excluded.errors.join("\n")).toBe(true);
      expect(await names(s.h)).toEqual(["A", "B"]);
      const rest = await runSpec(s, "up", roles);
      expect(rest.ok, rest.errors.join("\n")).toBe(true);
      expect(await names(s.h)).toEqual(["A", "B", "C"]);
    });

    it.each([
      ["1", 1],
      ["2", 2],
      ["the default", undefined],
    ] as const)(
      "--parallel %s: Roles and a GroupRoles created, renamed and removed as the program says",
      async (_label, parallel) => {
        s.parallel = parallel;
        try {
          const catalogue = catalogueSpec("catalogue", { x: { name: "X" }, y: { name: "Y" } });
          const first = await runMixed(s, "up", [catalogue], [role("a", "A"), role("b", "B"), role("c", "C")]);
          expect(first.ok, first.errors.join("\n")).toBe(true);
          expect(await names(s.h)).toEqual(["A", "B", "C", "X", "Y"]);
          const ids = Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
          const changed = catalogueSpec("catalogue", { x: { name: "X2" } });
          const second = await runMixed(s, "up", [changed], [role("a", "A2"), role("c", "C")]);
          expect(second.ok, second.errors.join("\n")).toBe(true);
          const after = Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
          expect(after).toEqual({ A2: ids.A, C: ids.C, X2: ids.X });
        } finally {
          s.parallel = undefined;
        }
      },
    );

    it("deleteBeforeReplace: a Role moved to another group is deleted there, then created here", async () => {
      const first = await runSpec(s, "up", [role("a", "A", { deleteBeforeReplace: true })]);
      expect(first.ok, first.errors.join("\n")).toBe(true);
      const moved = await runSpec(s, "up", [role("a", "A", { deleteBeforeReplace: true }, 43)]);
      expect(moved.ok, moved.errors.join("\n")).toBe(true);
      expect(moved.plan.find((p) => p.name === "a")).toMatchObject({ op: "replace", deleteBeforeReplace: true });
      expect(await names(s.h, 42)).toEqual([]);
      expect(await names(s.h, 43)).toEqual(["A"]);
    });

    it("preview --refresh --expect-no-changes after an up passes, and fails once the service drifted", async () => {
      const roles = [
        role("a", "A"),
        { ...role("b", "B"), args: { groupId: 42, name: "B", settings: { viewVideo: true } } },
      ];
      const up = await runSpec(s, "up", roles);
      expect(up.ok, up.errors.join("\n")).toBe(true);
      s.flags = { refresh: true, expectNoChanges: true };
      try {
        const clean = await runSpec(s, "preview", roles);
        expect(clean.ok, clean.errors.join("\n")).toBe(true);
        const b = (await s.h.listRoles(42)).find((r) => r.name === "B")!;
        await s.h.api("PUT", "/groups/42/roles", [{ roleId: b.roleId, name: "B", settings: { viewVideo: false } }]);
        const drifted = await runSpec(s, "preview", roles);
        expect(drifted.ok).toBe(false);
      } finally {
        s.flags = undefined;
      }
    });
  });

  describe("pulumi import (the command) of a role made by hand, with the resource plugin", () => {
    let s: Stack;
    specStackPerFile((stack) => (s = stack), "package");

    it("adopts the role: its ID kept, nothing created; the program that declares it then changes nothing", async () => {
      const made = await s.h.api("POST", "/groups/42/roles", [{ name: "Agents", description: "by hand" }]);
      expect(made.status).toBe(200);
      const agents = (await s.h.listRoles(42)).find((r) => r.name === "Agents")!;
      await s.h.clearRequests();
      const imported = await runPulumiImport(
        s.options("up", { "roles-spec:sdk": "package" }),
        "grouproles:index:Role",
        "agents",
        `42/${agents.roleId}`,
      );
      expect(imported.ok, imported.errors.join("\n") + imported.stderr).toBe(true);
      expect((await s.h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBeUndefined();
      const recorded = imported.resources.find((r) => r.urn.endsWith("::agents"));
      expect(recorded?.id).toBe(`42/${agents.roleId}`);
      const declared = [{ ...role("agents", "Agents"), args: { groupId: 42, name: "Agents", description: "by hand" } }];
      const preview = await runSpec(s, "preview", declared);
      expect(preview.ok, preview.errors.join("\n")).toBe(true);
      expect(preview.plan.filter((p) => p.op !== "same" && p.type.endsWith(":Role"))).toEqual([]);
    });
  });
});
