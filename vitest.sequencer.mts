/**
 * The order test files start in: longest first, so that no long file starts last and runs alone at
 * the end of the run (on 2 cores the whole run is as long as its busiest worker).
 *
 * vitest orders by the durations it cached in node_modules/.vite, which a fresh clone (CI) does not
 * have: it then falls back to file size, which says little here (an e2e file of a few kilobytes runs
 * a minute of engine operations). So the durations of a whole run are kept in test/durations.json
 * (`node scripts/test-durations.js` after `npm test` updates it) and used first; a file it does not
 * list runs first (it may be long), then vitest's own order breaks ties.
 *
 * Both projects' files are one queue (they share `groupOrder` and `maxWorkers`, so vitest runs them
 * side by side): a long packaged file must not wait for every other file to start. The packaged ones
 * wait for the tarball's install before their first test (test/support/packed-ready.ts), which by
 * their turn has usually ended.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = import.meta.dirname;

function recordedSeconds(): Map<string, number> {
  try {
    const recorded = JSON.parse(readFileSync(path.join(root, "test/durations.json"), "utf8")) as Record<string, number>;
    return new Map(Object.entries(recorded));
  } catch {
    return new Map();
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recordedSeconds();
    const cachedOrder = await super.sort(files);
    const rank = new Map(cachedOrder.map((f, i) => [f, i]));
    const weight = (f: TestSpecification) => seconds.get(path.relative(root, f.moduleId)) ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => weight(b) - weight(a) || rank.get(a)! - rank.get(b)!);
  }
}
