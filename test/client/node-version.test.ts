/**
 * On a Node.js older than 22.19 the package fails when it is loaded, naming the version it needs,
 * instead of deep inside undici. The rule on version strings, and the real thing: every entry point
 * loaded by an older Node found on the machine (the system Node 20 of a fresh machine; skipped, and
 * reported skipped, where there is none).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../client/node-version-rule";

const root = path.resolve(__dirname, "../..");

/** A `node` on PATH, outside this checkout, whose major version is below 22. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const bin = path.join(dir, "node");
    if (!dir || dir.includes("node_modules") || !existsSync(bin)) continue;
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
    if (Number(version.slice(1).split(".")[0]) < 22) return bin;
  }
  return undefined;
}

describe("the Node.js version", () => {
  it.each([
    ["20.20.2", false],
    ["22.18.9", false],
    ["22.19.0", true],
    ["22.23.3", true],
    ["24.1.0", true],
  ])("%s is supported: %s", (version, ok) => {
    const problem = nodeVersionProblem(version);
    expect(problem === undefined).toBe(ok);
    if (problem) expect(problem).toContain(`needs Node.js 22.19 or newer; this is Node.js ${version}`);
  });

  const old = olderNode();
  it.skipIf(!old)("an older Node loading any entry point fails naming the version needed", () => {
    for (const entry of ["sdk/index.js", "provider/index.js", "provider/group-roles/index.js", "client/index.js"]) {
      const r = spawnSync(old!, ["-e", `require(${JSON.stringify(path.join(root, "dist", entry))})`], {
        encoding: "utf8",
      });
      expect(r.status, entry).not.toBe(0);
      expect(r.stderr, entry).toContain("pulumi-grouproles needs Node.js 22.19 or newer; this is Node.js");
      expect(r.stderr, entry).not.toContain("reading 'bind'");
    }
    expect(execFileSync(old!, ["--version"], { encoding: "utf8" })).toMatch(/^v(1\d|2[01])\./);
  });

  it.skipIf(!old)("an older Node running a command gets the message alone: no stack trace, status 1", () => {
    for (const command of ["dist/emulator/cli.js", "bin/pulumi-resource-grouproles"]) {
      const r = spawnSync(old!, [path.join(root, command)], { encoding: "utf8" });
      expect(r.status, command).toBe(1);
      expect(r.stderr, command).toMatch(
        /^pulumi-grouproles needs Node\.js 22\.19 or newer; this is Node\.js [\d.]+\. .*run again\.\n$/,
      );
    }
  });
});
