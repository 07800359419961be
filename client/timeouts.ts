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
   * Deadline of one attempt as a whole: connecting, sending, the reply's headers and its whole body.
   * The phase timeouts above bound each wait; this bounds their sum, so a reply trickled a byte at a
   * time still ends. Two minutes: four times a slow list of the largest group, and short enough that a
   * pipeline step with retries (4 attempts) ends well within a CI job's limit.
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
