/** The phases a request can run out of time in, and their defaults. */

/** Per-phase timeouts, in milliseconds. */
export interface TimeoutOptions {
  /**
   * Time to open the TCP (and TLS) connection.
   * @default 10000
   */
  connectMs?: number;
  /**
   * Time from sending the request to receiving the reply headers.
   * @default 30000
   */
  headersMs?: number;
  /**
   * Longest gap between two chunks of the reply body.
   * @default 30000
   */
  bodyMs?: number;
  /**
   * Deadline of a whole call: every attempt (connecting, sending, the reply's headers and its whole
   * body), the waits between retries and in the request budget. The phase timeouts above bound each
   * wait; this bounds the call, so a reply trickled a byte at a time, or a server that never answers,
   * ends it within the deadline whatever the retry policy allows. A retry starts only when, after its
   * wait, at least a second of the deadline is left (`MIN_ATTEMPT_MS`); the error then says how many
   * attempts ran and for how long (`ERR_DEADLINE_EXCEEDED`, or the last attempt's own timeout). Two
   * minutes: four times a slow list of the largest group, and short enough for a CI job's limit.
   * @default 120000
   */
  deadlineMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  deadlineMs: 120_000,
};
