// TEST INFRASTRUCTURE (engine stand-in): property paths, as Pulumi writes them in `ignoreChanges` and
// `replaceOnChanges` (sdk/go/common/resource/properties_path.go ParsePropertyPath): `a.b`, `a["b.c"]`,
// `a[0]`, `a[*]`, `a.*`, `["a"].b`.

import { isObject, type Props, type Value } from "./values";

/** One step of a path: a key, an array index, or `*` (any key or element). */
export type PathSegment = string | number;

/** Parses `path`; throws on a malformed one, as the engine refuses it. */
export function parsePropertyPath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  const fail = (): never => {
    throw new Error(`invalid property path ${JSON.stringify(path)}`);
  };
  while (i < path.length) {
    if (path[i] === "[") {
      const close = path[i + 1] === '"' ? path.indexOf('"]', i + 2) : path.indexOf("]", i);
      if (close < 0) fail();
      const inner = path.slice(i + 1, path[i + 1] === '"' ? close + 1 : close);
      if (inner.startsWith('"')) segments.push(JSON.parse(inner) as string);
      else if (inner === "*") segments.push("*");
      else if (/^\d+$/.test(inner)) segments.push(Number(inner));
      else fail();
      i = path[i + 1] === '"' ? close + 2 : close + 1;
      if (path[i] === ".") i++;
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== "." && path[end] !== "[") end++;
    const key = path.slice(i, end);
    if (!key) fail();
    segments.push(key);
    i = path[end] === "." ? end + 1 : end;
  }
  if (!segments.length) fail();
  return segments;
}

/**
 * `ignoreChanges`: the value at `path` becomes the old one (or goes, when the old has none), in a copy
 * of `news`, as the engine's processIgnoreChanges does before Check. `*` covers every key or element.
 */
export function ignoreChange(news: Props, olds: Props, path: string): Props {
  const out = structuredClone(news);
  copyAt(out, olds, parsePropertyPath(path));
  return out;
}

function copyAt(dst: Value | undefined, src: Value | undefined, segments: readonly PathSegment[]): void {
  const [head, ...rest] = segments;
  if (head === undefined || dst === null || typeof dst !== "object") return;
  const keys = head === "*" ? Object.keys(dst) : [String(head)];
  for (const k of keys) {
    const from = src !== null && typeof src === "object" ? (src as Record<string, Value>)[k] : undefined;
    const to = dst as Record<string, Value>;
    if (rest.length) {
      copyAt(to[k], from, rest);
    } else if (from !== undefined) {
      to[k] = structuredClone(from);
    } else if (Array.isArray(to)) {
      // An element the old value lacks: the engine leaves arrays' shape alone.
    } else if (isObject(to)) {
      delete to[k];
    }
  }
}

/**
 * The value at `path` in `props` (`settings.remoteAsist`, `roles.support.name`, `a[0]`), undefined when
 * there is none; a path that does not parse is taken as one top-level key.
 */
export function valueAt(props: Props, path: string): Value | undefined {
  let segments: PathSegment[];
  try {
    segments = parsePropertyPath(path);
  } catch {
    segments = [path];
  }
  let v: Value | undefined = props;
  for (const s of segments) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, Value>)[String(s)];
  }
  return v;
}
