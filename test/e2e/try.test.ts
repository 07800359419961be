/**
 * `npm run try -- <program-dir> [op]`: programs written from the README, in directories outside the
 * repository with no node_modules of their own, run through the local trial: what it reports (plans
 * with values, outputs a preview knows, errors alone) and what the emulator (its state file in the
 * program's `.grouproles-try/`, or a second emulator for an explicit provider) holds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { tryProgram } from "../../tools/try";
import { withoutTraces } from "../../tools/try/report";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A Pulumi project in a new directory outside the repository. */
function project(name: string): { dir: string; program: (text: string) => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `grouproles-try-${name}-`));
  dirs.push(dir);
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  return { dir, program: (text) => writeFileSync(path.join(dir, "index.ts"), text) };
}

async function trial(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await tryProgram([dir, ...args], (l) => lines.push(l));
  return { code, out: lines.join("\n") };
}

/** The trial's service as its emulator left it: roles by group (the emulator's `--state-file`). */
function service(dir: string): Record<string, Array<{ roleId: number; name: string; userCount: number }>> {
  return JSON.parse(readFileSync(path.join(dir, ".grouproles-try", "service.json"), "utf8")).groups;
}

/** The lines of one section of a report, from its heading to the next line that starts a section. */
function section(out: string, heading: string, from = 0): string {
  const start = out.indexOf(`\n${heading}`, from);
  if (start < 0) return "";
  const rest = out.slice(start + 1).split("\n");
  const end = rest.findIndex((l, i) => i > 0 && /^\S/.test(l));
  return rest.slice(0, end < 0 ? undefined : end).join("\n");
}

const catalogueProgram = (admins: string, roles: string) =>
  `import * as pulumi from "@pulumi/pulumi";\n` +
  `import { GroupRoles, Role } from "pulumi-grouproles";\n` +
  `const admins = new Role("admins", { groupId: 42, name: "Admins", ${admins} });\n` +
  `const catalogue = new GroupRoles("catalogue", { groupId: 42, roles: ${roles} });\n` +
  `export const adminId = admins.roleId;\n` +
  `export const ids = catalogue.roles.apply((r) => Object.values(r).map((e) => e.roleId));\n`;

