/**
 * Installs this package as a user would: `npm pack`, then `npm install` of the tarball into a new,
 * empty project, with the Pulumi SDK of the same version as the repository's (and any other
 * packages given). Shared by the packaged test suites (test/support/pack.ts) and the benchmark.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** The version of `name` installed in the repository at `root`. */
export function installedVersion(root: string, name: string): string {
  const manifest = path.join(root, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** The file `npm pack` makes of the package at `root`: `<name>-<version>.tgz`, a scope's `@` dropped and its `/` a `-`. */
export function tarballName(root: string): string {
  const { name, version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

const PACK_ARGS = (work: string) => ["pack", "--ignore-scripts", "--json", "--pack-destination", work];
const INSTALL_ARGS = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts"];

/** The new project's directory, with its package.json, and what to install into it. */
function prepareProject(root: string, work: string, projectName: string, tarball: string, extra: readonly string[]) {
  const projectDir = path.join(work, projectName);
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(
    path.join(projectDir, "package.json"),
    JSON.stringify({ name: projectName, version: "1.0.0", private: true }),
  );
  const packages = [tarball, `@pulumi/pulumi@${installedVersion(root, "@pulumi/pulumi")}`, ...extra];
  return { projectDir, packages };
}

/** Packs `root` into `work` and installs the tarball into `work/<projectName>`; returns both paths. */
export function installPacked(
  root: string,
  work: string,
  projectName: string,
  extraPackages: readonly string[] = [],
): { tarball: string; projectDir: string } {
  const out = execFileSync("npm", PACK_ARGS(work), { cwd: root, encoding: "utf8" });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const { projectDir, packages } = prepareProject(root, work, projectName, tarball, extraPackages);
  execFileSync("npm", [...INSTALL_ARGS, ...packages], { cwd: projectDir, stdio: ["ignore", "ignore", "inherit"] });
  return { tarball, projectDir };
}

/** `installPacked` without blocking the caller's event loop (npm runs while the caller goes on). */
export async function installPackedAsync(
  root: string,
  work: string,
  projectName: string,
  extraPackages: readonly string[] = [],
): Promise<{ tarball: string; projectDir: string }> {
  const run = (args: string[], cwd: string) =>
    new Promise<string>((resolve, reject) =>
      execFile("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`npm ${args[0]} failed: ${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  const out = await run(PACK_ARGS(work), root);
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const { projectDir, packages } = prepareProject(root, work, projectName, tarball, extraPackages);
  await run([...INSTALL_ARGS, ...packages], projectDir);
  return { tarball, projectDir };
}
