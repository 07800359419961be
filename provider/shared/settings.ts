/**
 * Settings maps as the Role provider compares and sends them. Only the keys a program declares are
 * managed; every other key the service holds must survive our updates, whether the service replaces
 * an update's `settings` map as a whole or merges it (it does not document which).
 */
import { isUnknown } from "./fields";

type Settings = Record<string, unknown>;

/** Same keys with the same values; key order never matters. Unknown (preview) is never "same". */
export function sameSettings(a: unknown, b: unknown): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  const x = (a ?? {}) as Settings;
  const y = (b ?? {}) as Settings;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if (!Object.hasOwn(x, k) || !Object.hasOwn(y, k) || x[k] !== y[k]) return false;
  return true;
}

/** The settings a details reply holds (the newer API version may carry `null` for "no value"). */
export function heldSettings(settings: Readonly<Record<string, boolean | null>>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(settings).filter((e): e is [string, boolean] => typeof e[1] === "boolean"));
}

/**
 * The `settings` map of an update: what the service holds now (so unlisted keys survive a replacing
 * service), the declared values over it, and `null` (unset) for each key the program declared before
 * and no longer does. Own-property tests throughout: `constructor` or `toString` are setting names
 * like any other here, not members of `Object.prototype`.
 */
export function settingsForUpdate(
  current: Readonly<Record<string, boolean>>,
  declared: Readonly<Record<string, boolean>> | undefined,
  previouslyDeclared: Readonly<Settings> | undefined,
): Record<string, boolean | null> {
  const out: Record<string, boolean | null> = { ...current };
  for (const [key, value] of Object.entries(declared ?? {})) out[key] = value;
  for (const key of Object.keys(previouslyDeclared ?? {})) {
    if (!Object.hasOwn(declared ?? {}, key)) out[key] = null;
  }
  return out;
}