describe("npm run try", () => {
  it("plans with values; up previews first; outputs the preview knows; a failed preview stops the up", {
    timeout: 240_000,
  }, async () => {
    const { dir, program } = project("my-roles");
    program(
      catalogueProgram(
        `description: pulumi.secret("first"), settings: { remoteAssist: true }`,
        `{ billing: { name: "Billing" }, sales: { name: "Sales", settings: { chat: true } } }`,
      ),
    );
    // Straight to the update: it shows what each create sets, a secret as [secret].
    const up = await trial(dir, "up", "--skip-preview");
    expect(up.code).toBe(0);
    expect(up.out).toContain("LOCAL TRIAL");
    expect(up.out).not.toContain("Previewing");
    expect(up.out).toContain("Updating (try):\n+ create  pulumi:pulumi:Stack my-roles-try");
    expect(up.out).toMatch(/\+ create {2}Role admins\n {4}description: \[secret\]\n {4}groupId {4}: 42\n/);
    expect(up.out).toMatch(/\n {8}sales {2}: \{\n {12}name {4}: "Sales"\n/);
    expect(up.out).toContain("Resources:\n    + 3 created");
    expect(up.out).toMatch(/The emulator holds, group 42: \d+ roles?: (Billing|Sales|Admins) \(\d+\)/);
    const ids = Object.fromEntries(service(dir)["42"]!.map((r) => [r.name, r.roleId]));

    program(
      catalogueProgram(
        `description: pulumi.secret("second"), settings: { remoteAssist: false }`,
        `{ invoices: { name: "Billing" }, sales: { name: "Sales team", settings: { chat: false } } }`,
      ),
    );
    const change = await trial(dir, "up");
    expect(change.code).toBe(0);
    const [planned, applied] = change.out.split("Updating (try):") as [string, string];
    // Each changed property old => new, nested where it is nested, a secret never shown.
    expect(planned).toContain(
      "~ update  Role admins [description, settings]\n" +
        "  ~ description: [secret] => [secret]\n" +
        "  ~ settings   : {\n" +
        "      ~ remoteAssist: true => false\n" +
        "    }\n",
    );
    expect(planned).toMatch(/\n {6}~ sales {3}: \{\n {10}~ name {4}: "Sales" => "Sales team"\n/);
    expect(planned).toMatch(/\n {14}~ chat: true => false\n/);
    expect(planned).toContain(
      `roles.invoices (was roles.billing): "Billing", the same role (roleId ${ids["Billing"]}), kept under its new key`,
    );
    expect(planned).not.toMatch(/"first"|"second"/);
    // Outputs that do not change are known in the preview: their values, the ones the update gives.
    const previewOutputs = section(planned, "Outputs:");
    expect(previewOutputs).toContain(`\n    adminId: ${ids["Admins"]}\n`);
    expect(previewOutputs).toContain(`[0]: ${ids["Billing"]}`);
    expect(previewOutputs).not.toMatch(/unknown|null|\{\}/);
    expect(previewOutputs).toBe(section(applied, "Outputs:"));
    expect(applied).toContain("Resources:\n    ~ 2 updated\n    1 unchanged");
    expect(service(dir)["42"]!.map((r) => [r.name, r.roleId])).toEqual(
      expect.arrayContaining([
        ["Billing", ids["Billing"]],
        ["Sales team", ids["Sales"]],
        ["Admins", ids["Admins"]],
      ]),
    );

    // A failed preview stops the up; its error shows the value that failed, and no plan summary.
    program(
      catalogueProgram(
        `settings: { remoteAsist: false }`,
        `{ invoices: { name: "Billing" }, sales: { name: "Sales" } }`,
      ),
    );
    const before = service(dir);
    const failed = await trial(dir, "up");
    expect(failed.code).toBe(1);
    expect(failed.out).toContain(
      `error: Role admins: Role resource 'admins': property settings.remoteAsist value {<nil>} has a problem: ` +
        `unknown setting "remoteAsist": did you mean "remoteAssist"?`,
    );
    expect(failed.out).toContain("The preview failed, so the update did not run");
    expect(failed.out).not.toMatch(/Updating|Resources:|no changes/);
    expect(service(dir)).toEqual(before);

    const destroy = await trial(dir, "destroy");
    expect(destroy.code).toBe(0);
    expect(destroy.out).toContain("- delete  GroupRoles catalogue");
    expect(service(dir)["42"] ?? []).toEqual([]);
  });

  it("users makes a role in use; up stops on the preview that refuses a move, --skip-preview does not", {
    timeout: 240_000,
  }, async () => {
    const { dir, program } = project("moves");
    // The receiver is declared after the catalogue that lets the role go: the wrong order
    // (docs/group-roles.md, "Moving a role between resources in one up").
    const moves = (giverRoles: string, receiverRoles: string) =>
      program(
        `import { GroupRoles, Role } from "pulumi-grouproles";\n` +
          `new Role("elsewhere", { groupId: 7, name: "Sales" });\n` +
          `new GroupRoles("giver", { groupId: 42, roles: ${giverRoles} });\n` +
          `new GroupRoles("receiver", { groupId: 42, adoptExisting: true, roles: ${receiverRoles} });\n`,
      );
    moves(`{ sales: { name: "Sales" }, ops: { name: "Ops" } }`, `{ it: { name: "IT" } }`);
    expect((await trial(dir, "up", "--skip-preview")).code).toBe(0);
    const sales = () => service(dir)["42"]!.find((r) => r.name === "Sales");
    const salesId = sales()!.roleId;

    const ambiguous = await trial(dir, "users", "Sales", "2");
    expect(ambiguous).toEqual({
      code: 1,
      out: 'users: a role named "Sales" is in groups 7, 42: say which with --group (e.g. --group 7)',
    });
    const users = await trial(dir, "users", "Sales", "2", "--group", "42");
    expect(users.code).toBe(0);
    expect(users.out).toContain(`Role "Sales" (group 42, roleId ${salesId}) now has 2 users (in use; it had 0).`);
    expect(sales()).toMatchObject({ roleId: salesId, userCount: 2 });

    moves(`{ ops: { name: "Ops" } }`, `{ it: { name: "IT" }, sales: { name: "Sales" } }`);
    const stopped = await trial(dir, "up");
    expect(stopped.code).toBe(1);
    // The engine reports the first refusal it meets and looks at no later registration: the giver's (its
    // role is in use) or the receiver's (the order), whichever registers first.
    expect(stopped.out).toMatch(
      new RegExp(
        `roles\\.sales: "Sales" \\(roleId ${salesId}\\) is held by 2 users|which deletes it in its own update|give this resource the resource option \`dependsOn\``,
      ),
    );
    expect(stopped.out).toContain("The preview failed, so the update did not run");
    expect(stopped.out).not.toContain("Updating (try):");
    expect(sales()).toMatchObject({ roleId: salesId, userCount: 2 });

    // Without users and without the preview, the catalogue that lets the role go deletes it before the
    // receiver refuses: the role, its ID, is gone (the next up makes a new one).
    await trial(dir, "users", "Sales", "0", "--group", "42");
    const skipped = await trial(dir, "up", "--skip-preview");
    expect(skipped.code).toBe(1);
    expect(skipped.out).not.toContain("Previewing");
    expect(skipped.out).toContain("~ update  GroupRoles giver [roles]");
    expect(skipped.out).toMatch(
      /which deletes it in its own update|give this resource the resource option `dependsOn`/,
    );
    expect(sales()).toBeUndefined();
  });

  it("with the plugin SDK, a preview after the first up changes nothing: the emulator keeps its addresses", {
    timeout: 120_000,
  }, async () => {
    const { dir, program } = project("plugin-sdk");
    // The default provider records the service's addresses (presence included) in state at the first up.
    program(`import { Role } from "pulumi-grouproles/package";\n` + `new Role("ops", { groupId: 42, name: "Ops" });\n`);
    expect((await trial(dir, "up", "--skip-preview")).code).toBe(0);
    const again = await trial(dir, "preview", "--expect-no-changes");
    expect(again.out).not.toMatch(/presenceUrl|error:/);
    expect(again.code).toBe(0);
  });

  it("errors alone: no credential in the line, no stack-config hint, no stack trace; an explicit provider's service is its own", {
    timeout: 120_000,
  }, async () => {
    const { dir, program } = project("providers");
    const token = "s3cr3t-token-value";
    program(
      `import * as pulumi from "@pulumi/pulumi";\n` +
        `import { Provider, Role, getRoles } from "pulumi-grouproles/package";\n` +
        `const cfg = new pulumi.Config("trial");\n` +
        // A mistyped key is not one the Provider marks secret: the token travels as plain text.
        `const site = new Provider("site", { baseUrl: cfg.require("url"), [cfg.get("key") ?? "accessToken"]: cfg.require("token") });\n` +
        `new Role("remote", { groupId: 42, name: "Remote" }, { provider: site });\n` +
        `export const listed = cfg.getBoolean("list") ? getRoles({ groupId: 42 }).then((r) => r.roles.length) : 0;\n`,
    );
    const other = await startEmulator();
    try {
      const typo = await trial(
        dir,
        "preview",
        ...["--config", `trial:url=${other.baseUrl}`, "--config", "trial:key=accesToken"],
        ...[
          "--config",
          `trial:token=${token}`,
          "--config",
          "trial:list=true",
          "--secret",
          `grouproles:accesToken=${token}`,
        ],
      );
      expect(typo.code).toBe(1);
      expect(typo.out).not.toContain(token);
      // One error, as the real CLI prints it: the first provider the engine checks fails the deployment, and
      // no other registration is looked at (the explicit `site`, or the default one the `getRoles` call
      // needs, whichever reaches the engine first); a refused registration ends the deployment without the
      // engine's "preview failed" line. No property named: a plugin's failure about a credential key names
      // none (the engine would print its value).
      const errors = typo.out.split("\n").filter((l) => l.startsWith("error:"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^error: pulumi:providers:grouproles (site|default_0_1_0): pulumi:providers:grouproles resource '(site|default_0_1_0)' has a problem: unknown provider setting "accesToken"; did you mean "accessToken"\?/,
      );
      expect(typo.out).not.toMatch(
        /pulumi config set|no credentials|^\s+at |UNAVAILABLE|Program output|unhandled exception/m,
      );

      const up = await trial(
        dir,
        "up",
        "--skip-preview",
        ...["--config", `trial:url=${other.baseUrl}`, "--config", `trial:token=${other.token}`],
      );
      expect(up.code).toBe(0);
      expect(up.out).not.toContain("The emulator holds");
      expect(up.out).toContain(
        `Not on the trial's emulator: grouproles:index:Role remote (their provider's baseUrl is ${other.baseUrl})`,
      );
      const held = (await (
        await fetch(`${other.baseUrl}/api/v0/groups/42/roles`, { headers: { authorization: `Bearer ${other.token}` } })
      ).json()) as Array<{ name: string }>;
      expect(held.map((r) => r.name)).toEqual(["Remote"]);
      expect(service(dir)["42"] ?? []).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("an error keeps its message and the frames in the program, not Node's stack or gRPC's dump", () => {
    const dir = "/home/me/roles";
    const error =
      "error: Running program '/home/me/roles/' failed with an unhandled exception:\n" +
      "\u001b[36m<ref *1>\u001b[39m Error: boom\n" +
      "    at Object.<anonymous> \u001b[90m(/home/me/roles/\u001b[39mindex.ts:3:7\u001b[90m)\u001b[39m\n" +
      "\u001b[90m    at Module._compile (node:internal/modules/cjs/loader:1781:14)\u001b[39m\n" +
      "    at Object.onReceiveStatus (/home/me/roles/node_modules/@grpc/grpc-js/src/client.ts:360:26)\n" +
      "for call at\n" +
      "    at ServiceClientImpl.makeUnaryRequest (/x/node_modules/@grpc/grpc-js/src/client.ts:325:42) {\n" +
      "  code: \u001b[33m14\u001b[39m,\n" +
      "  details: 'Channel closed before call started',\n" +
      "  metadata: Metadata { internalRepr: Map(0) {}, options: {} },\n" +
      "  promise: Promise { <rejected> [Circular *1] }\n" +
      "}";
    expect(withoutTraces(error, dir)).toBe(
      "error: Running program '/home/me/roles/' failed with an unhandled exception:\n" +
        "<ref *1> Error: boom\n" +
        "    at Object.<anonymous> (/home/me/roles/index.ts:3:7)",
    );
  });

  it("says how to call it when the directory is not a Pulumi project", async () => {
    const lines: string[] = [];
    expect(await tryProgram([os.tmpdir(), "up"], (l) => lines.push(l))).toBe(2);
    expect(lines.join("\n")).toContain("has no Pulumi.yaml");
  });
});
