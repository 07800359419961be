/**
 * Replies that never came: when a write may have been applied although no usable reply came back, and
 * how long to watch a group for a create that timed out. Role and GroupRoles creates share the rule:
 * such a create is settled by listing the group (names are unique), never by sending it again.
 */
import {
  ConnectionError,
  type GroupRolesError,
  ReplyTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedReplyError,
} from "../../client/errors";

/**
 * How long a create that timed out is watched for, after the timeout: twice the timeout, at least 3 s
 * (undici's timers fire up to about a second late, so a short timeout says little), at most 60 s.
 */
const ADOPTION_WINDOW_FLOOR_MS = 3_000;
const ADOPTION_WINDOW_CAP_MS = 60_000;

/** True when a create may have been applied although no usable reply came back. */
export function isAmbiguous(error: unknown): error is GroupRolesError {
  return (
    (error instanceof ConnectionError && error.requestSent) ||
    (error instanceof TimeoutError && error.phase !== "connect") ||
    error instanceof ServerError ||
    error instanceof UnexpectedReplyError ||
    // A reply cut at the size cap was sent after the service acted.
    error instanceof ReplyTooLargeError
  );
}

/**
 * A request that timed out may still be in the service's hands and be applied after a list that
 * does not show it: how long to watch the group for it, and how often to look.
 */
export function watchAfterTimeout(error: TimeoutError): { windowMs: number; stepMs: number } {
  return {
    windowMs: Math.min(Math.max(2 * error.timeoutMs, ADOPTION_WINDOW_FLOOR_MS), ADOPTION_WINDOW_CAP_MS),
    stepMs: Math.max(50, Math.min(error.timeoutMs / 2, 5_000)),
  };
}
