#!/usr/bin/env node
// `npm run plugin:pack`: the resource plugin as archives that `pulumi plugin install resource grouproles
// <version> --file <archive>` installs, for programs with no node_modules (docs/languages.md), written to
// dist-plugin/:
// - pulumi-resource-grouproles-v<version>-<os>-<arch>.tar.gz: one executable, a Node.js single executable
//   application (the node binary of the node@22 devDependency with the plugin injected, by postject):
//   no Node.js needed; for the platform it is built on;
// - pulumi-resource-grouproles-v<version>-node.tar.gz: the plugin as one file and a launcher; needs
//   Node.js 22.19+ on the PATH; any platform.
// Both hold the plugin bundled into one file by esbuild (from dist/: run `npm run build` first), with
// schema.json and a package.json naming the package, which the plugin reads beside itself.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, "dist-plugin");
const work = path.join(out, ".work");
/** Pulumi's names for the platform (pkg/workspace plugin download: `<os>-<arch>`). */
const platform = `${process.platform}-${{ x64: "amd64", arm64: "arm64" }[process.arch] ?? process.arch}`;
const started = Date.now();

/** Lays the files every archive holds beside the plugin in `dir`. */
function layCommon(dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(root, "schema.json"), path.join(dir, "schema.json"));
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  fs.copyFileSync(path.join(__dirname, "plugin-archive", "README.md"), path.join(dir, "README.md"));
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "pulumi-grouproles", version })}\n`);
}

function tar(dir, name) {
  const file = path.join(out, name);
  execFileSync("tar", ["-czf", file, "-C", dir, "."]);
  console.log(`plugin:pack: ${path.relative(root, file)} (${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MiB)`);
}

async function main() {
  if (!fs.existsSync(path.join(root, "dist", "provider", "plugin", "main.js")))
    throw new Error("no dist/provider/plugin/main.js: run `npm run build` first");
  fs.rmSync(out, { recursive: true, force: true });
  const bundle = path.join(work, "plugin.js");
  await require("esbuild").build({
    entryPoints: [path.join(root, "dist", "provider", "plugin", "main.js")],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    outfile: bundle,
    logLevel: "warning",
    plugins: [
      {
        name: "static-sdk-rpc",
        setup: (build) =>
          build.onResolve({ filter: /\/sdk-rpc$/ }, () => ({
            path: path.join(__dirname, "plugin-archive", "sdk-rpc-static.js"),
          })),
      },
    ],
  });

  const node = path.join(work, "node");
  layCommon(node);
  fs.copyFileSync(bundle, path.join(node, "plugin.js"));
  fs.writeFileSync(
    path.join(node, "pulumi-resource-grouproles"),
    ["#!/bin/sh", 'exec node "$(dirname "$0")/plugin.js" "$@"', ""].join("\n"),
    {
      mode: 0o755,
    },
  );
  tar(node, `pulumi-resource-grouproles-v${version}-node.tar.gz`);

  // A single executable application (nodejs.org/api/single-executable-applications.html): a blob of the
  // bundle, injected into a copy of the node binary of the node@22 devDependency.
  const sea = path.join(work, "sea");
  layCommon(sea);
  const config = path.join(work, "sea-config.json");
  const blob = path.join(work, "sea.blob");
  fs.writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }));
  const nodeBinary = fs.realpathSync(path.join(root, "node_modules", "node", "bin", "node"));
  execFileSync(nodeBinary, ["--experimental-sea-config", config]);
  const exe = path.join(sea, "pulumi-resource-grouproles");
  fs.copyFileSync(nodeBinary, exe);
  fs.chmodSync(exe, 0o755);
  execFileSync(process.execPath, [
    require.resolve("postject/dist/cli.js"),
    exe,
    "NODE_SEA_BLOB",
    blob,
    "--sentinel-fuse",
    "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
  ]);
  tar(sea, `pulumi-resource-grouproles-v${version}-${platform}.tar.gz`);
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`plugin:pack: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((e) => {
  console.error(`plugin:pack: ${e.message}`);
  process.exit(1);
});
