/**
 * Errors of the providers, beside the client's: a write the service accepted but did not apply as
 * declared, an import that does not match, and how an operation puts what it was doing in front of a
 * client error without changing its class.
 */
import { GroupRolesError } from "../../client/errors";
import { AuthenticationError, ForbiddenError } from "../../client/status-errors";
import { deploymentLedger } from "./deployment-ledger";

/** A write the service accepted but did not apply as declared (a setting it ignored, say). */
export class RoleNotAppliedError extends GroupRolesError {
  readonly code = "ERR_ROLE_NOT_APPLIED";
}

/** The `import` option named a role that differs from what the program declares. */
export class ImportMismatchError extends GroupRolesError {
  readonly code = "ERR_IMPORT_MISMATCH";
}

/**
 * Said beside a refused credential when no Check of the program ran in this deployment (a `refresh`, a
 * `destroy`, or the refresh of `up --refresh`): Pulumi then configures the provider from the settings
 * the last `up` recorded in state, not from today's stack config (deployment.go `EnsureProvider`), so
 * after a rotation the old credential is the one refused, and "check that it is valid" misleads.
 */
export const STATE_SETTINGS_HINT =
  "If this is `pulumi refresh` or `pulumi destroy` after the credentials changed: those configure the provider " +
  "from the settings the last `pulumi up` recorded in state, not from today's stack config; run `pulumi up` " +
  'first (it records them), or add `--run-program` (docs/configuration.md, "Rotating")';

/** A client error with what the operation was doing in front; other errors pass through. */
export function inContext(error: unknown, what: string): Error {
  if (error instanceof GroupRolesError) {
    const refused = error instanceof AuthenticationError || error instanceof ForbiddenError;
    const hint = refused && deploymentLedger().run.refreshing ? `. ${STATE_SETTINGS_HINT}` : "";
    return error.rephrase(`${what}: ${error.message}${hint}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * `error` without its stack trace when it is one of this package's (a refusal, a service error): the
 * dynamic-provider host prints every failed call to stderr as `${e}: ${e.stack}`
 * (@pulumi/pulumi cmd/dynamic-provider/index.js), which Pulumi shows under the stack, so a refusal read
 * as its text twice followed by frames of this package's sources, as if it had crashed. Its code stands
 * in for the trace. Any other error (a bug) keeps its trace: that is what a bug report needs.
 */
export function withoutTrace(error: unknown): unknown {
  if (error instanceof GroupRolesError)
    Object.defineProperty(error, "stack", { value: `[${error.code}]`, writable: true, configurable: true });
  return error;
}

type Method = (...args: never[]) => unknown;

/** The methods whose failures the dynamic-provider host prints before returning them (see {@link unechoed}). */
const ECHOED = new Set(["check", "diff", "read", "delete"]);

/**
 * `provider` with each method's errors passed through {@link withoutTrace}, for the dynamic-provider
 * host, and this package's errors kept out of the host's stderr ({@link unechoed}).
 */
export function withoutTraces<P extends Record<string, Method>>(provider: P): P {
  const wrap =
    <M extends Method>(name: string, method: M) =>
    async (...args: Parameters<M>) => {
      try {
        return await method(...args);
      } catch (error) {
        const bare = withoutTrace(error);
        if (ECHOED.has(name) && bare instanceof GroupRolesError) unechoed(bare);
        throw bare;
      }
    };
  return Object.fromEntries(
    Object.entries(provider).map(([name, method]) => [name, wrap(name, method)]),
  ) as unknown as P;
}

/** Lines of this package's errors the host is about to print, with how many times each. */
const echoes = new Map<string, number>();
let filtering = false;

/**
 * The dynamic-provider host prints a failed check, diff, read or delete to stderr as `${e}: ${e.stack}`
 * before it returns the error (@pulumi/pulumi cmd/dynamic-provider/index.js, each method's `catch`), and
 * Pulumi shows a plugin's stderr under the stack: every refusal read twice, once under the stack and once
 * under its resource (issue 53). So the host's `console.error` drops that exact line of this package's
 * errors, once each (the host prints it in the same turn as the rejection; nothing is timed). The error
 * itself still reaches the engine, which shows it under its resource; any other line (a bug's trace,
 * another provider's output) passes unchanged. Only in the host's process: the plugin prints nothing.
 */
function unechoed(error: GroupRolesError): void {
  const line = `${error}: ${error.stack}`;
  echoes.set(line, (echoes.get(line) ?? 0) + 1);
  if (filtering) return;
  filtering = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const n = args.length === 1 && typeof args[0] === "string" ? echoes.get(args[0]) : undefined;
    if (n === undefined) return print(...args);
    if (n > 1) echoes.set(args[0] as string, n - 1);
    else echoes.delete(args[0] as string);
  };
}
