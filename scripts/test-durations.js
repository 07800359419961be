#!/usr/bin/env node
// Writes test/durations.json from the report of the last whole run (test-results/vitest.json): each
// test file's seconds, which vitest.sequencer.mts uses to start the longest files first.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const report = JSON.parse(fs.readFileSync(path.join(root, "test-results/vitest.json"), "utf8"));
const seconds = {};
for (const file of report.testResults.sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))) {
  seconds[path.relative(root, file.name)] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
fs.writeFileSync(path.join(root, "test/durations.json"), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
