#!/usr/bin/env node
// Lists the names each public entry of the package exports (values and types), from the compiled
// declarations in dist/: `node scripts/public-names.js [root]` prints JSON { entry: [names] }.
// docs/api.md must list exactly these (test/client/public-api.test.ts).
"use strict";
const path = require("node:path");
const ts = require("typescript");

/** Every entry package.json exports, to its declarations: a new entry cannot go unlisted. */
function entriesOf(root) {
  const { exports } = require(path.join(root, "package.json"));
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([, target]) => typeof target === "object" && target.types)
      .map(([entry, target]) => [entry, target.types]),
  );
}

function publicNames(root = path.resolve(__dirname, "..")) {
  const files = Object.fromEntries(
    Object.entries(entriesOf(root)).map(([entry, file]) => [entry, path.join(root, file)]),
  );
  const existing = Object.values(files).filter((f) => ts.sys.fileExists(f));
  const program = ts.createProgram(existing, { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const out = {};
  for (const [entry, file] of Object.entries(files)) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const symbol = checker.getSymbolAtLocation(source);
    out[entry] = symbol
      ? checker
          .getExportsOfModule(symbol)
          .map((s) => s.getName())
          .sort()
      : [];
  }
  return out;
}

module.exports = { publicNames };
if (require.main === module) console.log(JSON.stringify(publicNames(process.argv[2]), null, 1));
