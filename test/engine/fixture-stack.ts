// TEST INFRASTRUCTURE: a throwaway stack of the `fixtures/items` program for the engine's own tests.

import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, onTestFinished } from "vitest";
import { type EngineOptions, type EngineResult, runEngine } from "../../tools/engine";
import { type ProgramRunner, defaultRunner, fileInlineHost } from "../support/program-runner";
import type { Checkpoint } from "../../tools/engine/state";

export interface ItemSpec {
  name: string;
  props?: Record<string, unknown>;
  opts?: {
    protect?: boolean;
    retainOnDelete?: boolean;
    deleteBeforeReplace?: boolean;
    ignoreChanges?: string[];
    replaceOnChanges?: string[];
    import?: string;
    aliases?: Array<{ name?: string }>;
    dependsOn?: string[];
    /** Name of a `component: true` entry declared earlier. */
    parent?: string;
  };
  /** A ComponentResource of type `fixture:index:Group` instead of an item. */
  component?: boolean;
  /** Read an existing item with `Item.get(name, id)` instead of declaring it. */
  get?: string;
}

export interface StoreFile {
  nextId: number;
  items: Record<string, { value?: string; group?: string }>;
  log: Array<{ op: string; id: string }>;
  tokenLength?: number | null;
  tokenStartsWith?: string | null;
  maxActive?: number;
}

export const FIXTURE_DIR = path.join(__dirname, "fixtures", "items");
export const TOKEN = "tok-9f8e7d6c5b4a";

/** The folder of every stack made in this test file, so a file can check none was left behind. */
export const stackDirs: string[] = [];

/** Removes `dir` when the current test ends, or, for a stack made at describe level, when the file's tests end. */
function removeWhenDone(dir: string): void {
  stackDirs.push(dir);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove); // not inside a test
  }
}

/**
 * A stack of the fixture program. It runs inline, in the test file's one host (see ProgramRunner),
 * unless `runner` (or `E2E_PROGRAM`) says "process": tests about the program's own process use that.
 */
export function fixtureStack(runner: ProgramRunner = defaultRunner()) {
  const inlineHost = runner === "inline" ? fileInlineHost(FIXTURE_DIR) : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "engine-stand-in-"));
  removeWhenDone(dir);
  const stateFile = path.join(dir, "state.json");
  const storeFile = path.join(dir, "store.json");
  return {
    dir,
    stateFile,
    storeFile,
    run(
      operation: EngineOptions["operation"],
      spec: ItemSpec[] = [],
      extra: Partial<EngineOptions> = {},
    ): Promise<EngineResult> {
      return runEngine({
        operation,
        programDir: FIXTURE_DIR,
        stack: "dev",
        stateFile,
        secretConfig: { "fixture:token": TOKEN },
        ...(inlineHost ? { inlineHost } : {}),
        ...extra,
        // The spec and store always; `extra.config` adds to them.
        config: { "fixture:spec": JSON.stringify(spec), "fixture:store": storeFile, ...extra.config },
      });
    },
    store(): StoreFile {
      return JSON.parse(readFileSync(storeFile, "utf8")) as StoreFile;
    },
    stateText(): string {
      return existsSync(stateFile) ? readFileSync(stateFile, "utf8") : "";
    },
    state(): Checkpoint {
      return JSON.parse(readFileSync(stateFile, "utf8")) as Checkpoint;
    },
    /** Item names in the checkpoint, in order. */
    names(): string[] {
      if (!existsSync(stateFile)) return [];
      return this.state()
        .resources.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:"))
        .map((r) => r.urn.split("::").pop() ?? "");
    },
  };
}

export const ITEM = "pulumi-nodejs:dynamic/fixture:Item";
export const STACK_LINE = "+ create  pulumi:pulumi:Stack engine-fixture-dev";
