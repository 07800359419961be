/**
 * The one error type every emulator handler throws. The pipeline turns it into a JSON `{code, message}`
 * reply, so handlers never write error responses themselves and every error body has the same shape.
 */
import type { EmulatorErrorCode } from "./service-rules";

/** Extra fields some errors carry in their body (e.g. the failing item's index in a batch). */
export interface ApiErrorExtras {
  /** Index of the offending item of an array request. */
  index?: number;
  /** Seconds, sent as the `Retry-After` header. */
  retryAfter?: string;
}

/** An HTTP error with a stable code; `message` is for humans and never contains credentials. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: EmulatorErrorCode,
    message: string,
    readonly extras: ApiErrorExtras = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The JSON body sent for this error. */
  body(): { code: EmulatorErrorCode; message: string; index?: number } {
    return this.extras.index === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, index: this.extras.index };
  }
}

/** 404 `not_found`, optionally naming the batch item. */
export const notFound = (message: string, index?: number): ApiError =>
  new ApiError(404, "not_found", message, { index });
