/**
 * The Node.js this package needs, checked when an entry point is loaded (./node-version for the library,
 * ./node-version-command for the commands): on an older Node, undici
 * fails deep inside with `Cannot read properties of undefined (reading 'bind')`, which says nothing
 * about the cause. Pulumi's Node SDK 3.270 and undici 8 need Node 22; the package is tested on 22.19+.
 */

/** The oldest Node.js supported, as [major, minor]. */
export const MIN_NODE: readonly [number, number] = [22, 19];

/** Why `version` (e.g. `process.versions.node`) cannot run this package, or undefined when it can. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return (
    `pulumi-grouproles needs Node.js ${MIN_NODE.join(".")} or newer; this is Node.js ${version}. ` +
    "Pulumi's Node SDK and undici, which it uses, need Node 22 too: install Node 22 (for example with nvm or " +
    "your package manager) and run again."
  );
}
