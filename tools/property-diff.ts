/**
 * Property values and their changes printed as the Pulumi CLI prints them (`pulumi preview --diff`), for
 * the plans of `npm run try`. A port, without colours, of pulumi/pulumi:
 *
 * - sdk/go/common/resource/properties_diff.go `PropertyMap.diff`, `PropertyValue.diff`: what changed
 *   (adds, deletes, updates, sames; arrays by index);
 * - pkg/engine/detailedDiff.go `TranslateDetailedDiff`, `addDiff`: a provider's detailed diff as such a
 *   diff (old values from the old inputs: this package's plugin marks every entry `inputDiff`);
 * - pkg/backend/display/object_diff.go `printObjectDiff`, `printObjectPropertyDiff`,
 *   `printPropertyValueDiff`, `printObject`, `printPropertyValueRecurse`, `printPrimitivePropertyValue`,
 *   `shouldPrintPropertyValue`, `getIndentationString`: the text, `old => new` per changed value,
 *   nested objects in braces, secrets as `[secret]`, unknowns as `[unknown]`; in the summary form
 *   (diff.go `CreateDiff` sets `SummaryDiff`) values that stay the same are left out.
 */
import { type Props, UNKNOWN, type Value, isSecret } from "./engine/values";

type V = Value | undefined;

export interface ObjectDiff {
  adds: Record<string, V>;
  deletes: Record<string, V>;
  sames: Record<string, V>;
  updates: Record<string, ValueDiff>;
}
export interface ArrayDiff {
  adds: Map<number, V>;
  deletes: Map<number, V>;
  sames: Map<number, V>;
  updates: Map<number, ValueDiff>;
}
export interface ValueDiff {
  old: V;
  new: V;
  object?: ObjectDiff;
  array?: ArrayDiff;
}

const isObj = (v: V): v is Record<string, Value> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !isSecret(v);
/** resource.IsInternalPropertyKey: `__provider`, `__inputs`, ... */
const internal = (k: string) => k.startsWith("__");
/** PropertyValue.HasValue: anything but null. */
const hasValue = (v: V) => v !== undefined && v !== null;

function deepEquals(a: V, b: V): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEquals(x, b[i]));
  if (isSecret(a) || isSecret(b)) return isSecret(a) && isSecret(b) && deepEquals(a["value"], b["value"]);
  if (isObj(a) || isObj(b)) {
    if (!isObj(a) || !isObj(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => (k in a && k in b ? deepEquals(a[k], b[k]) : !hasValue(k in a ? a[k] : b[k])));
  }
  return (a ?? null) === (b ?? null);
}

/** properties_diff.go `PropertyMap.diff` (internal keys ignored, as the display asks); undefined: no change. */
export function diffObjects(olds: Record<string, V>, news: Record<string, V>): ObjectDiff | undefined {
  const d: ObjectDiff = { adds: {}, deletes: {}, sames: {}, updates: {} };
  for (const [k, old] of Object.entries(olds)) {
    if (internal(k)) continue;
    if (k in news) {
      const vd = diffValues(old, news[k]);
      if (!vd) d.sames[k] = old;
      else if (!hasValue(old)) d.adds[k] = news[k];
      else if (!hasValue(news[k])) d.deletes[k] = old;
      else d.updates[k] = vd;
    } else if (hasValue(old)) d.deletes[k] = old;
  }
  for (const [k, v] of Object.entries(news)) if (!internal(k) && !(k in olds) && hasValue(v)) d.adds[k] = v;
  return Object.keys(d.adds).length + Object.keys(d.deletes).length + Object.keys(d.updates).length ? d : undefined;
}

/** properties_diff.go `PropertyValue.diff`; undefined: no change. */
export function diffValues(a: V, b: V): ValueDiff | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    const array: ArrayDiff = { adds: new Map(), deletes: new Map(), sames: new Map(), updates: new Map() };
    for (let i = a.length; i < b.length; i++) array.adds.set(i, b[i]);
    for (let i = b.length; i < a.length; i++) array.deletes.set(i, a[i]);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = diffValues(a[i], b[i]);
      if (d) array.updates.set(i, d);
      else array.sames.set(i, a[i]);
    }
    return array.adds.size + array.deletes.size + array.updates.size ? { old: a, new: b, array } : undefined;
  }
  if (isObj(a) && isObj(b)) {
    const object = diffObjects(a, b);
    return object ? { old: a, new: b, object } : undefined;
  }
  return deepEquals(a, b) ? undefined : { old: a, new: b };
}

/** detailedDiff.go `getProperty`: unknowns and secrets are opaque, returned as they are. */
function child(v: V, key: string | number): { value: V; has: boolean } {
  if (Array.isArray(v)) return typeof key === "number" && key < v.length ? { value: v[key], has: true } : none;
  if (isObj(v)) return typeof key === "string" && key in v ? { value: v[key], has: true } : none;
  if (v === UNKNOWN || isSecret(v)) return { value: v, has: true };
  return none;
}
const none = { value: undefined, has: false };

