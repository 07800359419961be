/**
 * HTTP transport: undici's Agent (a connection pool per origin, ./connection-pool), per-phase timeouts,
 * bounded retries, JSON replies parsed with zod, and every failure turned into one of the typed errors
 * of `./errors` (see ./transport-errors). Here: a call, with its retries, its tokens and its place in
 * the request budget; each attempt (one request and its reply) is ./request-attempt.
 */
import type { z } from "zod";
import type { ServiceName, TokenSource } from "./credentials";
import { ConnectionError, GroupRolesError, UnexpectedReplyError } from "./errors";
import { AuthenticationError, ForbiddenError } from "./status-errors";
import { TimeoutError } from "./timeout-errors";
import { RateBudget, type Release } from "./rate-budget";
import { sendAttempt } from "./request-attempt";
import { DEFAULT_RETRY, shouldRetry, type AttemptOutcome, type RetryOptions } from "./retry";
import type { Seams } from "./seams";
import { DEFAULT_TIMEOUTS, type TimeoutOptions } from "./timeouts";

export { DEFAULT_TIMEOUTS, type TimeoutOptions } from "./timeouts";

export interface TransportOptions {
  /** Where the bearer token of each request comes from (per group and service). */
  tokens: TokenSource;
  timeouts?: TimeoutOptions;
  retry?: RetryOptions;
  /**
   * Most concurrent connections per origin.
   * @default 16
   */
  maxConnections?: number;
  /** Appended to the User-Agent, e.g. the caller's tool name. */
  userAgentSuffix?: string;
  /**
   * Most requests started per second, per origin (a token bucket with a burst of 1, so requests are
   * evenly paced). Retries count too. Requests over the budget wait in a queue, first come first
   * served; a 429 with `Retry-After` also holds the queue for that long.
   * @default unlimited
   */
  maxRequestsPerSecond?: number;
  /**
   * Largest reply body read, in bytes; a larger one fails with `ReplyTooLargeError` as soon as the
   * cap is passed (or at once, from its Content-Length). See ./reply-limits for the derivation.
   * @default 51200000 (the list of a 10,000-role group, 5 KiB per role)
   */
  maxReplyBytes?: number;
  /**
   * Most requests in flight at once, per origin; more wait in the same queue.
   * @default unlimited (the pool's `maxConnections` still bounds sockets)
   */
  maxConcurrentRequests?: number;
}

