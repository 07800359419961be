import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./vitest.sequencer.mts";

/** Suites that install the packed tarball (`inject("installedProject")`, `inject("tarball")`). */
const PACKAGED = [
  "test/client/package.test.ts",
  "test/e2e/installed-package.test.ts",
  "test/e2e/package.test.ts",
  "test/sdk/dynamic-host.test.ts",
  "test/sdk/serialized-provider.test.ts",
];

/** Suites of what only the real Pulumi CLI does: `npm run test:cli` runs them (vitest.cli.config.mts). */
const CLI_ONLY = [
  "test/e2e/real-cli.test.ts",
  "test/e2e/demo.test.ts",
  "test/e2e/killed-up.test.ts",
  "test/e2e/other-languages.test.ts",
  "test/e2e/generated-sdks-regen.test.ts",
  "test/e2e/plugin-archive.test.ts",
];

// Most suites spend their time in child processes (the provider host started for every engine
// operation, the program's process for those run through `cmd/run`) and in waits on them (retry
// backoffs, the wait for registrations to stop), so one worker per core (vitest's default on 2 cores is
// 1) leaves the cores idle: two more workers than cores (measured on 2 cores: 3 workers 361 s, 4
// workers 323 s for the whole run; docs/development.md).
const WORKERS = availableParallelism() + 2;
// Node's compile cache, inherited by the workers and every process they start (provider hosts, which
// the stand-in kills, write it through tools/engine/flush-compile-cache.js), saves about a third of a
// provider host's start (1.3 s to 0.8 s of CPU, 2026-11-28). Only the tests and the simulation set it:
// the bench measures starts as a user's `pulumi up` pays them.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "pulumi-grouproles-node-compile-cache");

// Two projects: every suite builds dist/ first; only the packaged ones also pack and install the
// tarball, so running one unit test file never packs. Their files run in one queue, longest first
// (vitest.sequencer.mts), while the install goes on in the background (test/support/pack.ts). The
// JSON report is what .ci/run counts; the default reporter is what people read.
export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // Engine operations are CPU-bound: on a 2-core machine shared with other work a test of a few
    // operations has taken over a minute (2026-11-28, load 15 to 22). A bound, not a measure of speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Concurrent tests (the fault matrix's cells) run up to 8 at a time.
    maxConcurrency: 8,
    // Longest files first, by test/durations.json: a fresh clone has no cached durations.
    sequence: { sequencer: LongestFirst },
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "suites",
          include: ["test/**/*.test.ts"],
          exclude: [...PACKAGED, ...CLI_ONLY],
          globalSetup: ["test/support/build.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "packaged",
          include: PACKAGED,
          globalSetup: ["test/support/build.ts", "test/support/pack.ts"],
          // The install pack.ts starts runs in the background; each packaged file waits for it here.
          setupFiles: ["test/support/packed-ready.ts"],
        },
      },
    ],
  },
});
