/**
 * Errors of the Group Roles client. Every error has a stable string `code` to branch on, one class per
 * kind, and never carries a credential: messages and causes are redacted in the constructor, on a copy.
 */
import type { z } from "zod";
import { redact, sanitizeCause } from "./redact";

/** Where a request failed, as far as the client can tell. */
export interface RequestInfo {
  /** HTTP method, e.g. `"POST"`. */
  method: string;
  /** Path and query of the request, e.g. `"/api/v0/groups/7/roles"` (never a credential). */
  path: string;
  /** Origin the request went to, e.g. `"https://api.example.com"`. */
  origin?: string;
}

export interface GroupRolesErrorOptions {
  request?: RequestInfo;
  status?: number;
  /** The error code the service sent in its body, when it sent one. */
  serviceCode?: string;
  /** The human message the service sent, when it sent one. */
  serviceMessage?: string;
  cause?: unknown;
}

/** Every `code` an error of this package carries; one per class. */
export type GroupRolesErrorCode =
  | "ERR_HTTP_STATUS"
  | "ERR_REDIRECT"
  | "ERR_AUTHENTICATION"
  | "ERR_FORBIDDEN"
  | "ERR_NOT_FOUND"
  | "ERR_CONFLICT"
  | "ERR_ROLE_IN_USE"
  | "ERR_NAME_TAKEN"
  | "ERR_VALIDATION"
  | "ERR_RATE_LIMITED"
  | "ERR_SERVER"
  | "ERR_CONNECT_TIMEOUT"
  | "ERR_HEADERS_TIMEOUT"
  | "ERR_BODY_TIMEOUT"
  | "ERR_DEADLINE_EXCEEDED"
  | "ERR_REPLY_TOO_LARGE"
  | "ERR_CONNECTION"
  | "ERR_UNEXPECTED_REPLY"
  | "ERR_CONFIGURATION"
  | "ERR_VISITOR_NOT_CONNECTED"
  | "ERR_ROLE_NOT_APPLIED"
  | "ERR_IMPORT_MISMATCH";

/**
 * Where an error carries the names of its classes. `Symbol.for` is one registry per process, so two
 * copies of this package (a program's and a plugin's, two versions in one tree) share it: `instanceof`
 * asks the brand, not the prototype chain, and holds across copies (as undici and Pulumi's `isInstance`
 * do it).
 */
const KINDS = Symbol.for("pulumi-grouproles.error-kinds");

type Class = abstract new (...args: never[]) => unknown;

/** The names of `cls` and its superclasses, up to (not including) `Error`. */
function kindsOf(cls: Class): string[] {
  const kinds: string[] = [];
  for (let c: Class | null = cls; c && c !== Error; c = Object.getPrototypeOf(c) as Class | null) kinds.push(c.name);
  return kinds;
}

/** True when `value` is an error of class `cls`, made by any copy of this package. */
function isKind(value: unknown, cls: Class): boolean {
  if (typeof value !== "object" || value === null) return false;
  const kinds = (value as { [KINDS]?: unknown })[KINDS];
  return Array.isArray(kinds) ? kinds.includes(cls.name) : Function.prototype[Symbol.hasInstance].call(cls, value);
}

/** Base class of every error this package raises while talking to the service. */
export abstract class GroupRolesError extends Error {
  /** `value instanceof X` for any class X of this package's errors, whichever copy of the package made it. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asks about (a subclass).
    return isKind(value, this);
  }

  /** Stable machine-readable code, one per class, e.g. `"ERR_ROLE_IN_USE"`. */
  abstract readonly code: GroupRolesErrorCode;
  /** HTTP status of the reply, when there was one. */
  readonly status?: number;
  /** Method and path of the request that failed. */
  readonly request?: RequestInfo;
  /** Error code from the service's reply body, if any. */
  readonly serviceCode?: string;
  /** Message from the service's reply body, if any (redacted). */
  readonly serviceMessage?: string;
  /** How many attempts were made, when the request was retried before it failed. */
  attempts?: number;

