#!/usr/bin/env node
// Updates test/durations.json from the report of the last run (test-results/vitest.json): the seconds
// of each test file it ran (files it did not run keep theirs; files that no longer exist go), which
// vitest.sequencer.mts uses to start the longest files first.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const file = path.join(root, "test/durations.json");
const report = JSON.parse(fs.readFileSync(path.join(root, "test-results/vitest.json"), "utf8"));
const seconds = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
for (const result of report.testResults) {
  seconds[path.relative(root, result.name)] = Math.round((result.endTime - result.startTime) / 100) / 10;
}
for (const name of Object.keys(seconds)) if (!fs.existsSync(path.join(root, name))) delete seconds[name];
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]));
fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
