import { expect } from "vitest";

/** An error as the provider and client throw them: a message, and often a code and an HTTP status. */
export type Failure = Error & { code?: string; status?: number };

/** The error `p` rejects with; the test fails, saying so, if `p` resolves instead. */
export function rejection<E = Failure>(p: Promise<unknown>): Promise<E> {
  return p.then(
    () => expect.fail("expected a failure"),
    (e: unknown) => e as E,
  );
}
