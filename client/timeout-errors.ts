/**
 * The errors of a request that ran out of time: one class per phase (connecting, the reply's headers,
 * its body) and the deadline of the whole call. The base class and every other kind: ./errors.
 */
import { GroupRolesError, type GroupRolesErrorCode, type GroupRolesErrorOptions, type RequestInfo } from "./errors";

/** The phase of a request that ran out of time. */
export type TimeoutPhase = "connect" | "headers" | "body" | "total";

/** A request ran out of time. `phase` says where; each phase has its class and code. */
export abstract class TimeoutError extends GroupRolesError {
  abstract readonly phase: TimeoutPhase;
  readonly timeoutMs: number;
  constructor(what: string, timeoutMs: number, options: GroupRolesErrorOptions) {
    super(`timed out after ${timeoutMs} ms waiting for the ${what}`, options);
    this.timeoutMs = timeoutMs;
  }
}
/**
 * The class of the timeout of one phase: its code, its phase, and what it waited for (the message's
 * words); made from the timeout alone. Unnamed, so it is no kind (./errors): a phase's class written
 * `class X extends phaseTimeout(...) {}` has the kinds of one that sets them itself.
 */
function phaseTimeout<const C extends GroupRolesErrorCode, const P extends TimeoutPhase>(
  code: C,
  phase: P,
  what: string,
): PhaseTimeout<C, P> {
  return class extends TimeoutError {
    readonly code: C = code;
    readonly phase: P = phase;
    constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
      super(what, timeoutMs, options);
    }
  };
}

/**
 * What phaseTimeout returns, named so that the declarations keep it whole (spelled out, its methods'
 * `this` would be lost): TimeoutError's statics, and a constructor of errors of code `C` and phase `P`.
 */
type PhaseTimeout<C, P> = Omit<typeof TimeoutError, "prototype"> &
  (new (
    timeoutMs: number,
    options: GroupRolesErrorOptions,
  ) => TimeoutError & { readonly code: C; readonly phase: P });

/** No connection within the connect timeout: the service never saw the request. */
export class ConnectTimeoutError extends phaseTimeout("ERR_CONNECT_TIMEOUT", "connect", "connection") {}
/** No reply headers within the headers timeout: the service may have acted. */
export class HeadersTimeoutError extends phaseTimeout("ERR_HEADERS_TIMEOUT", "headers", "reply headers") {}
/** The reply body stalled longer than the body timeout: the service has acted. */
export class BodyTimeoutError extends phaseTimeout("ERR_BODY_TIMEOUT", "body", "reply body") {}

/**
 * The whole request (connecting, sending, the reply's headers and its entire body) took longer than
 * the deadline: the per-phase timeouts bound each wait, this bounds their sum (a body trickled one
 * byte every few seconds never trips the body timeout). The service may have acted.
 */
export class DeadlineExceededError extends TimeoutError {
  readonly code = "ERR_DEADLINE_EXCEEDED";
  readonly phase = "total";
  /** How long the call ran, every attempt and wait included. */
  readonly elapsedMs: number;
  constructor(timeoutMs: number, request: RequestInfo, spent: { attempts: number; elapsedMs: number }) {
    super(
      `whole reply of ${request.origin ?? ""}${request.path} (the deadline, deadlineMs, bounds the whole call: ` +
        `${spent.attempts} attempt${spent.attempts === 1 ? "" : "s"} in ${(spent.elapsedMs / 1000).toFixed(1)} s)`,
      timeoutMs,
      { request },
    );
    this.attempts = spent.attempts;
    this.elapsedMs = spent.elapsedMs;
  }
}
