import { defineConfig } from "vitest/config";
import { LongestFirst } from "./vitest.sequencer.mts";

/**
 * `npm run test:cli`: the end-to-end suites through the real Pulumi CLI (E2E_ENGINE=cli, set by
 * scripts/test-cli.js after `npm run cli:install`). Each operation starts the Go CLI, the language host,
 * the program and the provider processes, so fewer workers than `npm test` (2 cores).
 */
export const CLI_SUITES = ["test/e2e/real-cli.test.ts", "test/e2e/quickstart.test.ts"];

export default defineConfig({
  test: {
    include: CLI_SUITES,
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    sequence: { sequencer: LongestFirst },
    globalSetup: ["test/support/build.ts"],
    reporters: ["default", ["json", { outputFile: "test-results/vitest-cli.json" }]],
  },
});
