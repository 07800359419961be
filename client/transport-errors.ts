/**
 * How the transport turns what went wrong into the typed errors of ./errors, ./status-errors and
 * ./timeout-errors: an HTTP status with the service's `{code, message}` body, or an undici failure (a
 * timeout per phase, a refused or dropped connection).
 */
import { errors as undiciErrors } from "undici";
import { ConnectionError, type GroupRolesError, type RequestInfo } from "./errors";
import { errorForStatus } from "./status-errors";
import { BodyTimeoutError, ConnectTimeoutError, HeadersTimeoutError } from "./timeout-errors";
import { parseRetryAfter } from "./retry";
import type { TimeoutOptions } from "./timeouts";
import { WireError } from "./wire";

/** Error codes that mean the connection was never established, so the service never saw the request. */
const NOT_CONNECTED_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function httpError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  request: RequestInfo,
): GroupRolesError {
  let serviceCode: string | undefined;
  let serviceMessage: string | undefined;
  try {
    const parsed = WireError.safeParse(JSON.parse(text));
    if (parsed.success) {
      serviceCode = parsed.data.code;
      serviceMessage = parsed.data.message ?? parsed.data.error;
    }
  } catch {
    // Not JSON: keep a short excerpt of the text so the user sees what the service said.
  }
  if (serviceMessage === undefined && text.trim()) serviceMessage = text.trim().slice(0, 300);
  const retryAfter = header(headers, "retry-after");
  return errorForStatus(status, {
    request,
    status,
    serviceCode,
    serviceMessage,
    retryAfter,
    retryAfterMs: parseRetryAfter(retryAfter),
    location: header(headers, "location"),
  });
}

export function transportError(
  error: unknown,
  request: RequestInfo,
  timeouts: Required<TimeoutOptions>,
): GroupRolesError {
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new ConnectTimeoutError(timeouts.connectMs, { request, cause: error });
  }
  if (error instanceof undiciErrors.HeadersTimeoutError) {
    return new HeadersTimeoutError(timeouts.headersMs, { request, cause: error });
  }
  if (error instanceof undiciErrors.BodyTimeoutError) {
    return new BodyTimeoutError(timeouts.bodyMs, { request, cause: error });
  }
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && NOT_CONNECTED_CODES.has(code)) {
    return new ConnectionError(`could not connect to ${request.origin} (${code})`, false, { request, cause: error });
  }
  return new ConnectionError(
    `connection to ${request.origin} failed before a complete reply (${typeof code === "string" ? code : text})`,
    true,
    { request, cause: error },
  );
}
