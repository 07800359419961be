import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

describe("packed tarball", () => {
  it("installs into an empty project and its entry points resolve", () => {
    const dir = inject("installedProject");
    const script = `
      const sdk = require("pulumi-grouproles");
      const provider = require("pulumi-grouproles/provider");
      const groupRoles = require("pulumi-grouproles/provider/group-roles");
      const client = require("pulumi-grouproles/client");
      const emulator = require("pulumi-grouproles/emulator");
      let deep = "resolved";
      try { require("pulumi-grouproles/dist/provider/role-provider.js"); } catch (e) { deep = e.code; }
      console.log(JSON.stringify({
        sdk: Object.keys(sdk).sort(),
        provider: Object.keys(provider).sort(),
        groupRoles: Object.keys(groupRoles).sort(),
        client: typeof client.GroupRolesClient,
        emulator: typeof emulator.startEmulator,
        deep,
        resolved: require.resolve("pulumi-grouproles/provider"),
      }));`;
    const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" }));
    // The provider entry is the dynamic provider's methods, nothing else; compiled files are not entries.
    expect(out.provider).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    expect(out.groupRoles).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    expect(out.client).toBe("function");
    expect(out.emulator).toBe("function");
    expect(out.deep).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
    expect(out.resolved).toContain(`${dir}/node_modules/pulumi-grouproles/dist/provider/index.js`);
  });

  it("ships compiled JavaScript and type declarations, not the sources or tests", () => {
    const tarball = inject("tarball");
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(files).toContain("package/dist/provider/index.js");
    expect(files).toContain("package/dist/provider/index.d.ts");
    expect(files).toContain("package/dist/provider/group-roles/index.js");
    expect(files).toContain("package/dist/sdk/index.d.ts");
    expect(files).toContain("package/dist/client/index.d.ts");
    expect(files).toContain("package/LICENSE");
    expect(files.some((f) => f.startsWith("package/test/") || f.startsWith("package/provider/"))).toBe(false);
  });
});

