// npm run mutation [-- <part> ...]: StrykerJS mutants of one part of the code at a time, against the
// fast suites (vitest.stryker.config.mts). One part per run keeps each run under an hour on 2 cores;
// each part has its own report (reports/mutation/<part>.json) and incremental file, so a later run
// re-tests only mutants whose code or covering tests changed. Scores: docs/mutation.md.
// The part comes from MUTATION_PART (scripts/mutation.js sets it).

/** What each part mutates. The emulator part is its service rules: what it checks and stores. */
export const PARTS = {
  client: ["client/**/*.ts", "!client/version.ts"],
  // The client's core paths alone (tokens: fetch, cache, renewal, login keys; redaction; the service's
  // rules; retries): a quarter of the client's mutants, for a run under 20 minutes. Not in the full set.
  "client-core": [
    "client/authorization.ts",
    "client/credentials.ts",
    "client/redact.ts",
    "client/rules.ts",
    "client/retry.ts",
  ],
  // The coordination code of cross-resource decisions (issue 41): the ledger's parts, the rules over
  // them, the program's structure, the provider protocol both resources share, the held-name rule, and
  // the intents each resource declares (issue 55).
  // Overlaps provider-shared and provider-role; not in the full set.
  coordination: [
    "provider/shared/deployment-ledger.ts",
    "provider/shared/registrations.ts",
    "provider/shared/run-state.ts",
    "provider/shared/declarations.ts",
    "provider/shared/role-creates.ts",
    "provider/shared/exclusives.ts",
    "provider/shared/name-rules.ts",
    "provider/shared/resource-protocol.ts",
    "provider/shared/structure.ts",
    "provider/shared/registration-order.ts",
    "provider/shared/intent.ts",
    "provider/shared/group-view.ts",
    "provider/role/held-names.ts",
    "provider/role/declaration.ts",
    "provider/group-roles/declaration.ts",
  ],
  config: ["config/**/*.ts"],
  // The resource plugin's property values on the wire (its handlers run only under an engine: e2e suites).
  "plugin-wire": ["provider/plugin/struct-wire.ts", "provider/plugin/lean-wire.ts", "provider/plugin/values.ts"],
  "provider-role": ["provider/role/**/*.ts", "provider/index.ts"],
  "provider-shared": ["provider/shared/**/*.ts"],
  "provider-group-roles": ["provider/group-roles/**/*.ts"],
  emulator: [
    "emulator/service-rules.ts",
    "emulator/store.ts",
    "emulator/roles-api.ts",
    "emulator/authorization.ts",
    "emulator/auth.ts",
  ],
};

const part = process.env.MUTATION_PART ?? "client";
if (!PARTS[part]) throw new Error(`MUTATION_PART must be one of ${Object.keys(PARTS).join(", ")}, got ${part}`);

/**
 * The score a part must keep (a later run below it fails): what it reached when last measured, rounded
 * down (docs/mutation.md).
 */
const BREAK = {
  client: 79,
  "client-core": 88,
  coordination: 87,
  config: 79,
  "plugin-wire": 96,
  "provider-role": 78,
  "provider-shared": 73,
  "provider-group-roles": 81,
  emulator: 94,
};

export default {
  $schema: "./node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.mts" },
  mutate: PARTS[part],
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  // Two runners keep 2 cores busy for the CPU-bound parts; parts whose tests wait on real timers
  // (provider-role: the adoption watch, the ledger's quiet periods) go faster with more:
  // MUTATION_CONCURRENCY=4 npm run mutation -- provider-role.
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${part}.json`,
  timeoutMS: 10000,
  tempDirName: ".tmp/stryker",
  // Not copied into the sandbox: caches the tests never read there (the CLI build, the Python venv, whose
  // lib64 symlink stops the copy) and outputs of other runs.
  ignorePatterns: [".cache", "dist-plugin", "test-results", "reports"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${part}.html` },
  jsonReporter: { fileName: `reports/mutation/${part}.json` },
  thresholds: { high: 80, low: 60, break: BREAK[part] },
};
