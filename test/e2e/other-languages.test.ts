/**
 * Programs in YAML, Python, Go and TypeScript (the plugin SDK) declare roles through the resource
 * plugin (issue 54), and the code `pulumi import` writes in each works. Through the real CLI, with each
 * language's runtime: the real YAML host `pulumi-language-yaml`, built from its Go module; for Python
 * the real `pulumi-language-python-exec` in a virtual environment with PyPI's `pulumi` and the generated
 * SDK; for Go a real `go build` of the program against the generated SDK; for TypeScript the real Node.js
 * runtime (Python, Go and Node.js through small launchers: tools/pulumi-cli/README.md). The plugin is
 * found on the PATH; the service is the emulator. CLI-only: the stand-in runs Node programs alone.
 * Outcomes are read from the service (its roles, its request log) and from the state the CLI exports.
 *
 * The YAML, Python and Go programs bind no before-delete hook (YAML cannot; the others could bind their
 * own, docs/package.md), so there a `Role` removed while users hold its role previews green and its
 * `up` fails at the plugin's Delete, which refuses it with nothing deleted; an in-use entry of a
 * `GroupRoles` is refused in the preview, as in every language (the plugin's Diff sees it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineOptions, EngineResult } from "../../tools/engine";
import { runPulumiArgs, runPulumiCli } from "../../tools/pulumi-cli/run";
import { type EmulatorHarness, startHarness } from "../support/emulator";
import { pythonVenv } from "../support/python-venv";
import { engineKind } from "./harness";

/** What the program declares: a Role `support` and a GroupRoles `backOffice` in group 42, two lookups. */
interface Program {
  supportName: string;
  /** The catalogue's entries, key to name. */
  entries: Record<string, string>;
  /** Code `pulumi import` wrote, pasted into the program. */
  imported?: string;
}

interface Language {
  /** The project's files for `p`. */
  files(p: Program): Record<string, string>;
  /** The file `pulumi import --out` writes the code to. */
  importFile: string;
  /** What the user pastes of the code `pulumi import` wrote. */
  paste(generated: string): string;
  /** That code without the `protect` option `pulumi import` wrote. */
  unprotect(code: string): string;
  /** The SDK binds the before-delete hook, so a destroy runs the program (docs/delete-hooks.md). */
  hooks?: true;
  /** Run in the program's directory once its files are written (Go: `go mod tidy`, as a user would). */
  prepare?(dir: string): void;
}

const entriesOf = (p: Program) => Object.entries(p.entries);
const root = path.resolve(__dirname, "../..");

