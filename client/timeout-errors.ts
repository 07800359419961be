/**
 * The errors of a request that ran out of time: one class per phase (connecting, the reply's headers,
 * its body) and the deadline of the whole call. The base class and every other kind: ./errors.
 */
import { GroupRolesError, type GroupRolesErrorOptions, type RequestInfo } from "./errors";

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
/** No connection within the connect timeout: the service never saw the request. */
export class ConnectTimeoutError extends TimeoutError {
  readonly code = "ERR_CONNECT_TIMEOUT";
  readonly phase = "connect";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("connection", timeoutMs, options);
  }
}
/** No reply headers within the headers timeout: the service may have acted. */
export class HeadersTimeoutError extends TimeoutError {
  readonly code = "ERR_HEADERS_TIMEOUT";
  readonly phase = "headers";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("reply headers", timeoutMs, options);
  }
}
/** The reply body stalled longer than the body timeout: the service has acted. */
export class BodyTimeoutError extends TimeoutError {
  readonly code = "ERR_BODY_TIMEOUT";
  readonly phase = "body";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("reply body", timeoutMs, options);
  }
}

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
