/**
 * Credentials never reach an error's text: every registered secret, and anything that looks like a
 * bearer credential, is removed from messages and from their causes, on a copy (the original
 * objects, which may belong to undici, are left alone).
 */
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
export function sanitizeCause(cause: unknown): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redact(source.message));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === "string") (copy as Error & { code?: string }).code = code;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
