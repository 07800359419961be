#!/usr/bin/env node
// Checks the notes on the mutants that survive in the core paths (docs/mutation.md): each core file's
// docs/mutation/core/<file>.md counts its survivors by kind, and those counts must add up to the
// survivors the file has in the kept record (docs/mutation/<part>.json, written by mutation-table.js).
//   node scripts/mutation-explained.js                    check; exit 1 if a file's notes and record differ
//   node scripts/mutation-explained.js --kinds            the counts by kind, per file (docs/mutation.md)
//   node scripts/mutation-explained.js --survivors FILE   the record's survivors of FILE, to write its notes from
// A note's table has one row per kind: | kind | count | why they survive |. The reasons name code
// (functions, conditions), never line numbers, so that they survive edits: a line number in a note
// ("line 12", "diff.ts:12") fails the check.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

/** The core paths the mutation issue names, and the files that hold them, by part. */
const CORE = {
  "provider-group-roles": {
    "provider/group-roles/diff.ts": "GroupRoles diff",
    "provider/group-roles/plan.ts": "GroupRoles plan: in-use refusal, adoption, held names",
    "provider/group-roles/renamed-keys.ts": "a key renamed with its name kept (the same role)",
    "provider/group-roles/ordering.ts": "plan ordering (renames, rotations)",
    "provider/group-roles/apply.ts": "partial-failure reporting (apply)",
    "provider/group-roles/progress.ts": "partial-failure reporting (progress)",
    "provider/group-roles/create-chunk.ts": "batch splitting (GroupRoles creates)",
    "provider/group-roles/errors.ts": "partial-failure and refusal messages",
  },
  "provider-role": {
    "provider/role/provider.ts": "Role check and diff",
    "provider/role/delete.ts": "Role delete and in-use refusal",
    "provider/role/read.ts": "Role read (refresh, import)",
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

/** The kinds a note counts (docs/mutation/core/README.md). */
const KINDS = [
  "equivalent",
  "killed by a later test",
  "end to end only",
  "message wording",
  "timing only",
  "not killed",
  "gone since the run",
  "mixed",
];
/** A line number in prose: `line 12`, `lines 3-5`, `diff.ts:12`. */
const LINE_NUMBER = /\blines? \d+|\.(?:ts|js|mts|mjs):\d+/;

const slug = (file) => file.replace(/\.ts$/, "").replace(/\//g, "-");
const notesFor = (file) => path.join(root, "docs", "mutation", "core", `${slug(file)}.md`);
const recordOf = (part) => JSON.parse(fs.readFileSync(path.join(root, "docs", "mutation", `${part}.json`), "utf8"));

/** A note's counts by kind, and what is wrong with it (an unknown kind, a row without a reason, a line number). */
function notesOf(file) {
  const at = path.relative(root, notesFor(file));
  if (!fs.existsSync(notesFor(file))) return { exists: false, counts: {}, problems: [] };
  const counts = {};
  const problems = [];
  for (const [index, text] of fs.readFileSync(notesFor(file), "utf8").split("\n").entries()) {
    if (LINE_NUMBER.test(text)) problems.push(`${at}:${index + 1}: a line number ("${LINE_NUMBER.exec(text)[0]}")`);
    const cells = text
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length < 3 || !/^\d+$/.test(cells[1])) continue;
    if (!KINDS.includes(cells[0])) problems.push(`${at}:${index + 1}: unknown kind "${cells[0]}"`);
    else if (!cells[2]) problems.push(`${at}:${index + 1}: ${cells[0]}: no reason given`);
    else counts[cells[0]] = (counts[cells[0]] ?? 0) + Number(cells[1]);
  }
  return { exists: true, counts, problems };
}

const mode = process.argv[2];
const table = [];
let toUpdate = 0;
for (const [part, files] of Object.entries(CORE)) {
  const record = recordOf(part);
  for (const [file, corePath] of Object.entries(files)) {
    const survivors = record.files[file]?.survivors ?? [];
    if (mode === "--survivors") {
      if (process.argv[3] !== file) continue;
      console.log(`${file} (${corePath}), part ${part}: ${survivors.length} survivors in docs/mutation/${part}.json`);
      for (const m of [...survivors].sort((a, b) => a.line - b.line))
        console.log(`  ${m.line}\t${m.status}\t${m.mutator}\t${m.replacement}`);
      continue;
    }
    const notes = notesOf(file);
    const counted = Object.values(notes.counts).reduce((n, c) => n + c, 0);
    table.push([file, survivors.length, notes.counts]);
    const problems = [...notes.problems];
    if (!notes.exists && survivors.length) problems.push(`no notes (${path.relative(root, notesFor(file))})`);
    else if (counted !== survivors.length)
      problems.push(`the notes count ${counted} survivors, the record ${survivors.length}`);
    if (problems.length && mode !== "--kinds") {
      toUpdate++;
      console.log(`${file} (${corePath}), part ${part}:\n  ${problems.join("\n  ")}`);
    }
  }
}
if (mode === "--kinds") {
  console.log(`| file | survivors | ${KINDS.join(" | ")} |`);
  console.log(`|---|${"---:|".repeat(KINDS.length + 1)}`);
  for (const [file, n, by] of table)
    console.log(`| \`${file}\` | ${n} | ${KINDS.map((k) => by[k] ?? 0).join(" | ")} |`);
  const sum = (k) => table.reduce((n, [, , by]) => n + (by[k] ?? 0), 0);
  const all = table.reduce((n, [, count]) => n + count, 0);
  console.log(`| all | ${all} | ${KINDS.map(sum).join(" | ")} |`);
} else if (mode === "--survivors") {
  if (!Object.values(CORE).some((files) => process.argv[3] in files)) {
    console.error(`not a core file: ${process.argv[3]} (the list: CORE in scripts/mutation-explained.js)`);
    process.exitCode = 1;
  }
} else {
  const all = table.reduce((n, [, count]) => n + count, 0);
  console.log(`core paths: ${all} survivors in ${table.length} files, ${toUpdate} file(s) whose notes need updating`);
  if (toUpdate) console.log("the record's survivors of a file: node scripts/mutation-explained.js --survivors <file>");
  process.exit(toUpdate ? 1 : 0);
}
