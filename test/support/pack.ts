/**
 * Global setup of the "packaged" suites only (vitest.config.mts): packs this package with `npm pack`
 * (after ./build) and installs the tarball into an empty temporary project, once per run, as a user
 * would install it. Tests that must exercise the installed package (the serialized
 * provider's `require("pulumi-grouproles/...")`, entry-point resolution) read its path with
 * `inject("installedProject")`.
 *
 * The install runs in the background (npm takes tens of seconds, most of them on one core), so that
 * every other suite starts at once: a packaged suite waits for it before its first test
 * (./packed-ready.ts, a setup file of the packaged suites), which finds the outcome in the file
 * `inject("packedMarker")` names.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { installPackedAsync, installedVersion, tarballName } from "../../tools/install-packed";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };

declare module "vitest" {
  export interface ProvidedContext {
    installedProject: string;
    tarball: string;
    /** Written when the install has ended: `{ ok: true }`, or `{ ok: false, error }`. */
    packedMarker: string;
  }
}

const root = path.resolve(__dirname, "../..");

export default function setup(project: TestProject): () => Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-packed-"));
  const projectDir = path.join(work, "consumer");
  const tarball = path.join(work, tarballName(root));
  const marker = path.join(work, "packed.json");
  const record = (outcome: { ok: true } | { ok: false; error: string }) => {
    writeFileSync(`${marker}.tmp`, JSON.stringify(outcome));
    renameSync(`${marker}.tmp`, marker);
  };
  const installed = installPackedAsync(root, work, "consumer", [
    `typescript@${installedVersion(root, "typescript")}`,
    "@types/node@22",
  ]).then(
    (r) =>
      record(
        r.projectDir === projectDir && r.tarball === tarball
          ? { ok: true }
          : { ok: false, error: `npm made ${r.tarball} and ${r.projectDir}, not ${tarball} and ${projectDir}` },
      ),
    (error: unknown) => record({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  project.provide("installedProject", projectDir);
  project.provide("tarball", tarball);
  project.provide("packedMarker", marker);
  return async () => {
    await installed;
    rmSync(work, { recursive: true, force: true });
  };
}