const emptyObjectDiff = (): ObjectDiff => ({ adds: {}, deletes: {}, sames: {}, updates: {} });
const emptyArrayDiff = (): ArrayDiff => ({ adds: new Map(), deletes: new Map(), sames: new Map(), updates: new Map() });

/** detailedDiff.go `addDiff`: one path of a detailed diff into `parent`. */
function addDiff(path: Array<string | number>, kind: string, parent: ValueDiff, olds: V, news: V): void {
  const [element, ...rest] = path as [string | number, ...Array<string | number>];
  const o = child(olds, element);
  const n = child(news, element);
  const orUnknown = (c: { value: V; has: boolean }) => (c.has ? c.value : UNKNOWN);
  const leaf = (): ValueDiff => diffValues(o.value, n.value) ?? { old: o.value, new: n.value };
  if (typeof element === "number") {
    parent.array ??= emptyArrayDiff();
    const a = parent.array;
    if (!rest.length) {
      if (kind.startsWith("add")) a.adds.set(element, orUnknown(n));
      else if (kind.startsWith("delete")) a.deletes.set(element, orUnknown(o));
      else a.updates.set(element, leaf());
    } else if (!hasValue(o.value) && hasValue(n.value)) a.adds.set(element, n.value);
    else if (hasValue(o.value) && !hasValue(n.value)) a.deletes.set(element, o.value);
    else {
      const ed = a.updates.get(element) ?? { old: undefined, new: undefined };
      addDiff(rest, kind, ed, o.value, n.value);
      a.updates.set(element, ed);
    }
    return;
  }
  parent.object ??= emptyObjectDiff();
  const d = parent.object;
  if (!rest.length) {
    if (kind.startsWith("add")) d.adds[element] = orUnknown(n);
    else if (kind.startsWith("delete")) d.deletes[element] = orUnknown(o);
    else d.updates[element] = leaf();
  } else if (!hasValue(o.value) && hasValue(n.value)) d.adds[element] = n.value;
  else if (hasValue(o.value) && !hasValue(n.value)) d.deletes[element] = o.value;
  else {
    const ed = d.updates[element] ?? { old: undefined, new: undefined };
    addDiff(rest, kind, ed, o.value, n.value);
    d.updates[element] = ed;
  }
}

