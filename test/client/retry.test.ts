import { describe, expect, it } from "vitest";
import { backoffDelay, MIN_ATTEMPT_MS, parseRetryAfter, shouldRetry } from "../../client/retry";

const fixed = () => 0.5;

describe("shouldRetry", () => {
  it.each([429, 502, 503, 504])("retries idempotent requests on %i", (status) => {
    const d = shouldRetry({ outcome: { kind: "status", status }, attempt: 1, idempotent: true, random: fixed });
    expect(d.retry).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422, 500, 501])("does not retry %i", (status) => {
    const d = shouldRetry({ outcome: { kind: "status", status }, attempt: 1, idempotent: true });
    expect(d).toMatchObject({ retry: false });
  });

  it("stops at maxAttempts", () => {
    const outcome = { kind: "status", status: 503 } as const;
    expect(shouldRetry({ outcome, attempt: 2, idempotent: true, options: { maxAttempts: 3 } }).retry).toBe(true);
    const last = shouldRetry({ outcome, attempt: 3, idempotent: true, options: { maxAttempts: 3 } });
    expect(last).toEqual({ retry: false, reason: "gave up after 3 attempts" });
  });

  it("never retries a create that the service may have applied", () => {
    for (const outcome of [
      { kind: "status", status: 503 },
      { kind: "status", status: 502 },
      { kind: "connection", requestSent: true },
      { kind: "timeout", phase: "headers" },
      { kind: "timeout", phase: "body" },
      { kind: "malformed" },
    ] as const) {
      expect(shouldRetry({ outcome, attempt: 1, idempotent: false }).retry, JSON.stringify(outcome)).toBe(false);
    }
  });

  it("retries a create that certainly did not reach the service", () => {
    for (const outcome of [
      { kind: "status", status: 429 },
      { kind: "connection", requestSent: false },
      { kind: "timeout", phase: "connect" },
    ] as const) {
      expect(
        shouldRetry({ outcome, attempt: 1, idempotent: false, random: fixed }).retry,
        JSON.stringify(outcome),
      ).toBe(true);
    }
  });

  it("retries idempotent requests after dropped connections, timeouts and malformed replies", () => {
    for (const outcome of [
      { kind: "connection", requestSent: true },
      { kind: "timeout", phase: "headers" },
      { kind: "malformed" },
    ] as const) {
      expect(shouldRetry({ outcome, attempt: 1, idempotent: true, random: fixed }).retry).toBe(true);
    }
  });

  it("honours Retry-After over the computed backoff", () => {
    const d = shouldRetry({
      outcome: { kind: "status", status: 429, retryAfterMs: 3000 },
      attempt: 1,
      idempotent: true,
      random: fixed,
    });
    expect(d).toEqual({ retry: true, delayMs: 3000 });
  });

  it("refuses to wait longer than maxRetryAfterMs", () => {
    const d = shouldRetry({
      outcome: { kind: "status", status: 429, retryAfterMs: 120_000 },
      attempt: 1,
      idempotent: true,
      options: { maxRetryAfterMs: 60_000 },
    });
    expect(d.retry).toBe(false);
    expect(d.retry === false && d.reason).toContain("120 s");
  });
});

describe("shouldRetry within the call's deadline", () => {
  const outcome = { kind: "status", status: 503 } as const;
  const random = () => 0.5;
  it("retries while the wait leaves at least MIN_ATTEMPT_MS of the deadline", () => {
    const d = shouldRetry({
      outcome,
      attempt: 1,
      idempotent: true,
      random,
      options: { baseDelayMs: 200 },
      remainingMs: 1200 + MIN_ATTEMPT_MS,
    });
    expect(d).toEqual({ retry: true, delayMs: 150 });
  });
  it("does not retry when the wait would leave less, and says so", () => {
    const d = shouldRetry({
      outcome,
      attempt: 1,
      idempotent: true,
      random,
      options: { baseDelayMs: 200 },
      remainingMs: 150 + MIN_ATTEMPT_MS - 1,
    });
    expect(d.retry).toBe(false);
    expect(d).toMatchObject({
      reason: expect.stringMatching(
        /^the deadline \(deadlineMs\) leaves 1\.1 s, too little for another attempt after a 0\.1 s wait$/,
      ),
    });
  });
  it("a Retry-After wait counts too; no deadline given, the rule is as before", () => {
    const later = { kind: "status", status: 429, retryAfterMs: 5000 } as const;
    expect(shouldRetry({ outcome: later, attempt: 1, idempotent: true, remainingMs: 5500 }).retry).toBe(false);
    expect(shouldRetry({ outcome: later, attempt: 1, idempotent: true, remainingMs: 6000 })).toEqual({
      retry: true,
      delayMs: 5000,
    });
    expect(shouldRetry({ outcome: later, attempt: 1, idempotent: true })).toEqual({ retry: true, delayMs: 5000 });
  });
});

describe("backoffDelay", () => {
  it("doubles per attempt and is capped", () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    const one = () => 0.999999;
    expect(backoffDelay(1, opts, one)).toBe(100);
    expect(backoffDelay(2, opts, one)).toBe(200);
    expect(backoffDelay(3, opts, one)).toBe(400);
    expect(backoffDelay(10, opts, one)).toBe(1000);
  });

  it("jitters between half and all of the step", () => {
    const opts = { baseDelayMs: 400, maxDelayMs: 10_000 };
    expect(backoffDelay(1, opts, () => 0)).toBe(200);
    expect(backoffDelay(1, opts, () => 0.5)).toBe(300);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(" 0.5 ")).toBe(500);
  });
  it("reads an HTTP date relative to now", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });
  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