describe("what is published", () => {
  const root = path.resolve(__dirname, "../..");

  it("runs nothing on a consumer's machine: no install or prepare script", () => {
    const dir = inject("installedProject");
    const manifest = JSON.parse(
      readFileSync(path.join(dir, "node_modules/pulumi-grouproles/package.json"), "utf8"),
    ) as { scripts?: Record<string, string> };
    const lifecycle = ["preinstall", "install", "postinstall", "prepare"];
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => lifecycle.includes(s))).toEqual([]);
  });

  it("ships source maps that carry their sources (nothing dangling), and the config layer", () => {
    const dir = path.join(inject("installedProject"), "node_modules/pulumi-grouproles");
    const tarball = inject("tarball");
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(files).toContain("package/dist/config/stack-config.js");
    const maps = files.filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(20);
    for (const map of maps) {
      const m = JSON.parse(readFileSync(path.join(dir, map.replace(/^package\//, "")), "utf8")) as {
        sources: string[];
        sourcesContent?: string[];
      };
      expect(m.sourcesContent?.length, map).toBe(m.sources.length);
    }
  });

  it("packs a fresh checkout (no dist/) into a tarball with dist/: prepack builds", () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-fresh-"));
    try {
      // The checkout as a clone would have it: tracked and new files, nothing ignored (no dist/).
      const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
        cwd: root,
        encoding: "utf8",
      });
      for (const f of listed.split("\0").filter((f) => f && existsSync(path.join(root, f)))) {
        mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
        cpSync(path.join(root, f), path.join(work, f));
      }
      symlinkSync(path.join(root, "node_modules"), path.join(work, "node_modules"), "dir");
      const out = execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: work, encoding: "utf8" });
      const packed = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
      for (const f of [
        "dist/sdk/index.js",
        "dist/sdk/package/index.js",
        "dist/provider/index.js",
        "dist/provider/plugin/main.js",
        "dist/client/index.d.ts",
        "dist/emulator/cli.js",
      ])
        expect(packed, f).toContain(f);
      // Besides dist/: the README and the pages it links (docs/, the changelog, the contributing guide, the
      // emulator's and the engine stand-in's READMEs, the examples), the licence, the manifest, the
      // resource plugin's executable and the package schema it serves; no source, test or tool code.
      const others = packed.filter((f) => !/^(dist|docs|examples)\//.test(f)).sort();
      expect(others).toEqual([
        "CHANGELOG.md",
        "CONTRIBUTING.md",
        "LICENSE",
        "README.md",
        "bin/pulumi-resource-grouproles",
        "emulator/README.md",
        "package.json",
        "schema.json",
        "tools/engine/README.md",
        "tools/pulumi-cli/README.md",
      ]);
      expect(packed.filter((f) => f.startsWith("examples/") && !/\.(ts|json|yaml|yml|md)$/.test(f))).toEqual([]);
      expect(packed).toContain("docs/group-roles.md");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * The README's program, its blocks and the examples, each a TypeScript project of its own in the installed
 * project, type-checked in one `tsc --build` (each with its own tsconfig; one process parses the
 * installed packages' declarations once for all, instead of once per project). Made once, on first use.
 */
const EXAMPLES = ["quickstart", "group-catalogue", "import-existing", "visitor-presence"] as const;
let typeChecked: { output: string; status: number | null; program: string; blocks: string[] } | undefined;

/** `tsc --build --noEmit` of `projects` (directories of the installed project), from that project. */
function tscBuild(projects: string[]): { output: string; status: number | null } {
  const project = inject("installedProject");
  const tsc = path.join(project, "node_modules/typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "--build", "--noEmit", ...projects], { cwd: project, encoding: "utf8" });
  return { output: r.stdout + r.stderr, status: r.status };
}

function typeCheckAll(): NonNullable<typeof typeChecked> {
  if (typeChecked) return typeChecked;
  const project = inject("installedProject");
  const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  // The plugin page's program too (docs/package.md), which imports the package entry.
  const pluginPage = readFileSync(path.resolve(__dirname, "../../docs/package.md"), "utf8");
  blocks.push(...[...pluginPage.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!));
  const program = readme.slice(readme.indexOf("## A first program")).match(/```ts\n([\s\S]*?)```/)?.[1];
  const tsconfig = /`tsconfig\.json`[^\n]*:\n\n```json\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(program).toBeDefined();
  expect(tsconfig).toBeDefined();
  const dir = path.join(project, "readme-program");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "index.ts"), program!);
  writeFileSync(path.join(dir, "tsconfig.json"), tsconfig!);
  // Every block as a module of its own (each imports what it uses), all in one compilation with the
  // README's compiler options: an error names its block's file.
  const blocksDir = path.join(project, "readme-blocks");
  mkdirSync(blocksDir, { recursive: true });
  const options = (JSON.parse(tsconfig!) as { compilerOptions?: unknown }).compilerOptions;
  const files = blocks.map((block, i) => {
    writeFileSync(path.join(blocksDir, `block-${i + 1}.ts`), `${block}\nexport {};\n`);
    return `block-${i + 1}.ts`;
  });
  writeFileSync(path.join(blocksDir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }));
  for (const example of EXAMPLES)
    cpSync(path.resolve(__dirname, "../../examples", example), path.join(project, `example-${example}`), {
      recursive: true,
    });
  const r = tscBuild(["readme-program", "readme-blocks", ...EXAMPLES.map((e) => `example-${e}`)]);
  typeChecked = { ...r, program: program!, blocks };
  return typeChecked;
}

/** The lines of tsc's output about files of the project directory `dir`. */
const linesAbout = (output: string, dir: string) => output.split("\n").filter((l) => l.startsWith(`${dir}/`));
/** tsc failed only where one of the projects' files has an error (a test names it), never elsewhere. */
const failedInAProject = (output: string) =>
  ["readme-program", "readme-blocks", ...EXAMPLES.map((e) => `example-${e}`)].some(
    (dir) => linesAbout(output, dir).length > 0,
  );

describe("the README's first program", () => {
  it("and every other TypeScript block of the README and docs/package.md compile as written, with its tsconfig, against the installed package", () => {
    const { output, status, program, blocks } = typeCheckAll();
    expect(linesAbout(output, "readme-program")).toEqual([]);
    expect(linesAbout(output, "readme-blocks")).toEqual([]);
    expect(status === 0 || failedInAProject(output), output).toBe(true);
    // The same set-ups refuse a program that does not type-check: the checks are real.
    const project = inject("installedProject");
    writeFileSync(
      path.join(project, "readme-program", "index.ts"),
      `${program}\nconst wrong: number = support.roleId;\n`,
    );
    writeFileSync(
      path.join(project, "readme-blocks", "block-1.ts"),
      `${blocks[0]}\nconst wrong: number = "not a number";\n`,
    );
    const refused = tscBuild(["readme-program", "readme-blocks"]);
    expect(refused.status).not.toBe(0);
    expect(linesAbout(refused.output, "readme-program").join("\n")).toContain("index.ts");
    expect(linesAbout(refused.output, "readme-blocks").join("\n")).toContain("block-1.ts");
  });
});

describe("the examples, copied out of the repository", () => {
  it.each(EXAMPLES)("%s type-checks with its own tsconfig against the installed package", (example) => {
    const { output, status } = typeCheckAll();
    expect(linesAbout(output, `example-${example}`)).toEqual([]);
    expect(status === 0 || failedInAProject(output), output).toBe(true);
  });
});

describe("dist/", () => {
  it("is built from the current sources (the global setup rebuilds it on every run)", () => {
    const root = path.resolve(__dirname, "../..");
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const dry = execFileSync(process.execPath, [tsc, "-b", "tsconfig.json", "--dry"], { cwd: root, encoding: "utf8" });
    expect(dry).not.toMatch(/would build/);
  });
});
