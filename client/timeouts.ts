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
}

export const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };
