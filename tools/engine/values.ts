// TEST INFRASTRUCTURE (engine stand-in): property values as they travel on Pulumi's gRPC wire.
//
// The Node SDK and the dynamic-provider host exchange properties as google.protobuf.Struct. Two
// "special" encodings live inside plain JSON and must be handled the way the Go engine does:
// unknowns (a sentinel string, only during preview) and secrets (an object tagged with a signature).

import { Struct } from "google-protobuf/google/protobuf/struct_pb";

/** A JSON value as carried in a google.protobuf.Struct. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
/** A resource's property bag (inputs or outputs). */
export type Props = Record<string, Value>;

/** The string the SDK and engine use for "not known until apply" (pulumi/pulumi sdk/nodejs/runtime/rpc.ts). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** Key and value that mark an object as a special Pulumi value (secret, asset, resource ref...). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export function isObject(v: Value | undefined): v is { [key: string]: Value } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isSecret(v: Value | undefined): v is { [key: string]: Value } {
  return isObject(v) && v[SIG_KEY] === SECRET_SIG;
}

export function secret(value: Value): Value {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** Removes every secret wrapper, as the engine does for providers that do not accept secrets. */
export function unwrapSecrets(v: Value): Value {
  if (isSecret(v)) return unwrapSecrets(v["value"] ?? null);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (isObject(v)) return mapValues(v, unwrapSecrets);
  return v;
}

export function containsSecret(v: Value | undefined): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (isObject(v)) return Object.values(v).some(containsSecret);
  return false;
}

export function containsUnknown(v: Value | undefined): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isObject(v)) return Object.values(v).some(containsUnknown);
  return false;
}

export function mapValues(o: { [key: string]: Value }, f: (v: Value) => Value): { [key: string]: Value } {
  const out: { [key: string]: Value } = {};
  for (const [k, v] of Object.entries(o)) out[k] = f(v);
  return out;
}

/** Structural equality; map key order never matters (as in the engine's PropertyValue.DeepEquals). */
export function deepEqual(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** Top-level keys whose values differ, sorted like the CLI's `[diff: ...]` column. */
export function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => !deepEqual(olds[k], news[k])).sort();
}

export function toStruct(p: Props): Struct {
  return Struct.fromJavaScript(p);
}

export function fromStruct(s: Struct | undefined): Props {
  return s ? (s.toJavaScript() as Props) : {};
}
