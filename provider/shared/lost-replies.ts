/**
 * Replies that never came: when a write may have been applied although no usable reply came back. Role
 * and GroupRoles creates share the rule: such a create is settled by listing the group (names are
 * unique), never by sending it again; one the list does not show yet is kept unconfirmed in state.
 */
import {
  ConnectionError,
  type GroupRolesError,
  ReplyTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedReplyError,
} from "../../client/errors";

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
