/**
 * `npm run try -- <program-dir> [op]`: a program written from the README, in a directory outside the
 * repository with no node_modules of its own, previewed, applied, changed (a key renamed, a name
 * changed, an entry added) and destroyed through the local trial; what it reports and what the
 * emulator (its state file in the program's `.grouproles-try/`) holds.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tryProgram } from "../../tools/try";

const dir = mkdtempSync(path.join(os.tmpdir(), "grouproles-try-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const program = (roles: string) =>
  writeFileSync(
    path.join(dir, "index.ts"),
    `import { GroupRoles } from "pulumi-grouproles";\n` +
      `const catalogue = new GroupRoles("catalogue", { groupId: 42, roles: ${roles} });\n` +
      `export const ids = catalogue.roles.apply((r) => Object.values(r).map((e) => e.roleId));\n`,
  );

async function trial(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await tryProgram([dir, ...args], (l) => lines.push(l));
  return { code, out: lines.join("\n") };
}

describe("npm run try", () => {
  it("previews, applies, changes and destroys a program outside the repository", async () => {
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: my-roles\nruntime: nodejs\n");
    program(`{ billing: { name: "Billing" }, sales: { name: "Sales" } }`);
    const preview = await trial("preview");
    expect(preview.code).toBe(0);
    expect(preview.out).toContain("LOCAL TRIAL");
    expect(preview.out).toContain("+ create  GroupRoles catalogue");
    const up = await trial("up");
    expect(up.out).toMatch(/The emulator holds, group 42: Billing \(\d+\), Sales \(\d+\)/);
    program(`{ invoices: { name: "Billing" }, sales: { name: "Sales team" }, trainees: { name: "Trainees" } }`);
    const change = await trial("up");
    expect(change.code).toBe(0);
    expect(change.out).toContain('> roles.invoices (was roles.billing): "Billing", the same role');
    expect(change.out).toContain('~ roles.sales: "Sales" -> "Sales team"');
    expect(change.out).toContain('+ roles.trainees: "Trainees"');
    expect(change.out).toMatch(/group 42: Billing \(\d+\), Sales team \(\d+\), Trainees \(\d+\)/);
    // A failed up shows what the service holds too.
    program(`{ invoices: { name: "Billing" }, sales: { name: "${"S".repeat(71)}" } }`);
    const failed = await trial("up");
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("Failed in");
    expect(failed.out).toMatch(/group 42: Billing \(\d+\), Sales team \(\d+\), Trainees \(\d+\)/);
    const destroy = await trial("destroy");
    expect(destroy.code).toBe(0);
    expect(destroy.out).toContain("- delete  GroupRoles catalogue");
  });

  it("says how to call it when the directory is not a Pulumi project", async () => {
    const lines: string[] = [];
    expect(await tryProgram([os.tmpdir(), "up"], (l) => lines.push(l))).toBe(2);
    expect(lines.join("\n")).toContain("has no Pulumi.yaml");
  });
});
