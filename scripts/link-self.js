#!/usr/bin/env node
// Links node_modules/pulumi-grouproles to this checkout (run by `npm run build`, see ./after-build.js).
// The examples, tests and demo run Pulumi programs from this checkout: the programs import
// "pulumi-grouproles", and Pulumi's dynamic-provider host resolves the serialized provider's
// require("pulumi-grouproles/provider") from the program directory, which only a node_modules entry
// satisfies. Installed copies of the package never run this.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-grouproles");
if (!fs.existsSync(path.join(root, "node_modules"))) process.exit(0);
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // no link yet
}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
