/**
 * Property values on the provider wire: google.protobuf.Struct, with Pulumi's special objects inside
 * (pulumi/pulumi sdk/nodejs/runtime/rpc.ts `specialSigKey`). The engine sends secrets marked (Configure always keeps
 * them; resource calls only to a provider that accepts them, and this one does not); unknowns arrive
 * as the same sentinel string the dynamic providers already handle (../shared/fields `isUnknown`).
 */
import { structproto } from "../shared/sdk-rpc";
import { setOwn } from "./struct-wire";
import type { Props } from "../shared/props";

/** Key and value that mark an object as a special Pulumi value. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/**
 * `v` with every secret wrapper replaced by the value it holds. Copies only the objects and arrays on
 * the way to a secret: a catalogue's properties, which hold none, are returned as they are.
 */
export function reveal(v: unknown): unknown {
  if (Array.isArray(v)) {
    let copy: unknown[] | undefined;
    v.forEach((x, i) => {
      const r = reveal(x);
      if (r === x) return;
      copy ??= [...v];
      copy[i] = r;
    });
    return copy ?? v;
  }
  if (v && typeof v === "object") {
    const o = v as Props;
    if (o[SIG_KEY] === SECRET_SIG) return reveal(o.value);
    let copy: Props | undefined;
    for (const [k, x] of Object.entries(o)) {
      const r = reveal(x);
      if (r === x) continue;
      copy ??= { ...o };
      setOwn(copy, k, r); // a key `__proto__` stays a property (as Object.fromEntries makes it)
    }
    return copy ?? o;
  }
  return v;
}

/** JavaScript values to a Struct: undefined dropped (JSON has none), as the engine would. */
export const toStruct = (value: unknown) =>
  structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value ?? {})) as Record<string, never>);

/**
 * A Struct's properties, secrets revealed; none for an absent Struct. (A map key `__proto__` cannot
 * travel in a Struct at all: the SDK refuses it in the program, ../../sdk/dropped-keys.)
 */
export const fromStruct = (s: { toJavaScript(): unknown } | undefined): Props =>
  s ? (reveal(s.toJavaScript()) as Props) : {};

/** Properties without the dynamic providers' `__provider` (the plugin has none). */
export const withoutShim = ({ __provider: _p, ...rest }: Props = {}): Props => rest;
