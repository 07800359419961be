import { defineConfig } from "vitest/config";

// The suites a mutation run (npm run mutation, stryker.config.mjs) executes against each mutant: the client,
// provider, bad-input and in-process emulator suites, which call the sources directly against an emulator on loopback.
// No global setup (it builds and packs dist/, which mutants never reach), no engine or e2e suites (minutes each).
// The client part is judged by the client's own suites: every provider and emulator suite also calls the
// client, so with them each client mutant (the transport's above all) reran most of the 900 fast tests:
// 20 minutes into the run of 2026-11-25, Stryker estimated three more hours on 2 cores. (client-core, a
// quarter of the client, keeps every suite.)
const CLIENT_ONLY = process.env.MUTATION_PART === "client";

export default defineConfig({
  test: {
    include: CLIENT_ONLY
      ? ["test/client/**/*.test.ts", "test/faults/bad-input.test.ts"]
      : [
          "test/client/**/*.test.ts",
          "test/provider/**/*.test.ts",
          "test/faults/bad-input.test.ts",
          // The emulator part: its suites that run in-process (no CLI child, no load run).
          "test/emulator/**/*.test.ts",
        ],
    // package.test.ts needs the packed dist/; timeouts.test.ts waits out real timers (4 s), as do two tests of
    // role-faults.test.ts, which MUTATION_RUN skips (6 s). Each surviving mutant reruns every test covering it.
    exclude: [
      "test/client/package.test.ts",
      "test/client/public-api.test.ts",
      "test/client/timeouts.test.ts",
      "test/client/errors-across-copies.test.ts",
      "test/emulator/cli.test.ts",
      "test/emulator/load.test.ts",
      "test/emulator/persistence.test.ts",
    ],
    env: { MUTATION_RUN: "1" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
