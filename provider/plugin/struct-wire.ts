/**
 * google.protobuf.Struct straight between its wire bytes and plain JavaScript, without the message
 * objects of google-protobuf (jspb). A jspb Struct holds, per value, a message object with its own
 * arrays and map wrappers: decoding a 5,000-entry catalogue's old outputs, new inputs and old inputs that
 * way held about 150,000 such objects, most of the plugin's memory during an update (heap snapshots,
 * docs/performance.md "Provider host memory"). Here a value costs what its JavaScript form costs.
 *
 * The wire format (https://protobuf.dev/programming-guides/encoding/, struct.proto): a Struct is
 * field 1, repeated map entries {1: key, 2: Value}; a Value is one of 1 null (varint), 2 number
 * (64-bit double), 3 string, 4 bool (varint), 5 Struct, 6 ListValue; a ListValue is field 1, repeated
 * Value. The JavaScript forms are jspb's `toJavaScript`/`fromJavaScript` ones (null, number, string,
 * boolean, object, array); like the JSON round trip it replaces, an undefined property is left out, an
 * undefined or non-finite number in a list is null, and a value with `toJSON` (a Date) goes as its JSON form.
 */
import type { Props } from "../shared/props";

/** Wire types of the protobuf encoding. */
const VARINT = 0;
const FIXED64 = 1;
const DELIMITED = 2;
const FIXED32 = 5;

/** A reader over one message's bytes. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.end) throw new Error("truncated varint in a Struct");
      const b = this.bytes[this.at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }

  /** The next field's number and wire type; undefined at the end. */
  tag(): { field: number; wire: number } | undefined {
    if (this.at >= this.end) return undefined;
    const t = this.varint();
    return { field: Math.floor(t / 8), wire: t % 8 };
  }

  /** Moves past `length` bytes; returns where they start. */
  advance(length: number): number {
    const start = this.at;
    if (start + length > this.end) throw new Error("truncated field in a Struct");
    this.at += length;
    return start;
  }

  /** A length-delimited field's bounds, moving past it. */
  delimited(): [number, number] {
    const start = this.advance(this.varint());
    return [start, this.at];
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === FIXED64) this.advance(8);
    else if (wire === DELIMITED) this.delimited();
    else if (wire === FIXED32) this.advance(4);
    else throw new Error(`unsupported wire type ${wire} in a Struct`);
  }
}

const utf8 = new TextDecoder();

function text(bytes: Uint8Array, [start, end]: [number, number]): string {
  return utf8.decode(bytes.subarray(start, end));
}

/**
 * The Struct encoded in `bytes[start, end)` as a plain object, its keys in sorted order as jspb's
 * `toJavaScript` gives them (its Map sorts keys in `forEach`). The engine is written in Go, whose map
 * order is random on every marshal, so the wire order of the same properties changes from call to call;
 * anything that walks an object's keys (which of two duplicate names a refusal names, the order of
 * requests) would change with it.
 */
export function decodeStruct(bytes: Uint8Array, start = 0, end = bytes.length): Props {
  const fields = new Map<string, unknown>();
  const r = new Reader(bytes, start, end);
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field !== 1 || t.wire !== DELIMITED) {
      r.skip(t.wire);
      continue;
    }
    const [entryStart, entryEnd] = r.delimited();
    const entry = new Reader(bytes, entryStart, entryEnd);
    let key = "";
    let value: unknown = null;
    for (let e = entry.tag(); e; e = entry.tag()) {
      if (e.field === 1 && e.wire === DELIMITED) key = text(bytes, entry.delimited());
      else if (e.field === 2 && e.wire === DELIMITED) value = decodeValue(bytes, ...entry.delimited());
      else entry.skip(e.wire);
    }
    fields.set(key, value); // a key met twice: the last one, as protobuf merges map entries
  }
  return sortedObject(fields);
}

/** An object of `fields`, its keys in sorted order (jspb's). */
function sortedObject(fields: ReadonlyMap<string, unknown>): Props {
  const out: Props = {};
  for (const key of [...fields.keys()].sort()) setOwn(out, key, fields.get(key));
  return out;
}

