/**
 * Regenerating the Python and Go SDKs changes nothing (issue 54): `npm run sdk:gen` into a temporary
 * directory gives sdk/python and sdk/go byte for byte. Needs Go and the module proxy, so it runs in
 * `npm run test:cli`, which needs them for the CLI anyway; test/provider/generated-sdks.test.ts checks
 * in `npm test` that they come from today's schema.json.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const out = mkdtempSync(path.join(os.tmpdir(), "grouproles-sdk-gen-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("npm run sdk:gen", () => {
  it("regenerates sdk/python, sdk/go and sdk/generated-from.json identically", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts/gen-sdk.js"), out], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    for (const lang of ["python", "go"]) {
      const committed = path.join(root, "sdk", lang);
      // What git holds: a `pip install` of sdk/python leaves build/ and *.egg-info beside it (ignored).
      const tracked = spawnSync("git", ["ls-files"], { cwd: committed, encoding: "utf8" })
        .stdout.split("\n")
        .filter(Boolean)
        .sort();
      expect(files(path.join(out, lang)), lang).toEqual(tracked);
      for (const f of tracked)
        expect(readFileSync(path.join(out, lang, f), "utf8"), `${lang}/${f}`).toBe(
          readFileSync(path.join(committed, f), "utf8"),
        );
    }
    expect(readFileSync(path.join(out, "generated-from.json"), "utf8")).toBe(
      readFileSync(path.join(root, "sdk/generated-from.json"), "utf8"),
    );
  });
});
