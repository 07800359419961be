#!/usr/bin/env node
// `npm run cli:install`: the real Pulumi CLI for the test suites that run through it (`npm run test:cli`),
// built from its Go module by the Go module proxy at the version tools/pulumi-cli/go.mod pins, into a
// cache directory the repository ignores (.cache/pulumi-cli/<version>/bin, or $PULUMI_CLI_CACHE/<version>/bin),
// reused when present. Beside `pulumi` it lays the two launchers the CLI's distribution ships next to it
// (tools/pulumi-cli/README.md says which are real and why one is a small launcher of ours); they are
// copied on every run, so that they follow the checkout. Never published; users bring their own CLI.
//
// Prints the bin directory on its last line. Exit code 0 when the CLI is there, 1 when it could not be
// built (the reason is printed: no Go, or the proxy's answer).
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const moduleDir = path.join(root, "tools", "pulumi-cli");

/** The pinned release: the `github.com/pulumi/pulumi/pkg/v3` version that tools/pulumi-cli/go.mod requires. */
function pinnedVersion() {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)/.exec(goMod);
  if (!m) throw new Error("tools/pulumi-cli/go.mod requires no github.com/pulumi/pulumi/pkg/v3 version");
  return m[1];
}

function cliBinDir(version = pinnedVersion()) {
  const cache = process.env.PULUMI_CLI_CACHE || path.join(root, ".cache", "pulumi-cli");
  return path.join(path.resolve(cache), version, "bin");
}