/** One call through the transport. */
export interface CallOptions<T> {
  method: "GET" | "POST" | "PUT";
  origin: string;
  /** Path with query, already encoded. */
  path: string;
  body?: unknown;
  /** Schema of a successful reply; `undefined` accepts any body, including none. */
  schema?: z.ZodType<T>;
  /** See `shouldRetry`: only idempotent calls are retried after the service may have acted. */
  idempotent: boolean;
  /**
   * The group and service whose token goes in `Authorization: Bearer`. Absent: no Authorization
   * header at all (the authorization request, which carries its credential in the body).
   */
  bearer?: { groupId: number; service: ServiceName };
  retry?: RetryOptions;
  timeouts?: TimeoutOptions;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Transport {
  private readonly options: TransportOptions;
  private readonly budgets = new Map<string, RateBudget>();

  constructor(
    options: TransportOptions,
    private readonly seams: Seams = {},
  ) {
    this.options = options;
  }

  /** The request budget of `origin`, or undefined when no limit is configured. */
  private budget(origin: string): RateBudget | undefined {
    const { maxRequestsPerSecond, maxConcurrentRequests } = this.options;
    if (maxRequestsPerSecond === undefined && maxConcurrentRequests === undefined) return undefined;
    let budget = this.budgets.get(origin);
    if (!budget) {
      budget = new RateBudget({
        maxRequestsPerSecond,
        maxConcurrentRequests,
        ...(this.seams.now ? { now: this.seams.now } : {}),
        ...(this.seams.sleep ? { sleep: this.seams.sleep } : {}),
      });
      this.budgets.set(origin, budget);
    }
    return budget;
  }

  /**
   * Sends a request, retrying as `shouldRetry` decides, and returns the parsed reply. The token is
   * taken once the request has its place in the budget, so a wait in the queue never sends an expired
   * one (fetching a token retries on its own, and its failures are final here); a 401 makes a source
   * that fetches tokens fetch a fresh one, once, and the request is sent again.
   */
  async call<T>(call: CallOptions<T>): Promise<T> {
    const retry = { ...DEFAULT_RETRY, ...this.options.retry, ...call.retry };
    const sleep = this.seams.sleep ?? defaultSleep;
    const budget = this.budget(call.origin);
    const { tokens } = this.options;
    const bearer = call.bearer;
    let renewed = false;
    // The deadline bounds the whole call: every attempt, the waits between them and in the budget. It is
    // real time (as the timer that aborts an attempt), not the `now` seam tests move to expire tokens.
    const now = Date.now;
    const deadlineMs = { ...DEFAULT_TIMEOUTS, ...this.options.timeouts, ...call.timeouts }.deadlineMs;
    const started = now();
    const deadline = { at: started + deadlineMs, ms: deadlineMs, started, now, attempts: 0 };
    for (let attempt = 1; ; attempt++) {
      // Each attempt takes its own slot; the wait before a retry holds none.
      const release: Release | undefined = await budget?.acquire();
      let token: string | undefined;
      try {
        token = bearer ? await tokens.token(bearer.groupId, bearer.service) : undefined;
      } catch (error) {
        release?.();
        throw error;
      }
      try {
        deadline.attempts = attempt;
        return await sendAttempt(call, token, deadline, this.options);
      } catch (error) {
        if (bearer && token !== undefined && error instanceof AuthenticationError) {
          if (!renewed && tokens.renew(bearer.groupId, bearer.service, token)) {
            renewed = true;
            attempt--; // a renewal is not a retry
            continue;
          }
          throw refused(error, bearer.groupId, tokens, renewed);
        }
        if (bearer && error instanceof ForbiddenError) {
          throw error.rephrase(
            `${error.message}: ${tokens.describe(bearer.groupId)} is not granted group ${bearer.groupId}`,
          );
        }
        const outcome = error instanceof GroupRolesError ? outcomeOf(error) : undefined;
        // Pause before giving the slot back, so the next queued request does not start into the 429.
        if (budget && outcome?.kind === "status" && outcome.status === 429 && outcome.retryAfterMs !== undefined) {
          budget.pause(Math.min(outcome.retryAfterMs, retry.maxRetryAfterMs));
        }
        release?.();
        if (!(error instanceof GroupRolesError)) throw error;
        const decision = outcome
          ? shouldRetry({
              outcome,
              attempt,
              idempotent: call.idempotent,
              options: retry,
              random: this.seams.random,
              remainingMs: deadline.at - now(),
            })
          : ({ retry: false, reason: "" } as const);
        if (!decision.retry) {
          if (attempt > 1) error.attempts = attempt;
          throw error;
        }
        await sleep(decision.delayMs);
      } finally {
        release?.();
      }
    }
  }
}

/** A 401 the token source could not (or could no longer) fix: say which credential, never its value. */
function refused(
  error: AuthenticationError,
  groupId: number,
  tokens: TokenSource,
  renewed: boolean,
): AuthenticationError {
  const again = renewed ? " again, with a freshly issued token" : "";
  return error.rephrase(
    `${error.message}: the service refused ${tokens.describe(groupId)} for group ${groupId}${again}; ` +
      `check that it is valid and not expired`,
  );
}

function outcomeOf(error: GroupRolesError): AttemptOutcome | undefined {
  if (error instanceof TimeoutError) return { kind: "timeout", phase: error.phase };
  if (error instanceof ConnectionError) return { kind: "connection", requestSent: error.requestSent };
  if (error instanceof UnexpectedReplyError) return { kind: "malformed" };
  if (error.status !== undefined) {
    const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
    return { kind: "status", status: error.status, retryAfterMs };
  }
  return undefined;
}
