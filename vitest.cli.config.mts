import { defineConfig } from "vitest/config";
import { LongestFirst } from "./vitest.sequencer.mts";

/**
 * `npm run test:cli`: the end-to-end suites through the real Pulumi CLI (E2E_ENGINE=cli, set by
 * scripts/test-cli.js after `npm run cli:install`). Each operation starts the Go CLI, the language host,
 * the program and the provider processes, so fewer workers than `npm test` (2 cores).
 */
export const CLI_SUITES = [
  // What only the real CLI runs: the Automation API, `pulumi import`, --target, --exclude, --parallel, ...
  "test/e2e/real-cli.test.ts",
  "test/e2e/demo.test.ts",
  "test/e2e/killed-up.test.ts",
  "test/e2e/other-languages.test.ts",
  "test/e2e/generated-sdks-regen.test.ts",
  "test/e2e/plugin-archive.test.ts",
  // The end-to-end suites, the same files `npm test` runs through the stand-in.
  "test/e2e/quickstart.test.ts",
  "test/e2e/roles-from-file.test.ts",
  "test/e2e/group-catalogue.test.ts",
  "test/e2e/import-existing.test.ts",
  "test/e2e/group-roles.test.ts",
  "test/e2e/group-roles-exclusive.test.ts",
  "test/e2e/renames.test.ts",
  "test/e2e/config-preview.test.ts",
  "test/e2e/credentials.test.ts",
  "test/e2e/token-expiry.test.ts",
  "test/e2e/in-use-advice.test.ts",
  "test/e2e/delete-hooks.test.ts",
  "test/e2e/unlisted-settings.test.ts",
  "test/e2e/changed-keys.test.ts",
  "test/e2e/partial-creates.test.ts",
  "test/e2e/partial-destroy.test.ts",
  "test/e2e/large-partial-update.test.ts",
  "test/e2e/untrusted-replies.test.ts",
  "test/e2e/wrong-url.test.ts",
  "test/e2e/refresh-noop.test.ts",
  "test/e2e/missing-group.test.ts",
  "test/e2e/engine-order-cases.test.ts",
  "test/e2e/group-roles-moves-matrix.test.ts",
  "test/e2e/group-roles-refactors.test.ts",
  "test/e2e/group-roles-moves.test.ts",
  "test/faults/secrets.test.ts",
  "test/faults/fault-engine.test.ts",
];

/** The suite that installs the packed tarball (explicit providers of the resource plugin, from an install). */
const PACKAGED = ["test/e2e/package.test.ts"];

export default defineConfig({
  test: {
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    sequence: { sequencer: LongestFirst },
    reporters: ["default", ["json", { outputFile: "test-results/vitest-cli.json" }]],
    projects: [
      { extends: true, test: { name: "cli", include: CLI_SUITES, globalSetup: ["test/support/build.ts"] } },
      {
        extends: true,
        test: {
          name: "cli-packaged",
          include: PACKAGED,
          globalSetup: ["test/support/build.ts", "test/support/pack.ts"],
          setupFiles: ["test/support/packed-ready.ts"],
        },
      },
    ],
  },
});
