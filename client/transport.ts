/**
 * HTTP transport: undici's Agent (a connection pool per origin, ./connection-pool), per-phase timeouts,
 * bounded retries, JSON replies parsed with zod, and every failure turned into one of the typed errors
 * of `./errors` (see ./transport-errors).
 */
import type { z } from "zod";
import { agentFor } from "./connection-pool";
import type { ServiceName, TokenSource } from "./credentials";
import { ConnectionError, GroupRolesError, UnexpectedReplyError, type RequestInfo } from "./errors";
import { AuthenticationError, ForbiddenError } from "./status-errors";
import { DeadlineExceededError, TimeoutError } from "./timeout-errors";
import { RateBudget, type Release } from "./rate-budget";
import { DEFAULT_RETRY, shouldRetry, type AttemptOutcome, type RetryOptions } from "./retry";
import { DEFAULT_MAX_REPLY_BYTES, readCapped } from "./reply-limits";
import { httpError, transportError } from "./transport-errors";
import type { Seams } from "./seams";
import { DEFAULT_TIMEOUTS, type TimeoutOptions } from "./timeouts";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version";

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
        return await this.attempt(call, token, deadline);
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

  private async attempt<T>(call: CallOptions<T>, token: string | undefined, callDeadline: CallDeadline): Promise<T> {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...this.options.timeouts, ...call.timeouts };
    const info: RequestInfo = { method: call.method, path: call.path, origin: call.origin };
    const agent = agentFor(timeouts.connectMs, this.options.maxConnections ?? 16);
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.versions.node}${this.options.userAgentSuffix ? ` ${this.options.userAgentSuffix}` : ""}`,
    };
    // The token goes to `call.origin`, which callers take only from configuration (baseUrl, presenceUrl)
    // or from a named presence server that passed `checkNamedServer`. The authorization request goes to
    // the configured authUrl only, with no token (its credential is in the body).
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers["content-type"] = "application/json";
    }

    let statusCode: number;
    let replyHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    // The call's deadline aborts the request wherever it is: connecting, waiting, or between two chunks.
    const exceeded = () =>
      new DeadlineExceededError(callDeadline.ms, info, {
        attempts: callDeadline.attempts,
        elapsedMs: callDeadline.now() - callDeadline.started,
      });
    const left = callDeadline.at - callDeadline.now();
    if (left <= 0) throw exceeded();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), left);
    try {
      const res = await agent.request({
        origin: call.origin,
        method: call.method,
        path: call.path,
        headers,
        body,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
        signal: deadline.signal,
      });
      statusCode = res.statusCode;
      replyHeaders = res.headers;
      const maxBytes = this.options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
      text = await readCapped(res.body, res.headers["content-length"], maxBytes, info);
    } catch (error) {
      if (deadline.signal.aborted) throw exceeded();
      if (error instanceof GroupRolesError) throw error;
      throw transportError(error, info, timeouts);
    } finally {
      clearTimeout(timer);
    }

    // undici's Agent never follows redirects (that takes its redirect interceptor, which this client does
    // not use): a 3xx comes back here and is an error, so the token never travels to a `Location`.
    if (statusCode >= 300) throw httpError(statusCode, replyHeaders, text, info);
    if (!call.schema) return undefined as T;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UnexpectedReplyError(`reply ${statusCode} is not JSON (${text.length} bytes)`, undefined, {
        request: info,
        status: statusCode,
      });
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      throw new UnexpectedReplyError(`reply ${statusCode} has an unexpected shape`, parsed.error.issues, {
        request: info,
        status: statusCode,
      });
    }
    return parsed.data;
  }
}

/** The deadline of one call, which its attempts share. */
interface CallDeadline {
  /** When it ends, on the `now` clock. */
  at: number;
  /** Its length (`deadlineMs`). */
  ms: number;
  started: number;
  now: () => number;
  /** Attempts made so far. */
  attempts: number;
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
