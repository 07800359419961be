/**
 * How writes are grouped into array requests (`grouproles:maxBatchSize`, `grouproles:batchWindowMs`):
 * settings both providers read, whose defaults live with them.
 */

/** How writes are grouped into array requests. */
export interface BatchOptions {
  /**
   * Most roles in one array request. `1` turns batching off: one request per role, no shared lists
   * (the direct writer).
   * @default 100
   */
  maxBatchSize?: number;
  /**
   * How long a batch waits for the next write before it is sent, in milliseconds: each write that
   * joins restarts the wait, up to {@link MAX_BATCH_WAIT_MS} after the first. Pulumi's engine calls
   * Check and Diff one resource at a time and starts each step as soon as its own are done, so the
   * writes of one wave arrive some milliseconds apart; a quiet gap collects them all, and a single
   * change waits only this long. (Measured: a fixed 15 ms window collected about 2 updates per batch,
   * a 50 ms gap all 16 of a `--parallel 16` wave; see docs/performance.md.)
   * @default 50
   */
  windowMs?: number;
}

/** The longest a write waits for others to join its batch, however many keep arriving. */
export const MAX_BATCH_WAIT_MS = 250;

/** The defaults of {@link BatchOptions}. */
export const DEFAULT_BATCH_OPTIONS: Required<BatchOptions> = { maxBatchSize: 100, windowMs: 50 };
