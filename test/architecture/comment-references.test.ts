/**
 * Signs that do not lie: every file a comment of the sources names exists. A relative path (`./apply`,
 * `../shared/gone`) is resolved from the file, with the extensions an import would take; a path with
 * an extension (`docs/design/invariants.md`, `test/e2e/harness.ts`) from the file or the repository
 * root. Paths into other projects (`sdk/nodejs/runtime/rpc.ts` of pulumi/pulumi) are told apart by
 * naming them after a project (`pulumi/pulumi: ...`, `@pulumi/pulumi`) on the same line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const SOURCES = ["bench", "client", "config", "emulator", "provider", "scripts", "sdk", "test", "tools"];
const EXTENSIONS = ["", ".ts", ".js", ".mts", ".md", ".json", "/index.ts"];

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|js|mts|mjs)$/.test(name)) yield full;
  }
}

/** The comments of a source file, line by line. */
function commentLines(source: string): string[] {
  return (source.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? []).flatMap((c) => c.split("\n"));
}

const resolves = (base: string) => EXTENSIONS.some((ext) => existsSync(base + ext));
/** Another project's path on this line (Pulumi's sources, a package's files): not ours to check. */
const foreign = (line: string) => /pulumi\/pulumi|@pulumi\/pulumi|grpc-go|node_modules|undici|lifecycletest/.test(line);
/** What a run writes (test-results/, .tmp/, ...: .gitignore'd): absent on a fresh clone until a run writes it. */
const written = (ref: string) => /^(test-results|\.tmp|dist|reports)\//.test(ref);

describe("comments name files that exist", () => {
  it("every relative path, and every path with an extension, in a comment of the sources", () => {
    const stale: string[] = [];
    for (const dir of SOURCES) {
      for (const file of files(path.join(root, dir))) {
        if (file === __filename) continue; // its own examples
        for (const line of commentLines(readFileSync(file, "utf8"))) {
          if (foreign(line)) continue;
          for (const [ref] of line.matchAll(/(?<![\w@/.-])(?:\.{1,2}\/)+[\w./-]*[\w-]/g)) {
            if (!resolves(path.resolve(path.dirname(file), ref))) stale.push(`${path.relative(root, file)}: ${ref}`);
          }
          for (const [ref] of line.matchAll(/(?<![\w@/.-])(?:[\w-]+\/)+[\w.-]+\.(?:ts|js|md|json)\b/g)) {
            if (
              !written(ref) &&
              !existsSync(path.join(root, ref)) &&
              !existsSync(path.resolve(path.dirname(file), ref))
            )
              stale.push(`${path.relative(root, file)}: ${ref}`);
          }
        }
      }
    }
    expect(stale).toEqual([]);
  });

  it("an invariant cited by number is one of docs/design/invariants.md", () => {
    const invariants = readFileSync(path.join(root, "docs/design/invariants.md"), "utf8");
    const count = invariants.match(/^\d+\. \*\*/gm)?.length ?? 0;
    const cited: string[] = [];
    for (const dir of SOURCES) {
      for (const file of files(path.join(root, dir))) {
        for (const [, n] of readFileSync(file, "utf8").matchAll(/invariant (\d+)/g))
          if (Number(n) < 1 || Number(n) > count) cited.push(`${path.relative(root, file)}: invariant ${n}`);
      }
    }
    expect(count).toBe(11);
    expect(cited).toEqual([]);
  });
});