const LANGUAGES: Record<string, () => Language> = {
  // The plugin SDK, for what `pulumi import` writes: the schema names it (`language.nodejs.packageName`).
  typescript: () => ({
    files: (p) => ({
      "Pulumi.yaml": "name: lang-roles\nruntime: nodejs\n",
      "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as grouproles from "pulumi-grouproles/package";

const support = new grouproles.Role("support", {
  groupId: 42,
  name: ${JSON.stringify(p.supportName)},
  description: "First-line support agents",
  settings: { viewVideo: true },
});
const backOffice = new grouproles.GroupRoles("backOffice", {
  groupId: 42,
  roles: {
${entriesOf(p)
  .map(([key, name]) => `    ${JSON.stringify(key)}: { name: ${JSON.stringify(name)} },\n`)
  .join("")}  },
});
export const catalogue = backOffice.roles;
export const visitorPresent = grouproles.getVisitorPresenceOutput({ groupId: 42, visitorId: "visitor-1" }).present;
export const supportId = support.roleId;
export const supportInUse = grouproles.getRoleOutput({ groupId: 42, roleId: support.roleId }).inUse;
${p.imported ?? ""}`,
    }),
    importFile: "imported.ts",
    // The program imports these already.
    paste: (generated) => generated.replace(/^import .*\n/gm, ""),
    unprotect: (code) => code.replace(/, \{\n\s*protect: true,\n\}\)/, ")"),
    hooks: true,
  }),
  yaml: () => ({
    files: (p) => ({
      "Pulumi.yaml": `name: lang-roles
runtime: yaml
resources:
  support:
    type: grouproles:index:Role
    properties:
      groupId: 42
      name: ${p.supportName}
      description: First-line support agents
      settings:
        viewVideo: true
  backOffice:
    type: grouproles:index:GroupRoles
    properties:
      groupId: 42
      roles:
${entriesOf(p)
  .map(([key, name]) => `        ${key}:\n          name: ${name}\n`)
  .join("")}${p.imported ?? ""}variables:
  presence:
    fn::invoke:
      function: grouproles:index:getVisitorPresence
      arguments:
        groupId: 42
        visitorId: visitor-1
  supportLookup:
    fn::invoke:
      function: grouproles:index:getRole
      arguments:
        groupId: 42
        roleId: \${support.roleId}
outputs:
  catalogue: \${backOffice.roles}
  visitorPresent: \${presence.present}
  supportId: \${support.roleId}
  supportInUse: \${supportLookup.inUse}
`,
    }),
    importFile: "imported.yaml",
    paste: (generated) => generated.replace(/^resources:\n/, ""),
    unprotect: (code) => code.replace(/\n\s*options:\n\s*protect: true\n?/, "\n"),
  }),
  python: () => {
    // Built (or found) before the emulator starts: the build blocks this process for seconds.
    const venv = pythonVenv();
    return {
      files: (p) => ({
        "Pulumi.yaml": `name: lang-roles\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
        "__main__.py": `import pulumi
import pulumi_grouproles as grouproles

support = grouproles.Role("support", group_id=42, name=${JSON.stringify(p.supportName)},
    description="First-line support agents", settings={"viewVideo": True})
back_office = grouproles.GroupRoles("backOffice", group_id=42, roles={
${entriesOf(p)
  .map(([key, name]) => `    ${JSON.stringify(key)}: grouproles.GroupRoleEntryArgs(name=${JSON.stringify(name)}),\n`)
  .join("")}})
lookup = grouproles.get_role_output(group_id=42, role_id=support.role_id)
presence = grouproles.get_visitor_presence_output(group_id=42, visitor_id="visitor-1")
pulumi.export("catalogue", back_office.roles)
pulumi.export("visitorPresent", presence.present)
pulumi.export("supportId", support.role_id)
pulumi.export("supportInUse", lookup.in_use)
${p.imported ?? ""}`,
      }),
      importFile: "imported.py",
      paste: (generated) => generated,
      unprotect: (code) => code.replace(/,\s*opts\s*=\s*pulumi\.ResourceOptions\(protect=True\)\)/, ")"),
    };
  },
};

