#!/usr/bin/env node
// `npm run test:cli`: the end-to-end suites through the real Pulumi CLI. Builds (or reuses) the CLI first
// (`npm run cli:install`), then runs vitest.cli.config.mts with E2E_ENGINE=cli; its JSON report is
// test-results/vitest-cli.json, which .ci/run adds to `npm test`'s. Arguments go to vitest.
// A CLI that cannot be built fails this command (with the reason): it is never reported as a pass.
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const install = spawnSync(process.execPath, [path.join(__dirname, "install-pulumi-cli.js")], { stdio: "inherit" });
if (install.status !== 0) {
  console.error("test:cli: the Pulumi CLI could not be built (above); no suite ran through it");
  process.exit(1);
}
const tests = spawnSync("vitest", ["run", "--config", "vitest.cli.config.mts", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, E2E_ENGINE: "cli" },
});
process.exit(tests.status ?? 1);
