/**
 * Errors of the Group Roles client. Every error has a stable string `code` to branch on, one class per
 * kind, and never carries a credential: messages and causes are redacted in the constructor, on a copy.
 */
import type { z } from "zod";

/** Where a request failed, as far as the client can tell. */
export interface RequestInfo {
  /** HTTP method, e.g. `"POST"`. */
  method: string;
  /** Path and query of the request, e.g. `"/api/v0/groups/7/roles"` (never a credential). */
  path: string;
  /** Origin the request went to, e.g. `"https://api.example.com"`. */
  origin?: string;
}

const registeredSecrets = new Set<string>();

/**
 * Registers a credential so that every error created afterwards removes it from its text. The client
 * registers its access token when it is constructed.
 */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) registeredSecrets.add(secret);
}

/** Removes registered credentials and anything that looks like a bearer credential from `text`. */
export function redact(text: string): string {
  let out = text.replace(/(bearer\s+)[^\s"',;]+/gi, "$1[REDACTED]");
  out = out.replace(/("?authorization"?\s*[:=]\s*"?)[^"\n,}]+/gi, "$1[REDACTED]");
  for (const secret of registeredSecrets) out = out.split(secret).join("[REDACTED]");
  return out;
}

/** A sanitized copy of an underlying error: same name, code and message, redacted; no other fields. */
function sanitizeCause(cause: unknown): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redact(source.message));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === "string") (copy as Error & { code?: string }).code = code;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
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

/** Base class of every error this package raises while talking to the service. */
export class GroupRolesError extends Error {
  /** Stable machine-readable code, e.g. `"ERR_ROLE_IN_USE"`. */
  readonly code: string;
  /** HTTP status of the reply, when there was one. */
  readonly status?: number;
  /** Method and path of the request that failed. */
  readonly request?: RequestInfo;
  /** Error code from the service's reply body, if any. */
  readonly serviceCode?: string;
  /** Message from the service's reply body, if any (redacted). */
  readonly serviceMessage?: string;

  constructor(code: string, message: string, options: GroupRolesErrorOptions = {}) {
    const where = options.request ? `${options.request.method} ${options.request.path}: ` : "";
    super(redact(where + message), { cause: sanitizeCause(options.cause) });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status;
    this.request = options.request ? { ...options.request, path: redact(options.request.path) } : undefined;
    this.serviceCode = options.serviceCode;
    this.serviceMessage = options.serviceMessage === undefined ? undefined : redact(options.serviceMessage);
  }
}

/** An HTTP error reply. Subclasses name the kinds users branch on. */
export class HttpStatusError extends GroupRolesError {}

/**
 * 3xx: the service answered with a redirect. Redirects are never followed: the request carries the
 * access token, which goes only to the configured addresses, never to one a reply names.
 */
export class RedirectError extends HttpStatusError {}

/** 401: the access token is missing, unknown or expired. */
export class AuthenticationError extends HttpStatusError {}
/** 403: the token is valid but not granted this group. */
export class ForbiddenError extends HttpStatusError {}
/** 404: the group, role or visitor does not exist. */
export class NotFoundError extends HttpStatusError {}
/** 409: the change conflicts with the service's state (for example a name already taken). */
export class ConflictError extends HttpStatusError {}
/** 409 on delete: the role is assigned to users. */
export class RoleInUseError extends ConflictError {}
/** 400/422: the service rejected the request's content. */
export class ValidationError extends HttpStatusError {}
/** 429: too many requests. */
export class RateLimitedError extends HttpStatusError {
  /** The `Retry-After` header as received, if any. */
  readonly retryAfter?: string;
  /** The delay it asked for, in milliseconds, when it could be parsed. */
  readonly retryAfterMs?: number;
  constructor(message: string, options: GroupRolesErrorOptions & { retryAfter?: string; retryAfterMs?: number }) {
    super("ERR_RATE_LIMITED", message, options);
    this.retryAfter = options.retryAfter;
    this.retryAfterMs = options.retryAfterMs;
  }
}
/** 5xx: the service failed. */
export class ServerError extends HttpStatusError {}

/** The phase of a request that ran out of time. */
export type TimeoutPhase = "connect" | "headers" | "body";

/** A request ran out of time. `phase` says where. */
export class TimeoutError extends GroupRolesError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;
  constructor(phase: TimeoutPhase, timeoutMs: number, options: GroupRolesErrorOptions) {
    super(
      `ERR_${phase.toUpperCase()}_TIMEOUT`,
      `timed out after ${timeoutMs} ms waiting for the ${phase === "connect" ? "connection" : `reply ${phase}`}`,
      options,
    );
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection failed or was dropped. `requestSent` is false only when the client knows the service
 * never received the request (it could not connect), which makes even a create safe to retry.
 */
export class ConnectionError extends GroupRolesError {
  readonly requestSent: boolean;
  constructor(message: string, requestSent: boolean, options: GroupRolesErrorOptions) {
    super("ERR_CONNECTION", message, options);
    this.requestSent = requestSent;
  }
}

/** The reply was not JSON, or not of the documented shape. `issues` lists what was wrong. */
export class UnexpectedReplyError extends GroupRolesError {
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
  constructor(message: string, issues: z.core.$ZodIssue[] | undefined, options: GroupRolesErrorOptions) {
    const list = (issues ?? []).map((i) => ({ path: i.path.map(String).join(".") || "(root)", message: i.message }));
    const detail = list.length ? `: ${list.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join("; ")}` : "";
    super("ERR_UNEXPECTED_REPLY", message + detail, options);
    this.issues = list;
  }
}

/** A client option or argument is invalid; raised before anything is sent. */
export class ConfigurationError extends GroupRolesError {
  constructor(message: string) {
    super("ERR_CONFIGURATION", message);
  }
}

/** The visitor to signal is not connected to any presence server. */
export class VisitorNotConnectedError extends GroupRolesError {
  readonly groupId: number;
  readonly visitorId: string;
  constructor(groupId: number, visitorId: string, options: GroupRolesErrorOptions = {}) {
    super(
      "ERR_VISITOR_NOT_CONNECTED",
      `visitor "${visitorId}" of group ${groupId} is not connected to any presence server`,
      options,
    );
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
        "ERR_REDIRECT",
        `${message}; the redirect${redirectTarget(options.location, options.request?.origin)} was not followed: ` +
          "the access token goes only to the configured addresses",
        options,
      );
    case status === 401:
      return new AuthenticationError("ERR_AUTHENTICATION", message, options);
    case status === 403:
      return new ForbiddenError("ERR_FORBIDDEN", message, options);
    case status === 404:
      return new NotFoundError("ERR_NOT_FOUND", message, options);
    case status === 409 && /in[_ ]?use/i.test(`${options.serviceCode} ${said}`):
      return new RoleInUseError("ERR_ROLE_IN_USE", message, options);
    case status === 409:
      return new ConflictError("ERR_CONFLICT", message, options);
    case status === 400 || status === 422:
      return new ValidationError("ERR_VALIDATION", message, options);
    case status === 429:
      return new RateLimitedError(message, options);
    case status >= 500:
      return new ServerError("ERR_SERVER", message, options);
    default:
      return new HttpStatusError("ERR_HTTP_STATUS", message, options);
  }
}
