#!/usr/bin/env node
// `npm test`: build, type check (tests included), lint, then every suite, as before, with the
// single-threaded steps beside one another instead of one after the other: the build and the lint
// together, then the type check beside `vitest run` (it reads dist/ through the package's self-link,
// so it follows the build; vitest spends minutes on both cores, the type check a few seconds of one).
// Fails when any step fails; a failed build or lint stops before the tests, as before.
"use strict";
const { spawn } = require("node:child_process");

/** Runs `command args` with this terminal; resolves to its exit code (1 when it died of a signal). */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", (error) => {
      console.error(`${command} ${args.join(" ")}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

async function main() {
  const first = await Promise.all([run(npm, ["run", "build"]), run(npm, ["run", "lint"])]);
  if (first.some((code) => code !== 0)) return 1;
  const [typecheck, tests] = await Promise.all([
    run(npm, ["run", "typecheck"]),
    run("vitest", ["run", ...process.argv.slice(2)]),
  ]);
  if (typecheck !== 0) console.error("npm test: the type check failed (its errors are above)");
  return typecheck || tests;
}

main().then((code) => process.exit(code));