/** The version a built `pulumi` reports, or undefined when there is none or it does not run. */
function builtVersion(binDir) {
  try {
    return execFileSync(path.join(binDir, "pulumi"), ["version"], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

function build(version, binDir) {
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.status !== 0) {
    console.error("cli:install: no Go toolchain on $PATH (the real Pulumi CLI is built from its Go module)");
    return false;
  }
  const staging = `${binDir}.building-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  console.log(`cli:install: building pulumi ${version} with ${go.stdout.trim()} (the first build takes minutes)`);
  const started = Date.now();
  const args = [
    "build",
    // What pulumi/pulumi's release build stamps, so that `pulumi version` and the engine's own checks see a release.
    "-ldflags",
    `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`,
    "-o",
    staging,
    "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
  ];
  const r = spawnSync("go", args, {
    cwd: moduleDir,
    stdio: "inherit",
    // go.sum pins every module; nothing is resolved afresh.
    env: { ...process.env, GOFLAGS: "-mod=readonly" },
  });
  if (r.status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    console.error(`cli:install: go ${args.join(" ")} failed (exit ${r.status})`);
    return false;
  }
  fs.rmSync(binDir, { recursive: true, force: true });
  fs.renameSync(staging, binDir);
  const size = fs.statSync(path.join(binDir, "pulumi")).size;
  console.log(
    `cli:install: built in ${Math.round((Date.now() - started) / 1000)} s, pulumi is ${(size / 2 ** 20).toFixed(0)} MiB`,
  );
  return true;
}

/** The launchers the CLI looks for beside itself (workspace.IsPluginBundled), copied from the checkout. */
function layLaunchers(binDir) {
  for (const file of [
    "launchers/pulumi-language-go",
    "launchers/pulumi-language-nodejs",
    "launchers/pulumi-language-python",
    "launchers/pulumi-resource-pulumi-nodejs",
    "go-host.js",
    "language-host.js",
    "language-host-server.js",
    "python-host.js",
  ]) {
    const target = path.join(binDir, path.basename(file));
    fs.copyFileSync(path.join(moduleDir, file), target);
    fs.chmodSync(target, 0o755);
  }
}

/**
 * The launchers' code generation (tools/pulumi-cli/program-gen: the generators of the pinned release), built
 * beside them on every run: Go's build cache makes it a link when nothing changed.
 */
function buildProgramGen(binDir) {
  const r = spawnSync("go", ["build", "-o", path.join(binDir, "program-gen"), "./program-gen"], {
    cwd: moduleDir,
    stdio: "inherit",
    env: { ...process.env, GOFLAGS: "-mod=readonly" },
  });
  if (r.status !== 0) console.error(`cli:install: go build ./program-gen failed (exit ${r.status})`);
  return r.status === 0;
}

/**
 * The real `pulumi-language-python-exec`, the script the Python host runs, from the Go SDK module of the
 * pinned release (github.com/pulumi/pulumi/sdk/v3, python/cmd/), beside the Python launcher, with the
 * version it reports.
 */
function layPythonExec(binDir) {
  const r = spawnSync("go", ["mod", "download", "-json", "github.com/pulumi/pulumi/sdk/v3"], {
    cwd: moduleDir,
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=readonly" },
  });
  if (r.status !== 0) {
    console.error(`cli:install: go mod download github.com/pulumi/pulumi/sdk/v3 failed: ${r.stderr || r.stdout}`);
    return false;
  }
  const { Dir, Version } = JSON.parse(r.stdout);
  const target = path.join(binDir, "pulumi-language-python-exec");
  fs.copyFileSync(path.join(Dir, "python", "cmd", "pulumi-language-python-exec"), target);
  fs.chmodSync(target, 0o755);
  fs.writeFileSync(
    path.join(binDir, "pulumi-sdk-version.json"),
    `${JSON.stringify({ version: Version.replace(/^v/, "") })}\n`,
  );
  return true;
}

const yamlModuleDir = path.join(root, "tools", "pulumi-yaml");

/** The pinned YAML language host: the `github.com/pulumi/pulumi-yaml` version tools/pulumi-yaml/go.mod requires. */
function yamlVersion() {
  const goMod = fs.readFileSync(path.join(yamlModuleDir, "go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi-yaml (v\d+\.\d+\.\d+)/.exec(goMod);
  if (!m) throw new Error("tools/pulumi-yaml/go.mod requires no github.com/pulumi/pulumi-yaml version");
  return m[1];
}

/**
 * The real YAML language host, `pulumi-language-yaml`, built from its Go module into a cache directory of
 * its own (reused when present) and linked beside `pulumi`, where the CLI finds the language hosts its
 * distribution bundles (workspace.IsPluginBundled). A module of its own: it pins another pkg/v3.
 */
function installYamlHost(cliBin) {
  const version = yamlVersion();
  const cache = process.env.PULUMI_CLI_CACHE || path.join(root, ".cache", "pulumi-cli");
  const dir = path.join(path.resolve(cache), `pulumi-yaml-${version}`);
  const host = path.join(dir, "pulumi-language-yaml");
  if (fs.existsSync(host)) console.log(`cli:install: reusing pulumi-language-yaml ${version} in ${dir}`);
  else {
    const staging = `${dir}.building-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    console.log(`cli:install: building pulumi-language-yaml ${version}`);
    const started = Date.now();
    const args = [
      "build",
      // What pulumi-yaml's release build stamps (its GetPluginInfo reports it).
      "-ldflags",
      `-X github.com/pulumi/pulumi-yaml/pkg/version.Version=${version}`,
      "-o",
      staging,
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    ];
    const r = spawnSync("go", args, {
      cwd: yamlModuleDir,
      stdio: "inherit",
      env: { ...process.env, GOFLAGS: "-mod=readonly" },
    });
    if (r.status !== 0) {
      fs.rmSync(staging, { recursive: true, force: true });
      console.error(`cli:install: go ${args.join(" ")} failed (exit ${r.status})`);
      return false;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
    console.log(`cli:install: built pulumi-language-yaml in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const link = path.join(cliBin, "pulumi-language-yaml");
  fs.rmSync(link, { force: true });
  fs.symlinkSync(host, link);
  return true;
}

function main() {
  const version = pinnedVersion();
  const binDir = cliBinDir(version);
  if (builtVersion(binDir) === version) console.log(`cli:install: reusing pulumi ${version} in ${binDir}`);
  else if (!build(version, binDir)) return 1;
  const reported = builtVersion(binDir);
  if (reported !== version) {
    console.error(`cli:install: the built pulumi reports ${reported ?? "nothing"}, not ${version}`);
    return 1;
  }
  layLaunchers(binDir);
  if (!buildProgramGen(binDir) || !layPythonExec(binDir) || !installYamlHost(binDir)) return 1;
  console.log(binDir);
  return 0;
}

module.exports = { cliBinDir, pinnedVersion };
if (require.main === module) process.exit(main());
