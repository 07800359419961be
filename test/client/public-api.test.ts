/**
 * The public surface is what docs/api.md lists, no more and no less: every name each entry point
 * exports (values and types, read from the compiled declarations) has its line, and every line names
 * an export.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { publicNames } = require(path.join(root, "scripts/public-names.js")) as {
  publicNames(root?: string): Record<string, string[]>;
};

/** The names docs/api.md lists under each entry's heading. */
function documented(): Record<string, string[]> {
  const text = readFileSync(path.join(root, "docs/api.md"), "utf8");
  const out: Record<string, string[]> = {};
  let entry: string | undefined;
  for (const line of text.split("\n")) {
    const heading = /^## `pulumi-grouproles((?:\/[a-z-]+)*)`/.exec(line);
    // Another heading (the generated Python and Go SDKs': test/provider/generated-sdks.test.ts) ends the entry.
    if (line.startsWith("## ")) entry = heading ? (heading[1] ? `.${heading[1]}` : ".") : undefined;
    const row = /^\| `([A-Za-z_$][\w$]*)` \|/.exec(line);
    if (entry && row) {
      out[entry] ??= [];
      out[entry].push(row[1]!);
    }
  }
  for (const names of Object.values(out)) names.sort();
  return out;
}

describe("public API", () => {
  it("docs/api.md lists exactly the names each entry point exports", () => {
    expect(documented()).toEqual(publicNames(root));
  });

  it("the provider entries are the dynamic providers' methods only", () => {
    const methods = ["check", "configure", "create", "delete", "diff", "read", "update"];
    expect(publicNames(root)["./provider"]).toEqual(methods);
    expect(publicNames(root)["./provider/group-roles"]).toEqual(methods);
  });
});
