// Prints the per-file table of docs/mutation.md from a Stryker JSON report (default reports/mutation/mutation.json).
// Score = (killed + timed out) / (killed + timed out + survived + no coverage), as Stryker counts it.
"use strict";
const fs = require("node:fs");

const report = JSON.parse(fs.readFileSync(process.argv[2] || "reports/mutation/mutation.json", "utf8"));
const rows = [];
const total = { killed: 0, survived: 0, noCoverage: 0 };
const add = (into, from) => {
  for (const k of Object.keys(total)) into[k] += from[k];
};
const dirs = {};
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const n = { killed: 0, survived: 0, noCoverage: 0 };
  for (const m of mutants) {
    if (m.status === "Killed" || m.status === "Timeout") n.killed++;
    else if (m.status === "Survived") n.survived++;
    else if (m.status === "NoCoverage") n.noCoverage++;
  }
  rows.push([file, n]);
  add(total, n);
  const dir = file.startsWith("provider/client/") ? "provider/client/" : "provider/ (without client/)";
  dirs[dir] ??= { killed: 0, survived: 0, noCoverage: 0 };
  add(dirs[dir], n);
}
const score = (n) => {
  const all = n.killed + n.survived + n.noCoverage;
  return all ? `${((100 * n.killed) / all).toFixed(1)}%` : "–";
};
const line = (name, n) => `| ${name} | ${score(n)} | ${n.killed} | ${n.survived} | ${n.noCoverage} |`;
console.log("| file | score | killed (incl. timeouts) | survived | no coverage |");
console.log("|---|---:|---:|---:|---:|");
for (const [file, n] of rows) console.log(line(`\`${file}\``, n));
for (const [dir, n] of Object.entries(dirs)) console.log(line(`**${dir}**`, n));
console.log(line("**provider/ (all)**", total));
