#!/usr/bin/env node
// Links node_modules/pulumi-grouproles to this checkout (run by `npm run build`, see ./after-build.js),
// and its bins into node_modules/.bin, as npm does for an installed dependency.
// The examples, tests and demo run Pulumi programs from this checkout: the programs import
// "pulumi-grouproles", and Pulumi's dynamic-provider host resolves the serialized provider's
// require("pulumi-grouproles/provider") from the program directory, which only a node_modules entry
// satisfies; the engine finds the resource plugin `pulumi-resource-grouproles` on the PATH, which npm
// scripts put node_modules/.bin on. Installed copies of the package never run this.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const modules = path.join(root, "node_modules");
if (!fs.existsSync(modules)) process.exit(0);

/** Makes `link` a relative symlink to `target` unless it already resolves there. */
function linkTo(link, target, type) {
  try {
    if (fs.realpathSync(link) === fs.realpathSync(target)) return;
    fs.rmSync(link, { recursive: true, force: true });
  } catch {
    // no link yet
  }
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), target), link, type);
}

linkTo(path.join(modules, "pulumi-grouproles"), root, "dir");
const { bin = {} } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
for (const [name, file] of Object.entries(bin)) {
  const target = path.join(root, file);
  if (fs.existsSync(target)) linkTo(path.join(modules, ".bin", name), target, "file");
}