  constructor(message: string, options: GroupRolesErrorOptions = {}) {
    const where = options.request ? `${options.request.method} ${options.request.path}: ` : "";
    super(redact(where + message), { cause: sanitizeCause(options.cause) });
    this.name = new.target.name;
    // Enumerable, so that `rephrase`'s copy (Object.assign) keeps it.
    (this as { [KINDS]?: string[] })[KINDS] = kindsOf(new.target);
    this.status = options.status;
    this.request = options.request ? { ...options.request, path: redact(options.request.path) } : undefined;
    this.serviceCode = options.serviceCode;
    this.serviceMessage = options.serviceMessage === undefined ? undefined : redact(options.serviceMessage);
  }

  /**
   * The same error (same class, code and fields) with another message, and this one as its `cause`:
   * how an operation adds what it was doing without hiding the kind of failure from `instanceof`.
   */
  rephrase(message: string): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    Object.defineProperty(copy, "message", { value: redact(message), writable: true, configurable: true });
    Object.defineProperty(copy, "cause", { value: this, writable: true, configurable: true });
    Error.captureStackTrace(copy, this.rephrase);
    return copy;
  }

  /** {@link rephrase} to `<what>: <this message>`. */
  withContext(what: string): this {
    return this.rephrase(`${what}: ${this.message}`);
  }
}

/** An HTTP error reply of a status no subclass names. Subclasses name the kinds users branch on. */
export class HttpStatusError extends GroupRolesError {
  readonly code: GroupRolesErrorCode = "ERR_HTTP_STATUS";
}

/**
 * 3xx: the service answered with a redirect. Redirects are never followed: the request carries the
 * access token, which goes only to the configured addresses, never to one a reply names.
 */
export class RedirectError extends HttpStatusError {
  override readonly code = "ERR_REDIRECT";
}

/** 401: the access token is missing, unknown or expired. */
export class AuthenticationError extends HttpStatusError {
  override readonly code = "ERR_AUTHENTICATION";
}
/** 403: the token is valid but not granted this group. */
export class ForbiddenError extends HttpStatusError {
  override readonly code = "ERR_FORBIDDEN";
}
/** 404: the group, role or visitor does not exist. */
export class NotFoundError extends HttpStatusError {
  override readonly code = "ERR_NOT_FOUND";
}
/** 409: the change conflicts with the service's state. */
export class ConflictError extends HttpStatusError {
  override readonly code: GroupRolesErrorCode = "ERR_CONFLICT";
}
/** 409 on delete, or a refusal before it: the role is assigned to users. */
export class RoleInUseError extends ConflictError {
  override readonly code = "ERR_ROLE_IN_USE";
}
/** A role name is taken in the group by another role; the message names the holder and what works. */
export class NameTakenError extends ConflictError {
  override readonly code = "ERR_NAME_TAKEN";
}
/** 400/422: the service rejected the request's content. */
export class ValidationError extends HttpStatusError {
  override readonly code = "ERR_VALIDATION";
}
/** 429: too many requests. */
export class RateLimitedError extends HttpStatusError {
  override readonly code = "ERR_RATE_LIMITED";
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
export class ServerError extends HttpStatusError {
  override readonly code = "ERR_SERVER";
}

/** The phase of a request that ran out of time. */
export type TimeoutPhase = "connect" | "headers" | "body" | "total";

/** A request ran out of time. `phase` says where; each phase has its class and code. */
export abstract class TimeoutError extends GroupRolesError {
  abstract readonly phase: TimeoutPhase;
  readonly timeoutMs: number;
  constructor(what: string, timeoutMs: number, options: GroupRolesErrorOptions) {
    super(`timed out after ${timeoutMs} ms waiting for the ${what}`, options);
    this.timeoutMs = timeoutMs;
  }
}
/** No connection within the connect timeout: the service never saw the request. */
export class ConnectTimeoutError extends TimeoutError {
  readonly code = "ERR_CONNECT_TIMEOUT";
  readonly phase = "connect";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("connection", timeoutMs, options);
  }
}
/** No reply headers within the headers timeout: the service may have acted. */
export class HeadersTimeoutError extends TimeoutError {
  readonly code = "ERR_HEADERS_TIMEOUT";
  readonly phase = "headers";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("reply headers", timeoutMs, options);
  }
}
/** The reply body stalled longer than the body timeout: the service has acted. */
export class BodyTimeoutError extends TimeoutError {
  readonly code = "ERR_BODY_TIMEOUT";
  readonly phase = "body";
  constructor(timeoutMs: number, options: GroupRolesErrorOptions) {
    super("reply body", timeoutMs, options);
  }
}

