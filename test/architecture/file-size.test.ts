/**
 * Every product file reads in one sitting: at most 300 lines (issue 55). The SDKs generated for other
 * languages (sdk/python, sdk/go) are the code generators' and do not count.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const MAX_LINES = 300;

const productFiles = ["client", "config", "provider", "sdk", "emulator"].flatMap((dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("sdk/go/") && !f.startsWith("sdk/python/")),
);

describe("product files", () => {
  it("are read: every folder has its files", () => {
    expect(productFiles.length).toBeGreaterThan(80);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    const long = productFiles
      .map((f) => ({ f, lines: readFileSync(path.join(root, f), "utf8").trimEnd().split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
