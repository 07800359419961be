import { defineConfig } from "vitest/config";

// The JSON report is what .ci/run counts; the default reporter is what people read.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