LANGUAGES.go = () => ({
  files: (p) => ({
    "Pulumi.yaml": "name: lang-roles\nruntime: go\n",
    // The generated SDK from this checkout, as sdk/go/README.md says until it is published.
    "go.mod": `module lang-roles

go 1.26

require github.com/pulumi-grouproles/pulumi-grouproles/sdk/go v0.1.0

replace github.com/pulumi-grouproles/pulumi-grouproles/sdk/go => ${path.join(root, "sdk", "go")}
`,
    "main.go": `package main

import (
	"github.com/pulumi-grouproles/pulumi-grouproles/sdk/go/grouproles"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		support, err := grouproles.NewRole(ctx, "support", &grouproles.RoleArgs{
			GroupId:     pulumi.Int(42),
			Name:        pulumi.String(${JSON.stringify(p.supportName)}),
			Description: pulumi.String("First-line support agents"),
			Settings:    pulumi.BoolMap{"viewVideo": pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}
		backOffice, err := grouproles.NewGroupRoles(ctx, "backOffice", &grouproles.GroupRolesArgs{
			GroupId: pulumi.Int(42),
			Roles: grouproles.GroupRoleEntryMap{
${entriesOf(p)
  .map(
    ([key, name]) =>
      `\t\t\t\t${JSON.stringify(key)}: grouproles.GroupRoleEntryArgs{Name: pulumi.String(${JSON.stringify(name)})},\n`,
  )
  .join("")}\t\t\t},
		})
		if err != nil {
			return err
		}
		lookup := grouproles.LookupRoleOutput(ctx, grouproles.LookupRoleOutputArgs{GroupId: pulumi.Int(42), RoleId: support.RoleId.ToIntPtrOutput()})
		presence := grouproles.GetVisitorPresenceOutput(ctx, grouproles.GetVisitorPresenceOutputArgs{GroupId: pulumi.Int(42), VisitorId: pulumi.String("visitor-1")})
		ctx.Export("catalogue", backOffice.Roles)
		ctx.Export("visitorPresent", presence.Present())
		ctx.Export("supportId", support.RoleId)
		ctx.Export("supportInUse", lookup.InUse())
		return imported(ctx)
	})
}

// imported declares what \`pulumi import\` wrote, pasted as the body of a function of its own.
func imported(ctx *pulumi.Context) error {
${p.imported ?? ""}	return nil
}
`,
  }),
  importFile: "imported.go",
  // The statements inside \`pulumi.Run\`, without its final \`return nil\`.
  paste: (generated) => {
    const body = /pulumi\.Run\(func\(ctx \*pulumi\.Context\) error \{\n([\s\S]*?)\t\treturn nil\n\t\}\)/.exec(
      generated,
    );
    if (!body) throw new Error(`no pulumi.Run body in the code pulumi import wrote:\n${generated}`);
    return body[1]!;
  },
  unprotect: (code) => code.replace(/, pulumi\.Protect\(true\)\)/, ")"),
  prepare: (dir) => {
    const tidy = spawnSync("go", ["mod", "tidy"], { cwd: dir, encoding: "utf8" });
    if (tidy.status !== 0) throw new Error(`go mod tidy: ${tidy.stderr}`);
  },
});

