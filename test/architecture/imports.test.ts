/**
 * The layering of the product code, read from its import statements: no import cycle anywhere (type-only
 * imports aside: they vanish at compile time), and no arrow running back up the layers
 * (sdk -> provider -> config -> client; the emulator beside them, using only client/). What `npx madge
 * --circular` would report, without the dependency. Read with regexes, it may count a `typeof import()`
 * or a JSDoc `import()` as an edge: a false failure at worst, never a missed import.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const FOLDERS = ["client", "config", "provider", "sdk", "emulator"] as const;
type Folder = (typeof FOLDERS)[number];

/** Folders each folder must not import from. */
const FORBIDDEN: Record<Folder, Folder[]> = {
  client: ["config", "provider", "sdk", "emulator"],
  config: ["provider", "sdk", "emulator"],
  provider: ["sdk", "emulator"],
  sdk: ["emulator"],
  emulator: ["config", "provider", "sdk"],
};

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** Relative runtime imports of a file (import ... from, export ... from, import(), require()), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gms),
    ...text.matchAll(/^\s*import\s+"(\.[^"]+)"/gm),
    ...text.matchAll(/\b(?:require|import)\(\s*"(\.[^"]+)"\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) => resolve(path.dirname(file), s)).filter((f): f is string => f !== undefined);
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.normalize(path.join(from, specifier));
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts")]) {
    try {
      readFileSync(path.join(root, candidate));
      return candidate;
    } catch {}
  }
  return undefined;
}

const graph = new Map(FOLDERS.flatMap(sources).map((f) => [f, importsOf(f)]));

/** Every cycle of the graph, as the files of one strongly connected component (Tarjan). */
function cycles(): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

describe("product code imports", () => {
  it("are read: the graph has every product file and their imports", () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(graph.get("sdk/index.ts")?.length).toBeGreaterThan(3);
  });

  it("have no cycle", () => {
    expect(cycles()).toEqual([]);
  });

  it.each(FOLDERS)("of %s/ never reach up or across to a layer it must not use", (folder) => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith(`${folder}/`))
      .flatMap(([file, deps]) =>
        deps.filter((d) => FORBIDDEN[folder].some((f) => d.startsWith(`${f}/`))).map((d) => `${file} -> ${d}`),
      );
    expect(wrong).toEqual([]);
  });
});
