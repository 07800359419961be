/**
 * Installs this package as a user would: `npm pack`, then `npm install` of the tarball into a new,
 * empty project, with the Pulumi SDK of the same version as the repository's (and any other
 * packages given). Shared by the packaged test suites (test/support/pack.ts) and the benchmark.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** The version of `name` installed in the repository at `root`. */
export function installedVersion(root: string, name: string): string {
  const manifest = path.join(root, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** Packs `root` into `work` and installs the tarball into `work/<projectName>`; returns both paths. */
export function installPacked(
  root: string,
  work: string,
  projectName: string,
  extraPackages: readonly string[] = [],
): { tarball: string; projectDir: string } {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: root,
    encoding: "utf8",
  });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const projectDir = path.join(work, projectName);
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(
    path.join(projectDir, "package.json"),
    JSON.stringify({ name: projectName, version: "1.0.0", private: true }),
  );
  const packages = [tarball, `@pulumi/pulumi@${installedVersion(root, "@pulumi/pulumi")}`, ...extraPackages];
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...packages], {
    cwd: projectDir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { tarball, projectDir };
}
