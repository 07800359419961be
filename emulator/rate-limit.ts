/**
 * Optional token-bucket rate limit over all service calls (not admin, not visitor routes), so clients
 * can be tested and benchmarked against 429 + Retry-After.
 */
import { ApiError } from "./errors";

/** A token bucket shared by every server of one emulator. */
export class RateLimiter {
  private tokens: number;
  private readonly burst: number;
  private last = Date.now();

  /** @param perSecond sustained requests per second; also the burst size (at least 1). */
  constructor(private readonly perSecond: number) {
    this.burst = Math.max(1, perSecond);
    this.tokens = this.burst;
  }

  /** Takes one token or throws 429 with `Retry-After` (whole seconds, at least 1). */
  take(): void {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return;
    }
    const wait = Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
    throw new ApiError(
      429,
      "rate_limited",
      `rate limit of ${this.perSecond} requests per second exceeded; retry after ${wait}s`,
      {
        retryAfter: String(wait),
      },
    );
  }
}
