/**
 * Every link of the documents the npm package ships (README.md, docs/, the emulator's README,
 * CHANGELOG.md, ...) works in the tarball: a relative link names a file or directory the tarball
 * holds, and an anchor names a heading of its target. Links are read from the documents `npm pack`
 * lists, so a page added to `files` is checked too, and a link to a file left out of the tarball fails.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

/** The files `npm pack` puts in the tarball (no build: the documents are what matters here). */
function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const anchorsOf = (markdown: string) =>
  new Set(
    markdown
      .replace(/```[\s\S]*?```/g, "")
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ""))),
  );

/** Relative links of a markdown text, outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

describe("the package's documents", () => {
  const files = packedFiles();
  const shipped = new Set(files);
  const holds = (target: string) => shipped.has(target) || files.some((f) => f.startsWith(`${target}/`));
  const documents = files.filter((f) => f.endsWith(".md"));

  it("ship the pages the README links to", () => {
    for (const page of ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "emulator/README.md"])
      expect(shipped.has(page), page).toBe(true);
    expect(files.some((f) => f.startsWith("examples/quickstart/"))).toBe(true);
  });

  it("link only to what the tarball holds, and to headings their targets have", () => {
    const broken: string[] = [];
    for (const doc of documents) {
      const text = readFileSync(path.join(root, doc), "utf8");
      for (const link of relativeLinks(text)) {
        const [target = "", anchor] = link.split("#");
        const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)) : doc;
        if (!holds(resolved)) broken.push(`${doc}: ${link} (not in the tarball)`);
        else if (
          anchor &&
          resolved.endsWith(".md") &&
          !anchorsOf(readFileSync(path.join(root, resolved), "utf8")).has(anchor)
        )
          broken.push(`${doc}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
