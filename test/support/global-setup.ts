/**
 * Packs this package with `npm pack` and installs the tarball into an empty temporary project, once per
 * test run, as a user would install it. Tests that must exercise the installed package (the serialized
 * provider's `require("pulumi-grouproles/...")`, entry-point resolution) read its path with
 * `inject("installedProject")`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };

declare module "vitest" {
  export interface ProvidedContext {
    installedProject: string;
    tarball: string;
  }
}

const root = path.resolve(__dirname, "../..");

export default function setup(project: TestProject): () => void {
  // Always (re)build: engine, e2e, SDK and secrets tests load dist/, and a single test file run after an
  // edit must not test stale code. Build mode with the tsbuildinfo in dist/ makes a no-op build take ~1 s.
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.json"], { cwd: root, stdio: "inherit" });
  // Programs run from this checkout need node_modules/pulumi-grouproles (see scripts/link-self.js).
  execFileSync(process.execPath, [path.join(root, "scripts/link-self.js")]);
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-packed-"));
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root, encoding: "utf8" });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const projectDir = path.join(work, "project");
  execFileSync("mkdir", ["-p", projectDir]);
  const pulumiVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
  const tsVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/typescript/package.json"), "utf8")) as { version: string }).version;
  writeFileSync(path.join(projectDir, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", tarball, `@pulumi/pulumi@${pulumiVersion}`, `typescript@${tsVersion}`, "@types/node@22"],
    { cwd: projectDir, stdio: ["ignore", "ignore", "inherit"] },
  );
  project.provide("installedProject", projectDir);
  project.provide("tarball", tarball);
  return () => rmSync(work, { recursive: true, force: true });
}
