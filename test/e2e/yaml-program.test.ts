/**
 * A Pulumi YAML program declares roles through the resource plugin (issue 54): the real CLI, the real
 * YAML language host (`pulumi-language-yaml`, built from its Go module by `npm run cli:install`), the
 * plugin found on the PATH, the emulator. CLI-only: the stand-in runs Node programs alone. Outcomes are
 * read from the service (its roles, its request log) and from the state the CLI exports.
 *
 * A YAML program binds no before-delete hook (YAML has no way to register one), so a `Role` removed while
 * users hold its role previews green and its `up` fails at the plugin's Delete, which refuses it with
 * nothing deleted (docs/package.md "Programs in other languages"); an in-use entry of a `GroupRoles` is
 * refused in the preview, as in every language (the plugin's Diff sees it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineOptions, EngineResult } from "../../tools/engine";
import { runPulumiArgs, runPulumiCli } from "../../tools/pulumi-cli/run";
import { type EmulatorHarness, startHarness } from "../support/emulator";
import { engineKind } from "./harness";

interface Program {
  supportName?: string;
  /** The catalogue's entries, key to name. */
  entries?: Record<string, string>;
  /** Declare the Role `support` (and the lookup of its ID). */
  support?: boolean;
  /** Extra `resources:` lines, as `pulumi import` writes them. */
  extra?: string;
}

/** The YAML program: a Role, a GroupRoles, a role lookup and a presence lookup as outputs. */
function yaml(p: Program): string {
  const { supportName = "Support", entries = { billing: "Billing", audit: "Audit" }, support = true } = p;
  const roles = Object.entries(entries)
    .map(([key, name]) => `        ${key}:\n          name: ${name}\n`)
    .join("");
  return `name: yaml-roles
runtime: yaml
resources:
${
  support
    ? `  support:
    type: grouproles:index:Role
    properties:
      groupId: 42
      name: ${supportName}
      description: First-line support agents
      settings:
        viewVideo: true
`
    : ""
}  backOffice:
    type: grouproles:index:GroupRoles
    properties:
      groupId: 42
      roles:
${roles}${p.extra ?? ""}variables:
  presence:
    fn::invoke:
      function: grouproles:index:getVisitorPresence
      arguments:
        groupId: 42
        visitorId: visitor-1
${
  support
    ? `  supportLookup:
    fn::invoke:
      function: grouproles:index:getRole
      arguments:
        groupId: 42
        roleId: \${support.roleId}
`
    : ""
}outputs:
  catalogue: \${backOffice.roles}
  visitorPresent: \${presence.present}
${support ? `  supportId: \${support.roleId}\n  supportInUse: \${supportLookup.inUse}\n` : ""}`;
}

describe.runIf(engineKind() === "cli")("a YAML program, through the real CLI and YAML language host", () => {
  let h: EmulatorHarness;
  let work: string;
  let programDir: string;
  let stateFile: string;

  beforeAll(async () => {
    h = await startHarness();
    work = mkdtempSync(path.join(os.tmpdir(), "grouproles-yaml-"));
    programDir = path.join(work, "program");
    stateFile = path.join(work, "state.json");
  });
  afterAll(async () => {
    await h?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const options = (operation: EngineOptions["operation"], p: Program): EngineOptions => {
    rmSync(programDir, { recursive: true, force: true });
    mkdirSync(programDir, { recursive: true });
    writeFileSync(path.join(programDir, "Pulumi.yaml"), yaml(p));
    return {
      operation,
      programDir,
      stack: "dev",
      stateFile,
      config: { "grouproles:baseUrl": h.emu.baseUrl, "grouproles:presenceUrl": h.emu.presenceUrl },
      secretConfig: { "grouproles:accessToken": h.emu.token },
    };
  };
  const run = (operation: EngineOptions["operation"], p: Program = {}) => runPulumiCli(options(operation, p));
  const failed = (r: EngineResult) => r.errors.join("\n") + r.stderr;
  const names = async (g: number) => new Map((await h.listRoles(g)).map((r) => [r.name, r.roleId]));
  const writes = async () =>
    Object.entries((await h.requests()).counts)
      .filter(([route]) => !route.startsWith("GET "))
      .reduce((n, [, count]) => n + count, 0);

  it("creates, previews no change, renames keeping IDs, refuses an in-use entry's removal, imports, destroys", async () => {
    const up = await run("up");
    expect(up.ok, failed(up)).toBe(true);
    const made = await names(42);
    expect([...made.keys()].sort()).toEqual(["Audit", "Billing", "Support"]);
    // The lookups are invokes the plugin serves; the outputs come from the service.
    expect(up.outputs).toMatchObject({ supportId: made.get("Support"), supportInUse: false, visitorPresent: false });
    expect((up.outputs.catalogue as Record<string, { roleId: number }>).billing!.roleId).toBe(made.get("Billing"));

    const noop = await runPulumiCli({ ...options("preview", {}), expectNoChanges: true });
    expect(noop.ok, failed(noop)).toBe(true);

    // A rename of the Role and of an entry: updates that keep each role, its ID and its users.
    const renamed: Program = { supportName: "Support L1", entries: { billing: "Billing EU", audit: "Audit" } };
    const renaming = await run("up", renamed);
    expect(renaming.ok, failed(renaming)).toBe(true);
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

    // `pulumi import` of a role made by hand, then the code it writes in YAML: no change after.
    const [hand] = await h.create(43, [{ name: "Hand made", description: "by hand" }]);
    const out = path.join(work, "imported.yaml");
    const imported = await runPulumiArgs(options("preview", renamed), [
      ...["import", "grouproles:index:Role", "handMade", `43/${hand!.roleId}`],
      ...["--yes", "--skip-preview", "--out", out],
    ]);
    expect(imported.ok, failed(imported)).toBe(true);
    expect(imported.resources.find((r) => r.urn.endsWith("::handMade"))?.id).toBe(`43/${hand!.roleId}`);
    // The generated code, as a user pastes it under `resources:`.
    const generated = readFileSync(out, "utf8");
    expect(generated).toContain("type: grouproles:Role");
    const code = generated.replace(/^resources:\n/, "");
    const withImport = await runPulumiCli({
      ...options("preview", { ...renamed, extra: code }),
      expectNoChanges: true,
    });
    expect(withImport.ok, failed(withImport)).toBe(true);

    // Destroy: YAML binds no delete hook, so it needs no --run-program. First what `pulumi import` says:
    // the `protect` it wrote removed and an `up`; the in-use role's users unassigned.
    const unprotected = code.replace(/\n\s*options:\n\s*protect: true\n?/, "\n");
    expect(unprotected).not.toContain("protect");
    const up2 = await run("up", { ...renamed, extra: unprotected });
    expect(up2.ok, failed(up2)).toBe(true);
    await h.admin("PUT", `/groups/42/roles/${made.get("Billing")}/users`, { userCount: 0 });
    const destroyed = await run("destroy", { ...renamed, extra: unprotected });
    expect(destroyed.ok, failed(destroyed)).toBe(true);
    expect((await names(42)).size + (await names(43)).size).toBe(0);
  });
});
