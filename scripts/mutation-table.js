#!/usr/bin/env node
// Tables of docs/mutation.md from the StrykerJS reports of each part (reports/mutation/<part>.json,
// written by `npm run mutation`), and the compact record kept in the repository:
// docs/mutation/<part>.json (per file: counts; every surviving mutant: place, mutator, replacement).
//   node scripts/mutation-table.js [part ...]     (default: every part with a report)
// Score = (killed + timed out) / (killed + timed out + survived + no coverage), as Stryker counts it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const reports = path.join(root, "reports", "mutation");
const kept = path.join(root, "docs", "mutation");
const parts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : fs
      .readdirSync(reports)
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5));

const score = (n) => {
  const all = n.killed + n.survived + n.noCoverage;
  return all ? `${((100 * n.killed) / all).toFixed(1)}%` : "–";
};
const count = (mutants) => {
  const n = { killed: 0, survived: 0, noCoverage: 0 };
  for (const m of mutants) {
    if (m.status === "Killed" || m.status === "Timeout") n.killed++;
    else if (m.status === "Survived") n.survived++;
    else if (m.status === "NoCoverage") n.noCoverage++;
  }
  return n;
};

fs.mkdirSync(kept, { recursive: true });
console.log("| part | file | score | killed (incl. timeouts) | survived | no coverage |");
console.log("|---|---|---:|---:|---:|---:|");
const totals = [];
for (const part of parts) {
  const report = JSON.parse(fs.readFileSync(path.join(reports, `${part}.json`), "utf8"));
  const total = { killed: 0, survived: 0, noCoverage: 0 };
  const record = { part, files: {} };
  for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const n = count(mutants);
    for (const k of Object.keys(total)) total[k] += n[k];
    console.log(`| ${part} | \`${file}\` | ${score(n)} | ${n.killed} | ${n.survived} | ${n.noCoverage} |`);
    record.files[file] = {
      ...n,
      score: score(n),
      survivors: mutants
        .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
        .map((m) => ({
          line: m.location.start.line,
          status: m.status,
          mutator: m.mutatorName,
          replacement: (m.replacement ?? "").slice(0, 120),
        })),
    };
  }
  record.total = { ...total, score: score(total) };
  fs.writeFileSync(path.join(kept, `${part}.json`), `${JSON.stringify(record, null, 1)}\n`);
  totals.push([part, total]);
}
console.log("\n| part | score | killed | survived | no coverage |\n|---|---:|---:|---:|---:|");
for (const [part, n] of totals)
  console.log(`| ${part} | ${score(n)} | ${n.killed} | ${n.survived} | ${n.noCoverage} |`);
