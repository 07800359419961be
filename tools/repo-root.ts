import { existsSync } from "node:fs";
import path from "node:path";

/**
 * This checkout: the nearest directory at or above `from` that holds the real-CLI installer. Tools run
 * from their sources (vitest) and compiled (.tmp/tools/...), so a fixed `../..` would be wrong in one of them.
 */
export function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "scripts", "install-pulumi-cli.js"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no checkout of pulumi-grouproles above ${from}`);
  }
}

export const repoRoot = findRepoRoot(__dirname);
