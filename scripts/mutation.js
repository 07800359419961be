#!/usr/bin/env node
// npm run mutation [-- part ...]: runs StrykerJS once per part (stryker.config.mjs PARTS), one after
// the other; without parts, all of them. Each part's report: reports/mutation/<part>.json (and .html).
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const ALL = ["client", "config", "plugin-wire", "provider-role", "provider-shared", "provider-group-roles", "emulator"];
// Parts that overlap the ones above, run only when named (stryker.config.mjs says what each holds).
const EXTRA = ["client-core", "coordination"];
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
// Stryker needs Node 22: run it on the Node that runs this script (npm scripts run on the node devDependency).
const stryker = path.join(__dirname, "..", "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
let failed = false;
for (const part of parts) {
  if (!ALL.includes(part) && !EXTRA.includes(part)) {
    console.error(`unknown part ${part}; parts: ${[...ALL, ...EXTRA].join(", ")}`);
    process.exit(2);
  }
  console.log(`\n== mutation: ${part}`);
  const started = Date.now();
  const r = spawnSync(process.execPath, [stryker, "run", "stryker.config.mjs"], {
    stdio: "inherit",
    env: { ...process.env, MUTATION_PART: part },
  });
  console.log(`== ${part}: exit ${r.status}, ${Math.round((Date.now() - started) / 60000)} min`);
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