/** `roles.a`, `roles["a b"]`, `a[0]` as path elements (resource.ParsePropertyPath, the forms providers send). */
function pathElements(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`) as string);
  }
  return out.length ? out : [path];
}

/** detailedDiff.go `TranslateDetailedDiff` for diffs of inputs: the old inputs against the new ones. */
export function translateDetailedDiff(
  detailed: Record<string, string>,
  oldInputs: Props,
  newInputs: Props,
): ObjectDiff | undefined {
  const root: ValueDiff = { old: undefined, new: undefined };
  for (const [path, kind] of Object.entries(detailed)) addDiff(pathElements(path), kind, root, oldInputs, newInputs);
  return root.object;
}

type Op = "same" | "create" | "update" | "delete";
const RAW_PREFIX: Record<Op, string> = { same: "  ", create: "+ ", update: "~ ", delete: "- " };

/** object_diff.go `propertyPrinter`, writing plain text. */
class Printer {
  constructor(
    private readonly out: string[],
    readonly indent: number,
    readonly op: Op,
    readonly prefix: boolean,
    readonly summary: boolean,
    readonly planning: boolean,
  ) {}
  indented(n: number) {
    return new Printer(this.out, this.indent + n, this.op, this.prefix, this.summary, this.planning);
  }
  withOp(op: Op) {
    return new Printer(this.out, this.indent, op, this.prefix, this.summary, this.planning);
  }
  withPrefix(prefix: boolean) {
    return new Printer(this.out, this.indent, this.op, prefix, this.summary, this.planning);
  }
  /** getIndentationString: four spaces a level, the last two replaced by the op's prefix. */
  writeIndented(s: string) {
    const spaces = "    ".repeat(this.indent);
    this.out.push((this.prefix && spaces ? spaces.slice(0, -2) + RAW_PREFIX[this.op] : spaces) + s);
  }
  writeUnprefixedIndented(s: string) {
    this.withPrefix(false).writeIndented(s);
  }
  write(s: string) {
    this.out.push(s);
  }

  title(name: string, align: number) {
    this.writeIndented(`${name.padEnd(align)}: `);
  }
  printObject(props: Record<string, V>) {
    const keys = Object.keys(props)
      .filter((k) => !internal(k))
      .sort();
    const max = Math.max(0, ...keys.map((k) => k.length));
    for (const k of keys) {
      this.title(k, max);
      this.printValue(props[k]);
    }
  }
  printValue(v: V) {
    this.recurse(v);
    this.write("\n");
  }
  recurse(v: V) {
    if (Array.isArray(v)) {
      if (!v.length) return this.write("[]");
      this.write("[\n");
      v.forEach((e, i) => {
        this.writeIndented(`    [${i}]: `);
        this.indented(1).printValue(e);
      });
      return this.writeUnprefixedIndented("]");
    }
    if (isObj(v)) {
      if (!Object.keys(v).length) return this.write("{}");
      this.write("{\n");
      this.indented(1).printObject(v);
      return this.writeUnprefixedIndented("}");
    }
    this.write(primitive(v));
  }

  printObjectDiff(diff: ObjectDiff) {
    const keys = [
      ...new Set([
        ...Object.keys(diff.adds),
        ...Object.keys(diff.deletes),
        ...Object.keys(diff.sames),
        ...Object.keys(diff.updates),
      ]),
    ].sort();
    const max = Math.max(0, ...keys.map((k) => k.length));
    for (const k of keys) {
      const title = (p: Printer) => p.title(k, max);
      if (k in diff.adds) this.printAdd(diff.adds[k], title);
      else if (k in diff.deletes) this.printDelete(diff.deletes[k], title);
      else if (k in diff.updates) this.printValueDiff(title, diff.updates[k]!);
      else if (!this.summary && shouldPrint(diff.sames[k], this.planning)) {
        const p = this.withOp("same").withPrefix(false);
        title(p);
        p.printValue(diff.sames[k]);
      }
    }
  }
  printAdd(v: V, title: (p: Printer) => void) {
    const p = this.withOp("create").withPrefix(true);
    title(p);
    p.printValue(v);
  }
  printDelete(v: V, title: (p: Printer) => void) {
    const p = this.withOp("delete").withPrefix(true);
    title(p);
    p.printValue(v);
  }
  printValueDiff(title: (p: Printer) => void, diff: ValueDiff) {
    const p = this.withOp("update").withPrefix(true);
    if (diff.array) {
      title(p);
      p.write("[\n");
      const a = diff.array;
      const len = Math.max(
        0,
        ...[...a.adds.keys(), ...a.deletes.keys(), ...a.sames.keys(), ...a.updates.keys()].map((i) => i + 1),
      );
      for (let i = 0; i < len; i++) {
        const elem = p.indented(2);
        const elemTitle = (q: Printer) => q.indented(-1).writeIndented(`[${i}]: `);
        if (a.adds.has(i)) elem.printAdd(a.adds.get(i), elemTitle);
        else if (a.deletes.has(i)) elem.printDelete(a.deletes.get(i), elemTitle);
        else if (a.updates.has(i)) elem.printValueDiff(elemTitle, a.updates.get(i)!);
        else if (a.sames.has(i) && !p.summary) {
          const same = elem.withOp("same").withPrefix(false);
          elemTitle(same);
          same.printValue(a.sames.get(i));
        }
      }
      p.writeUnprefixedIndented("]\n");
      return;
    }
    if (diff.object) {
      title(p);
      p.write("{\n");
      p.indented(1).printObjectDiff(diff.object);
      p.writeUnprefixedIndented("}\n");
      return;
    }
    const showOld = shouldPrint(diff.old, false);
    const showNew = shouldPrint(diff.new, false);
    if (showOld && showNew && isPrimitive(diff.old) && isPrimitive(diff.new)) {
      title(p);
      // printTextDiff of one-line strings without colours reads as the whole old and new text.
      p.write(`${primitive(diff.old)} => ${primitive(diff.new)}\n`);
      return;
    }
    if (showOld) p.printDelete(diff.old, title);
    if (showNew) p.printAdd(diff.new, title);
  }
}

const isPrimitive = (v: V) => !Array.isArray(v) && !isObj(v);

/** object_diff.go `printPrimitivePropertyValue`. */
function primitive(v: V): string {
  if (v === undefined || v === null) return "<null>";
  if (v === UNKNOWN) return "[unknown]";
  if (isSecret(v)) return "[secret]";
  if (typeof v === "number") return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}

/** object_diff.go `shouldPrintPropertyValue`: nulls, empty strings, empty arrays and objects are left out. */
function shouldPrint(v: V, _outs: boolean): boolean {
  if (v === undefined || v === null || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObj(v)) return Object.keys(v).length > 0;
  return true;
}

export interface PrintOptions {
  /** Nesting level of the lines (four columns each). @default 1 */
  indent?: number;
  /** Leave out what stays the same (the CLI's summary form). @default true */
  summary?: boolean;
}

const joined = (parts: string[]) =>
  parts
    .join("")
    .split("\n")
    .filter((l) => l.trim() !== "");

/** The lines of a diff of property maps, e.g. `  ~ settings: {`, `      ~ chat: true => false`, `    }`. */
export function printObjectDiff(diff: ObjectDiff, o: PrintOptions = {}): string[] {
  const out: string[] = [];
  new Printer(out, o.indent ?? 1, "update", true, o.summary ?? true, true).printObjectDiff(diff);
  return joined(out);
}

/** The lines of a property map as a create shows it (object_diff.go `PrintObject`, unprefixed). */
export function printObject(props: Props, o: PrintOptions = {}): string[] {
  const out: string[] = [];
  new Printer(out, o.indent ?? 1, "create", false, o.summary ?? true, true).printObject(props);
  return joined(out);
}

/** One value as the CLI prints it (`"Sales"`, `42`, `[secret]`, nested objects over several lines). */
export function printValue(v: Value, indent = 1): string[] {
  const out: string[] = [];
  new Printer(out, indent, "same", false, true, true).recurse(v);
  return out.join("").split("\n");
}
