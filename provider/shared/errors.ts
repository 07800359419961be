/**
 * Errors of the providers, beside the client's: a write the service accepted but did not apply as
 * declared, an import that does not match, and how an operation puts what it was doing in front of a
 * client error without changing its class.
 */
import { GroupRolesError } from "../../client/errors";

/** A write the service accepted but did not apply as declared (a setting it ignored, say). */
export class RoleNotAppliedError extends GroupRolesError {
  readonly code = "ERR_ROLE_NOT_APPLIED";
}

/** The `import` option named a role that differs from what the program declares. */
export class ImportMismatchError extends GroupRolesError {
  readonly code = "ERR_IMPORT_MISMATCH";
}

/** A client error with what the operation was doing in front; other errors pass through. */
export function inContext(error: unknown, what: string): Error {
  if (error instanceof GroupRolesError) return error.withContext(what);
  return error instanceof Error ? error : new Error(String(error));
}
