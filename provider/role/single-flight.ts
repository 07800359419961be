/**
 * Single flight: concurrent callers asking for the same key share one in-flight request instead of
 * each sending their own. Nothing is cached once the request settles, so no caller ever sees a reply
 * older than the moment it asked, except for joining a request already under way.
 */

/** Shares one in-flight promise per key among concurrent callers. */
export class SingleFlight<K, V> {
  private readonly inflight = new Map<K, Promise<V>>();

  /**
   * Joins the request under way for `key`, or starts one with `fetch`.
   * @returns what the shared request resolves with; every joiner sees the same value or error.
   */
  run(key: K, fetch: () => Promise<V>): Promise<V> {
    const running = this.inflight.get(key);
    if (running) return running;
    const started = fetch().finally(() => {
      // A newer request may have taken the slot after `forget`; leave that one alone.
      if (this.inflight.get(key) === started) this.inflight.delete(key);
    });
    this.inflight.set(key, started);
    return started;
  }

  /**
   * Stops sharing the request under way for `key`: callers from now on start a fresh one. Writers call
   * this when a write completes, so a caller that reads after its own write never joins a request that
   * was sent before the write and may not reflect it. Callers that already joined keep their promise.
   */
  forget(key: K): void {
    this.inflight.delete(key);
  }

  /** Keys with a request under way (for tests and diagnostics). */
  get size(): number {
    return this.inflight.size;
  }
}
