// TEST INFRASTRUCTURE (engine stand-in): the environment of the processes the stand-in starts.

/**
 * This process's environment without an outer Pulumi run's settings (or vitest's), plus `extra`.
 * `NODE_COMPILE_CACHE` passes through: the tests and the simulation set it (vitest.config.mts,
 * tools/simulate/index.ts) and ./flush-compile-cache.js makes provider hosts write it; the benchmarks
 * leave it unset, so they measure starts as a user's `pulumi up` pays them.
 */
export function cleanEnv(extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("PULUMI_") && !k.startsWith("VITEST")) env[k] = v;
  }
  return { ...env, ...extra };
}
