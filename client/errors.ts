/**
 * Errors of the Group Roles client. Every error has a stable string `code` to branch on, one class per
 * kind, and never carries a credential: messages and causes are redacted in the constructor, on a copy.
 * Here: their base class and the kinds that stand alone; the families have their files, an HTTP error
 * status in ./status-errors, a timeout in ./timeout-errors.
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

/**
 * The names of `cls` and its superclasses, up to (not including) `Error`. A class without a name is no
 * kind: the one a helper puts between a kind and its base (`withCode` of ./status-errors, `phaseTimeout`
 * of ./timeout-errors).
 */
function kindsOf(cls: Class): string[] {
  const kinds: string[] = [];
  for (let c: Class | null = cls; c && c !== Error; c = Object.getPrototypeOf(c) as Class | null)
    if (c.name) kinds.push(c.name);
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
