/**
 * The retry decision, as pure functions: what to retry, and how long to wait. Unit-tested on their own;
 * the transport only carries them out.
 */

/** Retry settings. Every field has a default; per-call options override client-wide ones. */
export interface RetryOptions {
  /**
   * Attempts in total, the first one included.
   * @default 4
   */
  maxAttempts?: number;
  /**
   * Delay before the first retry, doubled for each further one.
   * @default 250
   */
  baseDelayMs?: number;
  /**
   * Upper bound of the computed backoff delay.
   * @default 8000
   */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client will honour; a reply asking for longer fails instead of waiting.
   * @default 60000
   */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Status codes that say "try again later" without the request having been applied. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** What happened on one attempt, as the retry decision needs it. */
export type AttemptOutcome =
  | { kind: "status"; status: number; retryAfterMs?: number }
  /** No reply. `requestSent` false means the service certainly never saw the request. */
  | { kind: "connection"; requestSent: boolean }
  | { kind: "timeout"; phase: "connect" | "headers" | "body" | "total" }
  /** A reply that was not JSON or not of the documented shape. */
  | { kind: "malformed" };

export interface RetryInput {
  outcome: AttemptOutcome;
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * True when repeating the request cannot apply it twice (GET, PUT of full roles, delete-roles).
   * Role creation is not idempotent: it is retried only when the service certainly did not act.
   */
  idempotent: boolean;
  options?: RetryOptions;
  /** A number in [0, 1); injected so tests are deterministic. */
  random?: () => number;
  /**
   * Time left before the call's deadline (`deadlineMs`, which bounds the whole call, retries and waits
   * included), when the attempt ended. A retry whose wait leaves less than {@link MIN_ATTEMPT_MS} of it
   * is not made. Undefined: no deadline is taken into account.
   */
  remainingMs?: number;
}

/**
 * The least time a retry must have left after its wait: one second, enough for a loopback or LAN
 * round trip; an attempt with less would only fail with the deadline, having sent a request for nothing.
 */
export const MIN_ATTEMPT_MS = 1000;

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Decides whether to retry after a failed attempt, and after what delay.
 *
 * - 429/502/503/504 and dropped connections are retried for idempotent requests.
 * - A non-idempotent request (role creation) is retried only when the service certainly did not act on
 *   it: a 429 (refused before processing) or a failure to connect. Anything else is left to the caller,
 *   which must find out what happened (the Role provider lists the group's roles and adopts).
 * - `Retry-After` wins over the computed backoff, up to `maxRetryAfterMs`; longer waits are not retried.
 */
export function shouldRetry(input: RetryInput): RetryDecision {
  const decision = retryRule(input);
  if (!decision.retry || input.remainingMs === undefined) return decision;
  const left = input.remainingMs - decision.delayMs;
  if (left >= MIN_ATTEMPT_MS) return decision;
  return {
    retry: false,
    reason:
      `the deadline (deadlineMs) leaves ${formatSeconds(Math.max(0, input.remainingMs))}, too little for another ` +
      `attempt after a ${formatSeconds(decision.delayMs)} wait`,
  };
}

const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The decision as the outcome and the options make it, before the deadline is taken into account. */
function retryRule(input: RetryInput): RetryDecision {
  const opts = { ...DEFAULT_RETRY, ...input.options };
  if (input.attempt >= opts.maxAttempts) {
    return { retry: false, reason: `gave up after ${input.attempt} attempt${input.attempt === 1 ? "" : "s"}` };
  }
  const { outcome } = input;
  const certainlyNotApplied =
    (outcome.kind === "status" && outcome.status === 429) ||
    (outcome.kind === "connection" && !outcome.requestSent) ||
    (outcome.kind === "timeout" && outcome.phase === "connect");
  if (!input.idempotent && !certainlyNotApplied) {
    return { retry: false, reason: "the request is not idempotent and may have been applied" };
  }
  if (outcome.kind === "status" && !RETRYABLE_STATUS.has(outcome.status)) {
    return { retry: false, reason: `status ${outcome.status} is not retryable` };
  }
  if (outcome.kind === "status" && outcome.retryAfterMs !== undefined) {
    if (outcome.retryAfterMs > opts.maxRetryAfterMs) {
      return {
        retry: false,
        reason: `the service asked to wait ${Math.ceil(outcome.retryAfterMs / 1000)} s, more than the ${Math.ceil(opts.maxRetryAfterMs / 1000)} s cap`,
      };
    }
    return { retry: true, delayMs: Math.max(0, outcome.retryAfterMs) };
  }
  return { retry: true, delayMs: backoffDelay(input.attempt, opts, input.random ?? Math.random) };
}

/**
 * Capped exponential backoff with "equal jitter": half the step is fixed, half random, so retries of
 * many parallel callers spread out but never collapse to zero.
 */
export function backoffDelay(attempt: number, options: RetryOptions = {}, random: () => number = Math.random): number {
  const opts = { ...DEFAULT_RETRY, ...options };
  const step = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Parses a `Retry-After` header: delta-seconds or an HTTP date. Returns milliseconds from `now`, or
 * undefined when absent or unreadable (then the computed backoff applies).
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
