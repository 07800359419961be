/**
 * Global setup of the "packaged" suites only (vitest.config.mts): packs this package with `npm pack`
 * (after ./build) and installs the tarball into an empty temporary project, once per run, as a user
 * would install it. Tests that must exercise the installed package (the serialized
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
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-packed-"));
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: root,
    encoding: "utf8",
  });
  const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
  const projectDir = path.join(work, "project");
  execFileSync("mkdir", ["-p", projectDir]);
  const pulumiVersion = (
    JSON.parse(readFileSync(path.join(root, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }
  ).version;
  const tsVersion = (
    JSON.parse(readFileSync(path.join(root, "node_modules/typescript/package.json"), "utf8")) as { version: string }
  ).version;
  writeFileSync(
    path.join(projectDir, "package.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", private: true }),
  );
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
      `typescript@${tsVersion}`,
      "@types/node@22",
    ],
    { cwd: projectDir, stdio: ["ignore", "ignore", "inherit"] },
  );
  project.provide("installedProject", projectDir);
  project.provide("tarball", tarball);
  return () => rmSync(work, { recursive: true, force: true });
}