describe.runIf(engineKind() === "cli")("programs in other languages, through the real CLI", () => {
  let h: EmulatorHarness;
  let work: string;
  beforeAll(async () => {
    pythonVenv();
    h = await startHarness();
    work = mkdtempSync(path.join(os.tmpdir(), "grouproles-languages-"));
  });
  afterAll(async () => {
    await h?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const names = async (g: number) => new Map((await h.listRoles(g)).map((r) => [r.name, r.roleId]));
  const writes = () => h.writes();
  const failed = (r: EngineResult) => r.errors.join("\n") + r.stderr;

  it.each(Object.keys(LANGUAGES))(
    "%s: creates, previews no change, renames keeping IDs, refuses an in-use entry's removal, imports, destroys",
    async (name) => {
      const lang = LANGUAGES[name]!();
      await h.admin("POST", "/reset");
      const programDir = path.join(work, name, "program");
      const options = (operation: EngineOptions["operation"], p: Program): EngineOptions => {
        rmSync(programDir, { recursive: true, force: true });
        mkdirSync(programDir, { recursive: true });
        for (const [file, text] of Object.entries(lang.files(p))) writeFileSync(path.join(programDir, file), text);
        lang.prepare?.(programDir);
        return {
          operation,
          programDir,
          stack: "dev",
          stateFile: path.join(work, name, "state.json"),
          config: { "grouproles:baseUrl": h.emu.baseUrl, "grouproles:presenceUrl": h.emu.presenceUrl },
          secretConfig: { "grouproles:accessToken": h.emu.token },
        };
      };
      const run = (operation: EngineOptions["operation"], p: Program) => runPulumiCli(options(operation, p));

      const first: Program = { supportName: "Support", entries: { billing: "Billing", audit: "Audit" } };
      const up = await run("up", first);
      expect(up.ok, failed(up)).toBe(true);
      const made = await names(42);
      expect([...made.keys()].sort()).toEqual(["Audit", "Billing", "Support"]);
      // The lookups are invokes the plugin serves; the outputs come from the service.
      expect(up.outputs).toMatchObject({ supportId: made.get("Support"), supportInUse: false, visitorPresent: false });
      expect((up.outputs.catalogue as Record<string, { roleId: number }>).billing!.roleId).toBe(made.get("Billing"));

      const noop = await runPulumiCli({ ...options("preview", first), expectNoChanges: true });
      expect(noop.ok, failed(noop)).toBe(true);

      // A rename of the Role and of an entry: updates that keep each role, its ID and its users.
      const renamed: Program = { supportName: "Support L1", entries: { billing: "Billing EU", audit: "Audit" } };
      const renaming = await run("up", renamed);
      expect(renaming.ok, failed(renaming)).toBe(true);
      // The catalogue's plan shows under the resource (the plugin takes its URN from the request).
      const plan = renaming.diagnostics.find((d) => d.message.startsWith("GroupRoles of group 42"));
      expect(plan?.urn, JSON.stringify(renaming.diagnostics)).toMatch(/::backOffice$/);
      const after = await names(42);
      expect([after.get("Support L1"), after.get("Billing EU")]).toEqual([made.get("Support"), made.get("Billing")]);

      // An entry whose role users hold, removed: refused in the preview, nothing written.
      await h.admin("PUT", `/groups/42/roles/${made.get("Billing")}/users`, { userCount: 2 });
      const before = await writes();
      const removal = await run("preview", { ...renamed, entries: { audit: "Audit" } });
      expect(removal.ok).toBe(false);
      expect(failed(removal)).toContain('roles.billing: "Billing EU"');
      expect(failed(removal)).toContain("is held by 2 users");
      expect(await writes()).toBe(before);

      // `pulumi import` of a role made by hand, and the code it writes in the program's language, which,
      // pasted into the program, previews no change.
      const [hand] = await h.create(43, [{ name: "Hand made", description: "by hand" }]);
      const out = path.join(work, name, lang.importFile);
      const imported = await runPulumiArgs(options("preview", renamed), [
        ...["import", "grouproles:index:Role", "handMade", `43/${hand!.roleId}`],
        ...["--yes", "--skip-preview", "--out", out],
      ]);
      expect(imported.ok, failed(imported)).toBe(true);
      expect(imported.resources.find((r) => r.urn.endsWith("::handMade"))?.id).toBe(`43/${hand!.roleId}`);
      const code = lang.paste(readFileSync(out, "utf8"));
      const withImport = await runPulumiCli({
        ...options("preview", { ...renamed, imported: code }),
        expectNoChanges: true,
      });
      expect(withImport.ok, failed(withImport)).toBe(true);

      // Destroy (with --run-program where the SDK binds the delete hook). First what `pulumi import` says:
      // the `protect` it wrote removed and an `up`; the in-use role's users unassigned.
      const unprotected = lang.unprotect(code);
      expect(unprotected).not.toContain("protect");
      const up2 = await run("up", { ...renamed, imported: unprotected });
      expect(up2.ok, failed(up2)).toBe(true);
      await h.admin("PUT", `/groups/42/roles/${made.get("Billing")}/users`, { userCount: 0 });
      const destroyed = await runPulumiCli({
        ...options("destroy", { ...renamed, imported: unprotected }),
        ...(lang.hooks ? { runProgram: true } : {}),
      });
      expect(destroyed.ok, failed(destroyed)).toBe(true);
      expect((await names(42)).size + (await names(43)).size).toBe(0);
    },
    // On a machine whose Go build cache is empty, the Go program's first build compiles the Go SDK's
    // dependencies: 2 to 3 minutes on 2 cores (docs/languages.md), beyond the suite's 5 minutes with the rest.
    900_000,
  );
});
