import { defineConfig } from "vitest/config";

/** Suites that install the packed tarball (`inject("installedProject")`, `inject("tarball")`). */
const PACKAGED = [
  "test/client/package.test.ts",
  "test/e2e/installed-package.test.ts",
  "test/sdk/dynamic-host.test.ts",
  "test/sdk/serialized-provider.test.ts",
];

// Two projects: every suite builds dist/ first; only the packaged ones also pack and install the
// tarball, so running one unit test file never packs. The JSON report is what .ci/run counts; the
// default reporter is what people read.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Concurrent tests (the fault matrix's cells) run up to 8 at a time.
    maxConcurrency: 8,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "suites",
          include: ["test/**/*.test.ts"],
          exclude: PACKAGED,
          globalSetup: ["test/support/build.ts"],
        },
      },
      {
        extends: true,
        test: { name: "packaged", include: PACKAGED, globalSetup: ["test/support/build.ts", "test/support/pack.ts"] },
      },
    ],
  },
});