/** `o[key] = value`, except that a key `__proto__` is a property like any other, never the prototype. */
export function setOwn(o: Props, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function decodeList(bytes: Uint8Array, start: number, end: number): unknown[] {
  const out: unknown[] = [];
  const r = new Reader(bytes, start, end);
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === DELIMITED) out.push(decodeValue(bytes, ...r.delimited()));
    else r.skip(t.wire);
  }
  return out;
}

function decodeValue(bytes: Uint8Array, start: number, end: number): unknown {
  const r = new Reader(bytes, start, end);
  let value: unknown = null; // a Value with no kind set reads as null
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === VARINT) {
      r.varint();
      value = null;
    } else if (t.field === 2 && t.wire === FIXED64) {
      value = new DataView(bytes.buffer, bytes.byteOffset + r.advance(8), 8).getFloat64(0, true);
    } else if (t.field === 3 && t.wire === DELIMITED) value = text(bytes, r.delimited());
    else if (t.field === 4 && t.wire === VARINT) value = r.varint() !== 0;
    else if (t.field === 5 && t.wire === DELIMITED) value = decodeStruct(bytes, ...r.delimited());
    else if (t.field === 6 && t.wire === DELIMITED) value = decodeList(bytes, ...r.delimited());
    else r.skip(t.wire);
  }
  return value;
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

/** Field `field` of wire type 2 holding `body`. */
export function delimitedField(field: number, body: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + DELIMITED), varint(body.length), body]);
}

const NULL_VALUE = Buffer.from([1 * 8 + VARINT, 0]);
const TRUE_VALUE = Buffer.from([4 * 8 + VARINT, 1]);
const FALSE_VALUE = Buffer.from([4 * 8 + VARINT, 0]);

function encodeValue(v: unknown): Buffer {
  if (v === null || v === undefined) return NULL_VALUE;
  if (typeof v === "boolean") return v ? TRUE_VALUE : FALSE_VALUE;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return NULL_VALUE; // as JSON has it
    const b = Buffer.alloc(9);
    b[0] = 2 * 8 + FIXED64;
    b.writeDoubleLE(v, 1);
    return b;
  }
  if (typeof v === "string") return delimitedField(3, Buffer.from(v, "utf8"));
  // A value with its own JSON form (a Date) is sent as that form, as the JSON round trip sent it.
  if (typeof (v as { toJSON?: unknown }).toJSON === "function")
    return encodeValue((v as { toJSON(): unknown }).toJSON());
  if (Array.isArray(v)) return delimitedField(6, Buffer.concat(v.map((x) => delimitedField(1, encodeValue(x)))));
  if (typeof v === "object") return delimitedField(5, encodeStruct(v as Props));
  throw new Error(`a ${typeof v} cannot be sent in a Struct`);
}

/** `value`'s own enumerable properties as a Struct's bytes, keys sorted as jspb writes them; undefined ones left out. */
export function encodeStruct(value: Props): Buffer {
  const entries: Buffer[] = [];
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (v === undefined) continue;
    const entry = Buffer.concat([delimitedField(1, Buffer.from(key, "utf8")), delimitedField(2, encodeValue(v))]);
    entries.push(delimitedField(1, entry));
  }
  return Buffer.concat(entries);
}

/**
 * A message's bytes with the top-level fields numbered in `fields` taken out and decoded as Structs
 * (a field met twice merges, as protobuf merges embedded messages); `rest` holds every other field's
 * bytes in their order, for the message's own decoder.
 */
export function takeStructFields(
  bytes: Uint8Array,
  fields: ReadonlySet<number>,
): { rest: Buffer; structs: Map<number, Props> } {
  const structs = new Map<number, Props>();
  const kept: Uint8Array[] = [];
  const r = new Reader(bytes, 0, bytes.length);
  let keptFrom = 0;
  for (let fieldStart = r.at, t = r.tag(); t; fieldStart = r.at, t = r.tag()) {
    if (!fields.has(t.field) || t.wire !== DELIMITED) {
      r.skip(t.wire);
      continue;
    }
    kept.push(bytes.subarray(keptFrom, fieldStart));
    const decoded = decodeStruct(bytes, ...r.delimited());
    const earlier = structs.get(t.field);
    structs.set(
      t.field,
      earlier ? sortedObject(new Map([...Object.entries(earlier), ...Object.entries(decoded)])) : decoded,
    );
    keptFrom = r.at;
  }
  kept.push(bytes.subarray(keptFrom));
  return { rest: Buffer.concat(kept), structs };
}
