// TEST INFRASTRUCTURE (engine stand-in): the environment of the processes the stand-in starts.
import os from "node:os";
import path from "node:path";

/**
 * Where the processes the stand-in starts keep Node's compile cache (`NODE_COMPILE_CACHE`, Node 22.1+).
 * The engine starts a provider process for every operation and most of its start is compiling
 * `@pulumi/pulumi`; the cache cuts that by about a third (0.93 s to 0.61 s of CPU for
 * `require('@pulumi/pulumi')`, measured 2026-11-28) and changes nothing else: Node checks each
 * entry against the source's hash.
 */
const COMPILE_CACHE = path.join(os.tmpdir(), "pulumi-grouproles-node-compile-cache");

/** This process's environment without an outer Pulumi run's settings (or vitest's), plus `extra`. */
export function cleanEnv(extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_COMPILE_CACHE: COMPILE_CACHE };
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("PULUMI_") && !k.startsWith("VITEST")) env[k] = v;
  }
  return { ...env, ...extra };
}
