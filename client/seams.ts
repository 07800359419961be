/**
 * What tests replace in a client: the waits between retries, the jitter and the clock. Not public
 * options (a user has no reason to set them): a test hands them to a client with {@link withSeams},
 * from this module, which no entry point of the package exports.
 */

export interface Seams {
  /** Waits between retries and in the request budget. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1). */
  random?: () => number;
  /** Clock in milliseconds: the request budget, token expiry, login keys. */
  now?: () => number;
}

const seams = new WeakMap<object, Seams>();

/** `options` with `s` attached: the client built from them uses these seams. */
export function withSeams<T extends object>(options: T, s: Seams): T {
  seams.set(options, s);
  return options;
}

/** The seams attached to `options`, if any. */
export const seamsOf = (options: object): Seams => seams.get(options) ?? {};