/**
 * The whole request (connecting, sending, the reply's headers and its entire body) took longer than
 * the deadline: the per-phase timeouts bound each wait, this bounds their sum (a body trickled one
 * byte every few seconds never trips the body timeout). The service may have acted.
 */
export class DeadlineExceededError extends TimeoutError {
  readonly code = "ERR_DEADLINE_EXCEEDED";
  readonly phase = "total";
  /** How long the call ran, every attempt and wait included. */
  readonly elapsedMs: number;
  constructor(timeoutMs: number, request: RequestInfo, spent: { attempts: number; elapsedMs: number }) {
    super(
      `whole reply of ${request.origin ?? ""}${request.path} (the deadline, deadlineMs, bounds the whole call: ` +
        `${spent.attempts} attempt${spent.attempts === 1 ? "" : "s"} in ${(spent.elapsedMs / 1000).toFixed(1)} s)`,
      timeoutMs,
      { request },
    );
    this.attempts = spent.attempts;
    this.elapsedMs = spent.elapsedMs;
  }
}

/**
 * The reply is larger than the client reads (`maxReplyBytes`, derived from the largest list the
 * service can legitimately send). Reading stopped at the cap; the service may have acted.
 */
export class ReplyTooLargeError extends GroupRolesError {
  readonly code = "ERR_REPLY_TOO_LARGE";
  /** The cap, in bytes. */
  readonly maxBytes: number;
  constructor(maxBytes: number, request: RequestInfo, declared?: number) {
    const size = declared === undefined ? "more than" : `${declared} bytes (Content-Length), over`;
    super(
      `the reply from ${request.origin ?? ""}${request.path} is ${size} the ${maxBytes}-byte cap (maxReplyBytes, ` +
        "grouproles:maxReplyBytes): no group this package supports needs a reply that large",
      { request },
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * The connection failed or was dropped. `requestSent` is false only when the client knows the service
 * never received the request (it could not connect), which makes even a create safe to retry.
 */
export class ConnectionError extends GroupRolesError {
  readonly code = "ERR_CONNECTION";
  readonly requestSent: boolean;
  constructor(message: string, requestSent: boolean, options: GroupRolesErrorOptions) {
    super(message, options);
    this.requestSent = requestSent;
  }
}

/** The reply was not JSON, or not of the documented shape. `issues` lists what was wrong. */
export class UnexpectedReplyError extends GroupRolesError {
  readonly code = "ERR_UNEXPECTED_REPLY";
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
  constructor(message: string, issues: z.core.$ZodIssue[] | undefined, options: GroupRolesErrorOptions) {
    const list = (issues ?? []).map((i) => ({ path: i.path.map(String).join(".") || "(root)", message: i.message }));
    const detail = list.length
      ? `: ${list
          .slice(0, 5)
          .map((i) => `${i.path}: ${i.message}`)
          .join("; ")}`
      : "";
    super(message + detail, options);
    this.issues = list;
  }
}

/** A client option or argument is invalid; raised before anything is sent. */
export class ConfigurationError extends GroupRolesError {
  readonly code = "ERR_CONFIGURATION";
  constructor(message: string) {
    super(message);
  }
}

/** The visitor to signal is not connected to any presence server. */
export class VisitorNotConnectedError extends GroupRolesError {
  readonly code = "ERR_VISITOR_NOT_CONNECTED";
  readonly groupId: number;
  readonly visitorId: string;
  constructor(groupId: number, visitorId: string, options: GroupRolesErrorOptions = {}) {
    super(`visitor "${visitorId}" of group ${groupId} is not connected to any presence server`, options);
    this.groupId = groupId;
    this.visitorId = visitorId;
  }
}

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
