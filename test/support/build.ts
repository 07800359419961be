/**
 * Global setup of every suite: builds dist/ (engine, e2e, SDK and secrets tests load it, and a single
 * test file run after an edit must not test stale code; build mode with its tsbuildinfo makes a no-op
 * build take about a second) and links node_modules/pulumi-grouproles to this checkout (programs run
 * from it import the package by name; see scripts/link-self.js).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

export default function setup(): void {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.json"], {
    cwd: root,
    stdio: "inherit",
  });
  execFileSync(process.execPath, [path.join(root, "scripts/link-self.js")]);
}
