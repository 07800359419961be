/**
 * The errors of an HTTP error reply: a class per status users branch on (401, 403, 404, 409, ...), and
 * errorForStatus, which picks it. The base class and every other kind: ./errors.
 */
import { GroupRolesError, type GroupRolesErrorCode, type GroupRolesErrorOptions } from "./errors";

/** An HTTP error reply of a status no subclass names. Subclasses name the kinds users branch on. */
export class HttpStatusError extends GroupRolesError {
  readonly code: GroupRolesErrorCode = "ERR_HTTP_STATUS";
}

/**
 * `base` with `code` for its code: all a kind adds when the status is its only difference, written
 * `class X extends withCode(Base, code) {}`. The class it returns has no name, so it is not a kind
 * (./errors): X's kinds are X's and its base's, as if X set its code itself.
 */
function withCode<B extends StatusErrorClass, const C extends GroupRolesErrorCode>(base: B, code: C): Coded<B, C> {
  return class extends base {
    override readonly code: C = code;
  };
}

// biome-ignore lint/suspicious/noExplicitAny: TypeScript takes a class as a mixin's base only with `...args: any[]`.
type StatusErrorClass = new (...args: any[]) => HttpStatusError;

/**
 * What withCode returns, named so that the declarations keep it whole (spelled out, its methods' `this`
 * would be lost): `B` (its constructor, its statics) making instances whose code is `C`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the mixin form, which takes B's constructor parameters.
type Coded<B extends StatusErrorClass, C> = B & (new (...args: any[]) => { readonly code: C });

/**
 * 3xx: the service answered with a redirect. Redirects are never followed: the request carries the
 * access token, which goes only to the configured addresses, never to one a reply names.
 */
export class RedirectError extends withCode(HttpStatusError, "ERR_REDIRECT") {}

/** 401: the access token is missing, unknown or expired. */
export class AuthenticationError extends withCode(HttpStatusError, "ERR_AUTHENTICATION") {}
/** 403: the token is valid but not granted this group. */
export class ForbiddenError extends withCode(HttpStatusError, "ERR_FORBIDDEN") {}
/** 404: the group, role or visitor does not exist. */
export class NotFoundError extends withCode(HttpStatusError, "ERR_NOT_FOUND") {}
/** 409: the change conflicts with the service's state. */
export class ConflictError extends HttpStatusError {
  override readonly code: GroupRolesErrorCode = "ERR_CONFLICT";
}
/** 409 on delete, or a refusal before it: the role is assigned to users. */
export class RoleInUseError extends withCode(ConflictError, "ERR_ROLE_IN_USE") {}
/** A role name is taken in the group by another role; the message names the holder and what works. */
export class NameTakenError extends withCode(ConflictError, "ERR_NAME_TAKEN") {}
/** 400/422: the service rejected the request's content. */
export class ValidationError extends withCode(HttpStatusError, "ERR_VALIDATION") {}
/** 429: too many requests. */
export class RateLimitedError extends withCode(HttpStatusError, "ERR_RATE_LIMITED") {
  /** The `Retry-After` header as received, if any. */
  readonly retryAfter?: string;
  /** The delay it asked for, in milliseconds, when it could be parsed. */
  readonly retryAfterMs?: number;
  constructor(message: string, options: GroupRolesErrorOptions & { retryAfter?: string; retryAfterMs?: number }) {
    super(message, options);
    this.retryAfter = options.retryAfter;
    this.retryAfterMs = options.retryAfterMs;
  }
}
/** 5xx: the service failed. */
export class ServerError extends withCode(HttpStatusError, "ERR_SERVER") {}

/** Where a redirect pointed, as an origin (a path or query could carry someone's secrets). */
function redirectTarget(location: string | undefined, base: string | undefined): string {
  if (location === undefined) return "";
  try {
    return ` to ${new URL(location, base).origin}`;
  } catch {
    return "";
  }
}

/** Maps an HTTP status of 300 or more to the error class and code users branch on. */
export function errorForStatus(
  status: number,
  options: GroupRolesErrorOptions & { retryAfter?: string; retryAfterMs?: number; location?: string },
): HttpStatusError {
  const said = options.serviceMessage ?? "";
  const code = options.serviceCode ? ` ${options.serviceCode}` : "";
  const message = `service answered ${status}${code}${said ? `: ${said}` : ""}`;
  switch (true) {
    case status >= 300 && status < 400:
      return new RedirectError(
        `${message}; the redirect${redirectTarget(options.location, options.request?.origin)} was not followed: ` +
          "the access token goes only to the configured addresses",
        options,
      );
    case status === 401:
      return new AuthenticationError(message, options);
    case status === 403:
      return new ForbiddenError(message, options);
    case status === 404:
      return new NotFoundError(message, options);
    case status === 409 && /in[_ ]?use/i.test(`${options.serviceCode} ${said}`):
      return new RoleInUseError(message, options);
    case status === 409:
      return new ConflictError(message, options);
    case status === 400 || status === 422:
      return new ValidationError(message, options);
    case status === 429:
      return new RateLimitedError(message, options);
    case status >= 500:
      return new ServerError(message, options);
    default:
      return new HttpStatusError(message, options);
  }
}
