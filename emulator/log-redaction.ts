/**
 * What the request log keeps of credentials: a fingerprint, never the value. The log is for tests to
 * count and inspect requests; a test that needs to know which token or password a client sent compares
 * fingerprints (`credentialFingerprint(expected)`), so the log of a shared emulator never hands one
 * caller's token, password or login key to another.
 */
import { createHash } from "node:crypto";

/** `[redacted sha256:<12 hex>]`: stable for one value, so equal credentials compare equal. */
export function credentialFingerprint(secret: string): string {
  return `[redacted sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 12)}]`;
}

/** JSON fields whose values are credentials wherever they appear in a body. */
const SECRET_FIELD = /pass(word)?|secret|token|api[-_]?key|login[-_]?key|credential/i;
/** Headers that carry a credential. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$/;
/** A bearer credential anywhere in text. */
const BEARER = /\b(bearer\s+)([^\s"',;]+)/gi;

/** A header value as logged: `Bearer <fingerprint>` for bearer tokens, a fingerprint for other secrets. */
export function redactHeader(name: string, value: string): string {
  if (!SECRET_HEADER.test(name))
    return value.replace(BEARER, (_, p: string, t: string) => p + credentialFingerprint(t));
  const bearer = /^(bearer\s+)(.+)$/i.exec(value);
  return bearer ? `${bearer[1]}${credentialFingerprint(bearer[2]!)}` : credentialFingerprint(value);
}

/** Replaces the values of secret fields, at any depth. */
function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_FIELD.test(k) && typeof v === "string" ? credentialFingerprint(v) : redactValue(v),
    ]),
  );
}

/** A body as logged: JSON with its secret fields redacted (`password`, `loginKey`, ...), bearer tokens in any text. */
export function redactBody(body: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === "object" && parsed !== null) text = JSON.stringify(redactValue(parsed));
  } catch {
    // Not JSON: logged as sent, bearer tokens aside.
  }
  return text.replace(BEARER, (_, p: string, t: string) => p + credentialFingerprint(t));
}
