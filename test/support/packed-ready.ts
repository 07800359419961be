/**
 * Setup file of the packaged suites (vitest.config.mts): before a file's first test, waits for the
 * background install of ./pack.ts to end, and fails the file with npm's error if it failed.
 */
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, inject } from "vitest";
import { waitFor } from "./wait";

beforeAll(async () => {
  const marker = inject("packedMarker");
  // npm install of the tarball and the Pulumi SDK: tens of seconds, far more on a loaded machine.
  await waitFor(() => existsSync(marker), "the packed tarball's install (test/support/pack.ts)", 600_000);
  const outcome = JSON.parse(readFileSync(marker, "utf8")) as { ok: boolean; error?: string };
  if (!outcome.ok) throw new Error(`installing the packed tarball failed: ${outcome.error}`);
}, 660_000);
