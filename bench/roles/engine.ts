/**
 * Loads the engine stand-in (test/engine, test infrastructure) for the benchmark. It is compiled by
 * `tsconfig.bench.json` into `.tmp/bench-engine/`, never into `dist/`: `dist/` is what the npm package
 * ships, and the package build must not pull test infrastructure into it. So it is loaded at run time,
 * and the part of its API the benchmark uses is declared here.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";

/** The options of `runEngine` the benchmark uses (see test/engine/index.ts). */
export interface EngineRun {
  operation: "preview" | "up" | "refresh" | "destroy";
  programDir: string;
  stack: string;
  stateFile: string;
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  env?: Record<string, string>;
  parallel?: number;
  timeoutMs?: number;
}

/** The fields of the engine's result the benchmark reads. */
export interface EngineOutcome {
  ok: boolean;
  errors: string[];
  stderr: string;
  providerHost: { peakRssBytes?: number; calls: Record<string, number> };
}

export type RunEngine = (options: EngineRun) => Promise<EngineOutcome>;

/** `runEngine` from the compiled stand-in. @param root the repository root */
export function loadEngine(root: string): RunEngine {
  const file = path.join(root, ".tmp/bench-engine/test/engine/index.js");
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build it with \`tsc -p tsconfig.bench.json\` (npm run bench does)`);
  }
  const engine = require(file) as { runEngine?: unknown };
  if (typeof engine.runEngine !== "function") throw new Error(`${file} does not export runEngine`);
  return engine.runEngine as RunEngine;
}
