/**
 * One attempt of a call: the request sent once within what is left of the call's deadline, its reply
 * read up to the cap (./reply-limits) and parsed with zod, and every failure turned into one of the
 * typed errors (see ./transport-errors). The retries around it, the tokens and the budget: ./transport.
 */
import { GroupRolesError, UnexpectedReplyError, type RequestInfo } from "./errors";
import { agentFor } from "./connection-pool";
import { DEFAULT_MAX_REPLY_BYTES, readCapped } from "./reply-limits";
import { DeadlineExceededError } from "./timeout-errors";
import { DEFAULT_TIMEOUTS } from "./timeouts";
import type { CallOptions, TransportOptions } from "./transport";
import { httpError, transportError } from "./transport-errors";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version";

/** The deadline of one call, which its attempts share. */
export interface CallDeadline {
  /** When it ends, on the `now` clock. */
  at: number;
  /** Its length (`deadlineMs`). */
  ms: number;
  started: number;
  now: () => number;
  /** Attempts made so far. */
  attempts: number;
}

/** Sends `call` once, with `token` (if any) as its bearer, and returns its reply parsed. */
export async function sendAttempt<T>(
  call: CallOptions<T>,
  token: string | undefined,
  callDeadline: CallDeadline,
  options: TransportOptions,
): Promise<T> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts, ...call.timeouts };
  const info: RequestInfo = { method: call.method, path: call.path, origin: call.origin };
  const agent = agentFor(timeouts.connectMs, options.maxConnections ?? 16);
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.versions.node}${options.userAgentSuffix ? ` ${options.userAgentSuffix}` : ""}`,
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
    const maxBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
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
