/**
 * Keys that JavaScript drops on the way to the provider. A plain object can hold an own key
 * `__proto__` (a data file read with `JSON.parse` does), but Pulumi copies maps key by key, and
 * assigning `__proto__` sets the copy's prototype instead: the entry would vanish without a word, and
 * the provider could not even tell. So the program refuses it, naming where, before registering.
 */
import * as pulumi from "@pulumi/pulumi";

const DROPPED = "__proto__";

/** Throws when `value` (a resource input) holds a `__proto__` key in a plain map, at any depth. */
export function refuseDroppedKeys(value: unknown, path: string, resource: string): void {
  if (!value || typeof value !== "object" || pulumi.Output.isInstance(value) || value instanceof Promise) return;
  if (Object.hasOwn(value, DROPPED)) {
    // A RunError: printed as a refusal, without "unhandled exception" and a stack trace (./group-order).
    throw new pulumi.RunError(
      `${resource}: ${path}.${DROPPED}: keys must not be "${DROPPED}": JavaScript objects drop that key on the way ` +
        "to the provider, so the entry would be lost. Use another key.",
    );
  }
  for (const [key, inner] of Object.entries(value)) refuseDroppedKeys(inner, `${path}.${key}`, resource);
}
