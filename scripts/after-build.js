#!/usr/bin/env node
// After `tsc` (npm run build): removes compiled files of sources that no longer exist (tsc never
// deletes; a renamed module would otherwise be packed and shipped stale), then links
// node_modules/pulumi-grouproles to this checkout (scripts/link-self.js).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const OUTPUT = /(\.d\.ts|\.js|\.js\.map|\.d\.ts\.map)$/;

function prune(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      continue;
    }
    const match = OUTPUT.exec(entry.name);
    if (!match) continue;
    const source = path.join(root, path.relative(dist, dir), `${entry.name.slice(0, -match[1].length)}.ts`);
    if (!fs.existsSync(source)) fs.rmSync(full);
  }
}

prune(dist);
require("./link-self.js");
