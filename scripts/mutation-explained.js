#!/usr/bin/env node
// Checks that every mutant surviving in the core paths is explained one by one (docs/mutation.md).
//   node scripts/mutation-explained.js              list what is unexplained or stale; exit 1 if any
//   node scripts/mutation-explained.js --rows FILE  print table rows to fill in for FILE's unexplained mutants
//   node scripts/mutation-explained.js --prune      remove the stale rows (mutants a later run killed)
//   node scripts/mutation-explained.js --kinds      a table of the explanations by kind, per file
// The survivors come from the kept records (docs/mutation/<part>.json, written by mutation-table.js);
// the explanations from docs/mutation/core/<file>.md, one table row per mutant:
//   | line | status | mutator | `replacement` | why it survives |
// A mutant is matched by line, mutator and replacement, so a row goes stale when the code moves.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

/** The core paths the mutation issue names, and the files that hold them, by part. */
const CORE = {
  "provider-group-roles": {
    "provider/group-roles/diff.ts": "GroupRoles diff",
    "provider/group-roles/plan.ts": "GroupRoles plan: in-use refusal, adoption, held names",
    "provider/group-roles/ordering.ts": "plan ordering (renames, rotations)",
    "provider/group-roles/apply.ts": "partial-failure reporting (apply)",
    "provider/group-roles/progress.ts": "partial-failure reporting (progress)",
    "provider/group-roles/create-chunk.ts": "batch splitting (GroupRoles creates)",
    "provider/group-roles/errors.ts": "partial-failure and refusal messages",
  },
  "provider-role": {
    "provider/role/provider.ts": "Role diff and in-use refusal",
    "provider/role/update.ts": "Role update and in-use refusal",
    "provider/role/adoption.ts": "adoption",
    "provider/role/batcher.ts": "batch splitting (Role creates)",
  },
  "provider-shared": {
    "provider/shared/settings.ts": "settings comparison (both diffs)",
    "provider/shared/settings-keys.ts": "settings keys (both diffs)",
    "provider/shared/fields.ts": "field comparison (both diffs)",
    "provider/shared/user-count.ts": "in-use rule",
    "provider/shared/lost-replies.ts": "partial creates",
  },
  "client-core": {
    "client/credentials.ts": "token cache and renewal",
    "client/authorization.ts": "token fetch, login-key signing",
    "client/redact.ts": "redaction",
  },
  emulator: {
    "emulator/service-rules.ts": "the emulator's limits",
    "emulator/store.ts": "the emulator's limits (store)",
  },
};

const slug = (file) => file.replace(/\.ts$/, "").replace(/\//g, "-");
const docFor = (file) => path.join(root, "docs", "mutation", "core", `${slug(file)}.md`);
const norm = (s) =>
  String(s ?? "")
    .replace(/\\\|/g, "|")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60);
const keyOf = (line, mutator, replacement) => `${line}|${mutator}|${norm(replacement)}`;

/** A part's kept record (docs/mutation/<part>.json): per file, its survivors. */
const recordOf = (part) => JSON.parse(fs.readFileSync(path.join(root, "docs", "mutation", `${part}.json`), "utf8"));

/** Rows of the explanation file: line, status, mutator, replacement (in backticks), why. */
function explained(file) {
  if (!fs.existsSync(docFor(file))) return [];
  const rows = [];
  for (const [index, text] of fs.readFileSync(docFor(file), "utf8").split("\n").entries()) {
    const cells = text
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length < 5 || !/^\d+$/.test(cells[0])) continue;
    const replacement = cells[3].replace(/^`+ ?|\s?`+$/g, "");
    rows.push({ key: keyOf(cells[0], cells[2], replacement), why: cells[4], index });
  }
  return rows;
}

const cell = (s) => String(s).replace(/\|/g, "\\|").replace(/\s+/g, " ");
const row = (m) => `| ${m.line} | ${m.status} | ${m.mutator} | \`\` ${cell(m.replacement)} \`\` | |`;

const rowsFor = process.argv[2] === "--rows" ? process.argv[3] : undefined;
const prune = process.argv[2] === "--prune";
const kinds = process.argv[2] === "--kinds";
/** The kinds an explanation starts with (docs/mutation/core/README.md). */
const KINDS = [
  "killed by",
  "equivalent",
  "end to end only",
  "message wording",
  "timing only",
  "not killed",
  "gone since the run",
];
// A row for one of several alike mutants of one condition (the record keeps no column) says which of
// them are killed and which equivalent: "one of the ...".
const kindOf = (why) =>
  KINDS.find((k) => why.toLowerCase().startsWith(k)) ?? (why.startsWith("one of the") ? "mixed" : "other");
const table = [];
let missingTotal = 0;
let staleTotal = 0;
let explainedTotal = 0;
for (const [part, files] of Object.entries(CORE)) {
  const record = recordOf(part);
  for (const [file, corePath] of Object.entries(files)) {
    if (rowsFor && rowsFor !== file) continue;
    const wanted = record.files[file]?.survivors ?? [];
    const have = new Map();
    for (const r of explained(file)) have.set(r.key, [...(have.get(r.key) ?? []), r]);
    // Alike mutants (one key) that a later run partly killed: the rows saying "killed by" go first.
    for (const list of have.values())
      list.sort((a, b) => Number(kindOf(a.why) === "killed by") - Number(kindOf(b.why) === "killed by"));
    const missing = [];
    const byKind = {};
    for (const m of wanted) {
      const list = have.get(keyOf(m.line, m.mutator, m.replacement));
      const found = list?.shift();
      if (!found?.why) missing.push(m);
      else {
        explainedTotal++;
        const kind = kindOf(found.why);
        byKind[kind] = (byKind[kind] ?? 0) + 1;
      }
    }
    table.push([file, wanted.length, byKind]);
    const staleRows = [...have.values()].flat();
    const stale = staleRows.length;
    if (prune && stale) {
      const drop = new Set(staleRows.map((r) => r.index));
      const lines = fs.readFileSync(docFor(file), "utf8").split("\n");
      fs.writeFileSync(docFor(file), lines.filter((_, i) => !drop.has(i)).join("\n"));
      console.log(`${file}: ${stale} stale rows removed`);
    }
    missingTotal += missing.length;
    if (!prune) staleTotal += stale;
    if (rowsFor) {
      console.log(`<!-- ${file} (${corePath}), part ${part}: ${missing.length} to explain -->`);
      for (const m of missing) console.log(row(m));
    } else if (!kinds && (missing.length || stale)) {
      console.log(
        `${file} (${corePath}): ${wanted.length} survivors, ${missing.length} unexplained, ${stale} stale rows`,
      );
    }
  }
}
if (kinds) {
  const columns = [...KINDS, "mixed", "other"];
  console.log(`| file | survivors | ${columns.join(" | ")} |`);
  console.log(`|---|${"---:|".repeat(columns.length + 1)}`);
  const sum = (k) => table.reduce((n, [, , by]) => n + (by[k] ?? 0), 0);
  for (const [file, n, by] of table)
    console.log(`| \`${file}\` | ${n} | ${columns.map((k) => by[k] ?? 0).join(" | ")} |`);
  const all = table.reduce((n, [, count]) => n + count, 0);
  console.log(`| all | ${all} | ${columns.map(sum).join(" | ")} |`);
} else if (!rowsFor) {
  console.log(`core paths: ${explainedTotal} explained, ${missingTotal} unexplained, ${staleTotal} stale rows`);
  process.exit(missingTotal || staleTotal ? 1 : 0);
}
