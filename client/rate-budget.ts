/**
 * Client-side request budget for one origin: at most `maxConcurrentRequests` in flight and at most
 * `maxRequestsPerSecond` started (token bucket), served first come, first served. A large `pulumi up`
 * then paces itself under the service's limits instead of living on 429s and their Retry-After waits.
 */

/** Limits of a {@link RateBudget}. Omitted limits do not apply. */
export interface RateBudgetOptions {
  /** Sustained requests started per second. */
  maxRequestsPerSecond?: number;
  /** Requests in flight at once. */
  maxConcurrentRequests?: number;
  /**
   * Requests that may start back to back before the per-second pace applies.
   * @default 1 (an even pace: the service's own bucket then absorbs any jitter on the way)
   */
  burst?: number;
  /** Clock in milliseconds; injectable so tests need no real time. @default Date.now */
  now?: () => number;
  /** Waits; injectable so tests need no real time. @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
}

/** Gives back the slot taken by {@link RateBudget.acquire}; calling it twice has no further effect. */
export type Release = () => void;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A FIFO gate in front of one origin's requests. */
export class RateBudget {
  private readonly rate: number;
  private readonly maxActive: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private tokens: number;
  private last: number;
  private active = 0;
  private pausedUntil = 0;
  private pumping = false;
  private readonly waiters: Array<(release: Release) => void> = [];

  constructor(options: RateBudgetOptions) {
    this.rate = options.maxRequestsPerSecond ?? Infinity;
    this.maxActive = options.maxConcurrentRequests ?? Infinity;
    this.burst = Math.max(1, options.burst ?? 1);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Requests waiting for a slot (for tests and diagnostics). */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot; the caller must call the returned function when its request has finished. */
  acquire(): Promise<Release> {
    return new Promise<Release>((resolve) => {
      this.waiters.push(resolve);
      this.pump();
    });
  }

  /**
   * Holds every request that has not started yet for `ms`: after a 429 the service has said when it
   * will take requests again, and the other queued requests would only collect 429s of their own.
   */
  pause(ms: number): void {
    if (ms > 0) this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    void this.drain().finally(() => {
      this.pumping = false;
      // A slot may have been released while the loop was finishing.
      if (this.waiters.length && this.active < this.maxActive) this.pump();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiters.length && this.active < this.maxActive) {
      const wait = this.delayBeforeNext();
      if (wait > 0) {
        await this.sleep(wait);
        continue;
      }
      if (this.rate !== Infinity) this.tokens -= 1;
      this.active++;
      let released = false;
      this.waiters.shift()!(() => {
        if (released) return;
        released = true;
        this.active--;
        this.pump();
      });
    }
  }

  /** Milliseconds until the next request may start (0: now). */
  private delayBeforeNext(): number {
    const now = this.now();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.rate === Infinity) return 0;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
