/**
 * How test programs run through the engine stand-in: "inline" (the default), as Automation API inline
 * programs in one process per test file (tools/engine/inline-host.ts: Pulumi's own LanguageServer, the
 * packages loaded once), or "process", a new `cmd/run` process per operation as the CLI's language
 * host starts it (`E2E_PROGRAM=process npx vitest run <file>`; docs/development.md). The examples'
 * suites run inline too (TypeScript, compiled by ts-node in the host as `cmd/run` compiles it); the
 * suites about the program's own process always run through `cmd/run`.
 */
import path from "node:path";
import { afterAll } from "vitest";
import { InlineProgramHost } from "../../tools/engine";

export type ProgramRunner = "inline" | "process";

export function defaultRunner(): ProgramRunner {
  const chosen = process.env.E2E_PROGRAM ?? "inline";
  if (chosen !== "inline" && chosen !== "process")
    throw new Error(`E2E_PROGRAM must be one of inline, process, got ${chosen}`);
  return chosen;
}

/** A host for the programs of `programDir`: it must load the @pulumi/pulumi those programs load. */
export function inlineHostFor(programDir: string): InlineProgramHost {
  return new InlineProgramHost(path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] })));
}

/**
 * One host for the test file that imports this (vitest loads modules per file), started on first use
 * and stopped when the file's tests end.
 */
let fileHost: InlineProgramHost | undefined;
afterAll(() => fileHost?.close());

export function fileInlineHost(programDir: string): InlineProgramHost {
  fileHost ??= inlineHostFor(programDir);
  return fileHost;
}
