/**
 * Installs the package into a throwaway project, as a user would (`npm pack`, then `npm install` of
 * the tarball), and copies the benchmark program next to it. The program must resolve
 * `pulumi-grouproles`, and the dynamic-provider host must resolve `require("pulumi-grouproles/provider")`
 * from the program's directory; a repository checkout on the module path would not prove either.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Packs `root` and installs it into a new project holding the program of `programSource`. */
export function installProgram(root: string, programSource: string): string {
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-"));
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root, encoding: "utf8" });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const project = path.join(work, "program");
  mkdirSync(project);
  const pulumiVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "grouproles-bench-program", version: "1.0.0", private: true }));
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", tarball, `@pulumi/pulumi@${pulumiVersion}`],
    { cwd: project, stdio: ["ignore", "ignore", "inherit"] },
  );
  for (const file of ["Pulumi.yaml", "index.js"]) copyFileSync(path.join(programSource, file), path.join(project, file));
  return project;
}
