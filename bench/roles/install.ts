/**
 * Installs the package into a throwaway project, as a user would (`npm pack`, then `npm install` of
 * the tarball), and copies each benchmark program into a directory of its own inside it. A program
 * must resolve `pulumi-grouproles`, and the dynamic-provider host must resolve the serialized
 * provider's `require("pulumi-grouproles/...")` from the program's directory (node walks up to the
 * project's node_modules); a repository checkout on the module path would not prove either.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Packs `root`, installs it into a new project and copies each program there; returns their directories. */
export function installPrograms(root: string, programSources: readonly string[]): string[] {
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-"));
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: root,
    encoding: "utf8",
  });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const project = path.join(work, "program");
  mkdirSync(project);
  const pulumiPackage = path.join(root, "node_modules/@pulumi/pulumi/package.json");
  const pulumiVersion = (JSON.parse(readFileSync(pulumiPackage, "utf8")) as { version: string }).version;
  const manifest = { name: "grouproles-bench-program", version: "1.0.0", private: true };
  writeFileSync(path.join(project, "package.json"), JSON.stringify(manifest));
  execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--ignore-scripts",
      tarball,
      `@pulumi/pulumi@${pulumiVersion}`,
    ],
    { cwd: project, stdio: ["ignore", "ignore", "inherit"] },
  );
  return programSources.map((source) => {
    const dir = path.join(project, path.basename(source));
    mkdirSync(dir);
    for (const file of ["Pulumi.yaml", "index.js"]) copyFileSync(path.join(source, file), path.join(dir, file));
    return dir;
  });
}
