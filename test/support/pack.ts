/**
 * Global setup of the "packaged" suites only (vitest.config.mts): packs this package with `npm pack`
 * (after ./build) and installs the tarball into an empty temporary project, once per run, as a user
 * would install it. Tests that must exercise the installed package (the serialized
 * provider's `require("pulumi-grouproles/...")`, entry-point resolution) read its path with
 * `inject("installedProject")`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { installPacked, installedVersion } from "../../tools/install-packed";
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
  const { tarball, projectDir } = installPacked(root, work, "consumer", [
    `typescript@${installedVersion(root, "typescript")}`,
    "@types/node@22",
  ]);
  project.provide("installedProject", projectDir);
  project.provide("tarball", tarball);
  return () => rmSync(work, { recursive: true, force: true });
}
