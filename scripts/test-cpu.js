#!/usr/bin/env node
// `npm run test:cpu`: the whole suite once with GROUPROLES_CPU_LOG set (tools/engine/process-cpu.ts), then
// a table of the CPU seconds of the processes the engine stand-in started, per test file: provider
// hosts (one per provider per engine operation), the inline program host, program processes
// (`cmd/run`). What is left of the run's CPU (vitest's workers: the emulators, the stand-in itself,
// in-process suites) is the difference from the total that `time` prints.
// `node scripts/test-cpu.js <log>` prints the table of an earlier log.
"use strict";
const { spawnSync } = require("node:child_process");
const { existsSync, readFileSync, rmSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
let log = process.argv[2];
if (!log) {
  log = path.join(root, "test-results", "cpu.log");
  rmSync(log, { force: true });
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const run = spawnSync(process.execPath, [vitest, "run"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, GROUPROLES_CPU_LOG: log },
  });
  if (run.status !== 0) console.error(`test:cpu: vitest ended with ${run.status}; the table counts what ran`);
}
if (!existsSync(log)) {
  console.error(`test:cpu: no ${log}`);
  process.exit(1);
}

const byFile = new Map();
for (const line of readFileSync(log, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const { kind, file, cpu } = JSON.parse(line);
  const row = byFile.get(file || "(none)") ?? { total: 0 };
  const k = row[kind] ?? { n: 0, cpu: 0 };
  k.n += 1;
  k.cpu += cpu;
  row[kind] = k;
  row.total += cpu;
  byFile.set(file || "(none)", row);
}
const kinds = ["provider host", "inline program host", "program"];
const cell = (k) => (k ? `${k.n} / ${k.cpu.toFixed(0)}` : "");
const rows = [...byFile.entries()].sort((a, b) => b[1].total - a[1].total);
console.log(`| test file | CPU-s | ${kinds.map((k) => `${k}s (n / CPU-s)`).join(" | ")} |`);
console.log(`|---|---:|${kinds.map(() => "---:").join("|")}|`);
for (const [file, row] of rows)
  console.log(`| ${file} | ${row.total.toFixed(0)} | ${kinds.map((k) => cell(row[k])).join(" | ")} |`);
const sum = (kind) => rows.reduce((t, [, r]) => t + (r[kind]?.cpu ?? 0), 0);
const count = (kind) => rows.reduce((t, [, r]) => t + (r[kind]?.n ?? 0), 0);
console.log(
  `| all | ${rows.reduce((t, [, r]) => t + r.total, 0).toFixed(0)} | ${kinds.map((k) => `${count(k)} / ${sum(k).toFixed(0)}`).join(" | ")} |`,
);
