/**
 * Imported first by every library entry point: on a Node.js too old for this package, loading it fails
 * with one message that says so (./node-version-rule), not with undici's failure deep inside.
 */
import { nodeVersionProblem } from "./node-version-rule";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  const error = new Error(problem);
  // The message is the whole story: frames of the module loader would only bury it.
  error.stack = `Error: ${problem}`;
  throw error;
}
