#!/usr/bin/env node
// Lists the names each public entry of the package exports (values and types), from the compiled
// declarations in dist/: `node scripts/public-names.js [root]` prints JSON { entry: [names] }.
// docs/api.md must list exactly these (test/client/public-api.test.ts).
"use strict";
const path = require("node:path");
const ts = require("typescript");

const ENTRIES = {
  ".": "dist/sdk/index.d.ts",
  "./provider": "dist/provider/index.d.ts",
  "./provider/group-roles": "dist/provider/group-roles/index.d.ts",
  "./client": "dist/client/index.d.ts",
  "./emulator": "dist/emulator/index.d.ts",
};

function publicNames(root = path.resolve(__dirname, "..")) {
  const files = Object.fromEntries(Object.entries(ENTRIES).map(([entry, file]) => [entry, path.join(root, file)]));
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
