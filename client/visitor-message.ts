/**
 * The visitor message `signalVisitor` sends: checked before anything is sent, with messages that name
 * the field and the rule, and refused when JSON would silently change it.
 */
import { ConfigurationError } from "./errors";
import { VISITOR_FUNC_PATTERN, VISITOR_MESSAGE_MAX_BYTES, describeValue as describe } from "./rules";
import type { VisitorMessage } from "./types";
import { WireVisitorMessage } from "./wire";

/** Why a value is not plain JSON, for the message: a Date has an obvious plain form. */
function plainJsonHint(value: unknown): string {
  return value instanceof Date ? " (send date.toISOString() or a number)" : "";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Deepest nesting of signal data accepted; deeper data would overflow the stack while being checked or sent. */
export const MAX_SIGNAL_DEPTH = 64;

/** The path of the first value under `value` that does not survive JSON unchanged, and why. */
function firstNonJson(value: unknown, path: string, seen: Set<object>, depth = 0): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : `${path} must be a finite number, got ${value}`;
  if (Array.isArray(value) || isPlainObject(value)) {
    if (depth >= MAX_SIGNAL_DEPTH)
      return `message.data must be nested at most ${MAX_SIGNAL_DEPTH} levels deep (${path.slice(0, 80)}...)`;
    if (seen.has(value)) return `${path} refers back to itself; the message must be plain JSON`;
    seen.add(value);
    const entries = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${i}]`, v] as const)
      : Object.entries(value).map(([k, v]) => [`${path}.${k}`, v] as const);
    for (const [p, v] of entries) {
      const bad = firstNonJson(v, p, seen, depth + 1);
      if (bad) return bad;
    }
    seen.delete(value);
    return undefined;
  }
  return `${path} must be plain JSON (null, boolean, number, string, array or object), got ${describe(value)}${plainJsonHint(value)}`;
}

/**
 * Checks a visitor message and returns the copy that goes on the wire. The rules are those of
 * `WireVisitorMessage`; this adds messages that name the field and the rule, and refuses signal data
 * that JSON would silently change (functions, `undefined`, `NaN`, class instances such as `Date`).
 * @throws ConfigurationError before anything is sent.
 */
export function checkVisitorMessage(message: unknown): VisitorMessage {
  if (!isPlainObject(message)) {
    throw new ConfigurationError(`message must be an object { mtype, data }, got ${describe(message)}`);
  }
  const { mtype, data } = message;
  if (mtype !== "invoke" && mtype !== "signal") {
    throw new ConfigurationError(`message.mtype must be "invoke" or "signal", got ${describe(mtype)}`);
  }
  if (!isPlainObject(data)) {
    throw new ConfigurationError(
      mtype === "invoke"
        ? `message.data must be an object { func } for mtype "invoke", got ${describe(data)}`
        : `message.data must be a JSON object for mtype "signal", got ${describe(data)}`,
    );
  }
  if (mtype === "invoke" && (typeof data.func !== "string" || !VISITOR_FUNC_PATTERN.test(data.func))) {
    throw new ConfigurationError(
      `message.data.func must have the form SERVICE.<Module>.Visitor.<function>, got ${describe(data.func)}`,
    );
  }
  if (mtype === "signal") {
    const bad = firstNonJson(data, "message.data", new Set());
    if (bad) throw new ConfigurationError(bad);
  }
  const checked = WireVisitorMessage.safeParse(message);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigurationError(`message${issue.path.map((p) => `.${String(p)}`).join("")}: ${issue.message}`);
  }
  // Measured as sent, so a message the service would refuse with a bare 413 fails here, naming the rule.
  const size = Buffer.byteLength(JSON.stringify(checked.data));
  if (size > VISITOR_MESSAGE_MAX_BYTES)
    throw new ConfigurationError(
      `message must be at most ${VISITOR_MESSAGE_MAX_BYTES} bytes as JSON (${VISITOR_MESSAGE_MAX_BYTES / 1024} KiB), got ${size}`,
    );
  return checked.data;
}
