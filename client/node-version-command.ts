/**
 * Imported first by the commands (`grouproles-emulator`, the resource plugin): on a Node.js too old for
 * this package, the command prints the one message that says so and exits with status 1, with no stack
 * trace (./node-version-rule).
 */
import { nodeVersionProblem } from "./node-version-rule";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
