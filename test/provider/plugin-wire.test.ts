/**
 * The plugin's lean property Structs (provider/plugin/struct-wire.ts, lean-wire.ts) against the
 * google-protobuf code Pulumi generates: the same values from the same bytes, bytes that code reads as
 * the values sent, and, per resource call, each Struct field under its own number in requests and
 * responses. A wrong field number, a wire type misread or a value kind mapped to another fails here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leanService, propsOf, STRUCT_FIELDS, withProps } from "../../provider/plugin/lean-wire";
import { decodeStruct, encodeStruct, takeStructFields } from "../../provider/plugin/struct-wire";
import { reveal } from "../../provider/plugin/values";
import { structproto } from "../../provider/shared/sdk-rpc";

const provrpc =
  require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof import("@pulumi/pulumi/proto/provider_grpc_pb");
const provpb = require("@pulumi/pulumi/proto/provider_pb") as Record<string, new () => Record<string, unknown>>;

type Props = Record<string, unknown>;

/** Objects as a Struct carries them: no `__proto__` key (jspb would set the prototype with it). */
const structs = fc
  .dictionary(
    fc.string().filter((k) => k !== "__proto__"),
    fc.jsonValue(),
  )
  .filter((o) => !JSON.stringify(o).includes('"__proto__"'));

const jspbBytes = (v: Props) => Buffer.from(structproto.Struct.fromJavaScript(v as never).serializeBinary());
const jspbValues = (bytes: Uint8Array) => structproto.Struct.deserializeBinary(bytes).toJavaScript();
const encodeValueOf = (x: unknown) => Buffer.from(structproto.Value.fromJavaScript(x as never).serializeBinary());

describe("struct-wire: the Struct encoding, as google-protobuf has it", () => {
  it("decodes what google-protobuf encodes, to the values it decodes", () => {
    fc.assert(
      fc.property(structs, (v) => {
        const bytes = jspbBytes(v);
        expect(decodeStruct(bytes)).toStrictEqual(jspbValues(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it("gives keys in jspb's sorted order whatever order the entries came in (Go's map order is random), the last of a key twice winning", () => {
    const entry = (key: string, value: unknown) =>
      field(1, Buffer.concat([field(1, Buffer.from(key)), field(2, encodeValueOf(value))]));
    fc.assert(
      fc.property(structs, fc.infiniteStream(fc.nat()), (v, draws) => {
        const entries = Object.entries(v).map(([k, x]) => ({ k, x, at: draws.next().value }));
        entries.sort((p, q) => p.at - q.at); // a random wire order
        const bytes = Buffer.concat(entries.map(({ k, x }) => entry(k, x)));
        expect(Object.keys(decodeStruct(bytes))).toEqual(Object.keys(jspbValues(jspbBytes(v))));
      }),
      { numRuns: 200 },
    );
    const twice = Buffer.concat([entry("b", 1), entry("a", 1), entry("b", 2)]);
    expect(JSON.stringify(decodeStruct(twice))).toBe('{"a":1,"b":2}');
  });

  it("writes the bytes google-protobuf writes (keys sorted)", () => {
    fc.assert(
      fc.property(structs, (v) => {
        expect(encodeStruct(v)).toEqual(jspbBytes(v));
      }),
      { numRuns: 300 },
    );
  });

  it("encodes what google-protobuf decodes to the values sent", () => {
    fc.assert(
      fc.property(structs, (v) => {
        expect(jspbValues(encodeStruct(v))).toStrictEqual(jspbValues(jspbBytes(v)));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves out undefined properties, sends undefined or non-finite list items as null and a Date as its JSON, as JSON does", () => {
    const sent = { a: undefined, b: [undefined, Number.NaN, Number.POSITIVE_INFINITY, 1], c: { d: undefined } };
    expect(jspbValues(encodeStruct(sent))).toStrictEqual({ b: [null, null, null, 1], c: {} });
    const at = new Date("2026-11-29T12:00:00.000Z");
    expect(jspbValues(encodeStruct({ at }))).toStrictEqual({ at: "2026-11-29T12:00:00.000Z" });
  });

  it("skips fields it does not know, of every wire type, at every level", () => {
    // Payloads that read as known fields if they were not skipped whole (0x0a: field 1, length-delimited).
    const lookalike = field(1, Buffer.concat([field(1, Buffer.from("bad")), field(2, field(3, Buffer.from("bad")))]));
    const unknown = Buffer.concat([
      tag(9, 0),
      varint(10),
      tag(10, 1),
      Buffer.from([0x0a, 0x01, 0x12, 0x0a, 0x01, 0x12, 0x0a, 0x01]),
      field(11, lookalike),
      tag(12, 5),
      Buffer.from([0x0a, 0x01, 0x12, 0x00]),
    ]);
    // Struct {k: Value{list: [Value{"x"}, Value{2}, Value{true}, Value{null}, Value{{}}]}}, unknown fields in each.
    const value = (kind: Buffer) => Buffer.concat([kind, unknown]);
    const double = Buffer.concat([tag(2, 1), Buffer.from(new Float64Array([2]).buffer)]);
    const list = Buffer.concat([
      field(1, value(field(3, Buffer.from("x")))),
      field(1, value(double)),
      field(1, value(Buffer.concat([tag(4, 0), varint(1)]))),
      field(1, value(Buffer.concat([tag(1, 0), varint(0)]))),
      field(1, value(field(5, unknown))),
      unknown,
    ]);
    const entry = Buffer.concat([field(1, Buffer.from("k")), unknown, field(2, value(field(6, list)))]);
    const bytes = Buffer.concat([unknown, field(1, entry), unknown]);
    expect(decodeStruct(bytes)).toStrictEqual({ k: ["x", 2, true, null, {}] });
  });

  it("reads a map entry without a key as the empty key, and a Value's last kind as its kind", () => {
    const keyless = field(1, field(2, field(3, Buffer.from("v"))));
    const lastWins = (...kinds: Buffer[]) =>
      field(1, Buffer.concat([field(1, Buffer.from("k")), field(2, Buffer.concat(kinds))]));
    const text = field(3, Buffer.from("s"));
    const nullKind = Buffer.concat([tag(1, 0), varint(0)]);
    expect(decodeStruct(keyless)).toStrictEqual({ "": "v" });
    expect(decodeStruct(lastWins(text, nullKind))).toStrictEqual({ k: null });
    expect(decodeStruct(lastWins(nullKind, text))).toStrictEqual({ k: "s" });
    // A null_value number under another wire type is skipped: the kind before it stays.
    expect(decodeStruct(lastWins(text, tag(1, 2), varint(0)))).toStrictEqual({ k: "s" });
  });

  it("skips an unknown length-delimited field of a map entry, though its payload would read as a Value", () => {
    const entry = Buffer.concat([
      field(1, Buffer.from("k")),
      field(2, field(3, Buffer.from("kept"))),
      field(3, field(3, Buffer.from("not a value"))), // field 3 of an entry: none
    ]);
    expect(decodeStruct(field(1, entry))).toStrictEqual({ k: "kept" });
  });

  it("skips the whole payload of a field it leaves to the message, though it would read as a taken field", () => {
    // Field 1 (a string) holding the bytes of field 3 with length 0: read as tags, an empty Struct 3.
    const bytes = field(1, Buffer.from([3 * 8 + 2, 0]));
    const { rest, structs: taken } = takeStructFields(bytes, new Set([3]));
    expect(taken.size).toBe(0);
    expect(Buffer.from(rest)).toEqual(bytes);
  });

  it("skips a known field number with another wire type than its own", () => {
    // Struct field 1 as a varint; an entry's key and value as varints; each Value kind under a wrong wire type.
    const wrongKinds = Buffer.concat([tag(2, 0), varint(1), tag(3, 0), varint(1), tag(4, 2), varint(0)]);
    const wrongValue = Buffer.concat([tag(5, 0), varint(1), tag(6, 0), varint(1), tag(1, 2), varint(0), wrongKinds]);
    const entry = (key: string, body: Buffer) =>
      field(1, Buffer.concat([tag(1, 0), varint(5), field(1, Buffer.from(key)), tag(2, 0), varint(3), body]));
    const list = field(6, Buffer.concat([tag(1, 0), varint(4), field(1, field(3, Buffer.from("y")))]));
    const bytes = Buffer.concat([tag(1, 0), varint(4), entry("a", field(2, wrongValue)), entry("b", field(2, list))]);
    expect(decodeStruct(bytes)).toStrictEqual({ a: null, b: ["y"] });
  });

  it("fails on bytes cut short or a wire type protobuf 3 has not, naming it", () => {
    // Cut anywhere but between the two entries (the first alone is a whole Struct).
    const first = encodeStruct({ a: "text" });
    const whole = Buffer.concat([first, encodeStruct({ n: 1.5 })]);
    for (let cut = 1; cut < whole.length; cut++)
      if (cut !== first.length)
        expect(() => decodeStruct(whole.subarray(0, cut)), `cut at ${cut}`).toThrow(
          /^truncated (varint|field) in a Struct$/,
        );
    expect(() => decodeStruct(Buffer.from([0x0a, 0x80]))).toThrow("truncated varint in a Struct");
    expect(() => decodeStruct(Buffer.from([0x0b]))).toThrow("unsupported wire type 3 in a Struct");
    expect(() => decodeStruct(Buffer.concat([tag(9, 1), Buffer.alloc(7)]))).toThrow("truncated field in a Struct");
    expect(() => decodeStruct(Buffer.concat([tag(9, 5), Buffer.alloc(3)]))).toThrow("truncated field in a Struct");
  });

  it("gives ordinary objects: properties can be set and removed, `__proto__` is a key like any other", () => {
    const decoded = decodeStruct(
      Buffer.concat([
        field(1, Buffer.concat([field(1, Buffer.from("__proto__")), field(2, field(3, Buffer.from("p")))])),
        encodeStruct({ a: 1, b: 2 }),
      ]),
    );
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(["__proto__", "a", "b"]);
    decoded.a = 3;
    delete decoded.b;
    expect({ ...decoded }).toStrictEqual(
      Object.fromEntries([
        ["__proto__", "p"],
        ["a", 3],
      ]),
    );
  });

  it("refuses values a Struct cannot carry, naming their kind", () => {
    expect(() => encodeStruct({ f: () => 1 })).toThrow("a function cannot be sent in a Struct");
    expect(() => encodeStruct({ big: 1n })).toThrow("a bigint cannot be sent in a Struct");
    expect(() => encodeStruct({ s: Symbol("s") })).toThrow("a symbol cannot be sent in a Struct");
  });

  it("merges a Struct field met twice, and leaves a field of that number with another wire type to the message", () => {
    const bytes = Buffer.concat([
      field(3, encodeStruct({ a: 1, b: 1 })),
      tag(3, 0),
      varint(7),
      field(3, encodeStruct({ b: 2 })),
    ]);
    const { rest, structs: taken } = takeStructFields(bytes, new Set([3]));
    expect(Object.fromEntries(taken)).toStrictEqual({ 3: { a: 1, b: 2 } });
    expect(Buffer.from(rest)).toEqual(Buffer.concat([tag(3, 0), varint(7)]));
  });

  it("takes the named fields out of a message and keeps every other field's bytes in order", () => {
    const req = new provpb.UpdateRequest!() as unknown as import("@pulumi/pulumi/proto/provider_pb").UpdateRequest;
    req.setId("42");
    req.setUrn("urn:x");
    req.setOlds(structproto.Struct.fromJavaScript({ o: 1 }));
    req.setNews(structproto.Struct.fromJavaScript({ n: "two" }));
    req.setIgnorechangesList(["a", "b"]);
    req.setPreview(true);
    const { rest, structs: taken } = takeStructFields(req.serializeBinary(), new Set([3, 4]));
    expect(Object.fromEntries(taken)).toStrictEqual({ 3: { o: 1 }, 4: { n: "two" } });
    const others = provpb.UpdateRequest as unknown as { deserializeBinary(b: Uint8Array): typeof req };
    const back = others.deserializeBinary(rest);
    expect([back.getId(), back.getUrn(), back.getIgnorechangesList(), back.getPreview()]).toEqual([
      "42",
      "urn:x",
      ["a", "b"],
      true,
    ]);
    expect(back.getOlds()).toBeUndefined();
    expect(back.getNews()).toBeUndefined();
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  return Buffer.from([...out, n]);
}
const tag = (fieldNumber: number, wire: number) => varint(fieldNumber * 8 + wire);
/** A length-delimited field. */
const field = (fieldNumber: number, body: Buffer) => Buffer.concat([tag(fieldNumber, 2), varint(body.length), body]);

/** `olds` → `setOlds`: the generated setter of a field. */
const setter = (name: string) => `set${name[0]!.toUpperCase()}${name.slice(1)}`;
const getter = (name: string) => `get${name[0]!.toUpperCase()}${name.slice(1)}`;

describe("lean-wire: each resource call's Struct fields under the numbers Pulumi's generated code uses", () => {
  // Made in each test, not when the suite is collected: a mutation run switches its mutants on per test.
  type Lean = Record<
    string,
    {
      requestDeserialize(b: Buffer): object;
      responseSerialize(m: object): Buffer;
      requestSerialize(m: object): Buffer;
      responseDeserialize(b: Buffer): Record<string, () => { toJavaScript(): unknown } | undefined>;
    }
  >;
  const leanNow = () => leanService(provrpc.ResourceProviderService as never) as unknown as Lean;

  for (const [method, { request, response }] of Object.entries(STRUCT_FIELDS)) {
    it(`${method}: the request's ${Object.keys(request).join(", ")}; the response's ${Object.keys(response).join(", ") || "none"}`, () => {
      const def = leanNow()[method]!;
      // A request as the engine sends it, each Struct field marked with its own name.
      const req = def.requestDeserialize(Buffer.alloc(0)) as Record<string, (v: unknown) => void>;
      for (const name of Object.keys(request))
        req[setter(name)]!(structproto.Struct.fromJavaScript({ field: name, nested: { list: [1, true, null] } }));
      (req.setUrn as (u: string) => void)("urn:pulumi:dev::p::grouproles:index:Role::r");
      const got = def.requestDeserialize(def.requestSerialize(req)) as Record<string, () => unknown>;
      for (const name of Object.keys(request)) {
        expect(propsOf(got, name)).toStrictEqual({ field: name, nested: { list: [1, true, null] } });
        expect(got[getter(name)]!()).toBeUndefined(); // taken out before the generated decoder
      }
      expect(got.getUrn!()).toBe("urn:pulumi:dev::p::grouproles:index:Role::r");

      // A response: the generated decoder finds each Struct under its own field.
      const responseType = `${method[0]!.toUpperCase()}${method.slice(1)}Response`;
      if (!Object.keys(response).length) return;
      const res = withProps(
        new provpb[responseType]!(),
        method as keyof typeof STRUCT_FIELDS,
        Object.fromEntries(Object.keys(response).map((name) => [name, { field: name }])),
      );
      const back = def.responseDeserialize(def.responseSerialize(res));
      for (const name of Object.keys(response)) expect(back[getter(name)]!()?.toJavaScript()).toEqual({ field: name });
    });
  }

  it("a Struct field absent from the request, or a message not decoded here, reads as no properties", () => {
    const def = leanNow().update!;
    expect(propsOf(def.requestDeserialize(Buffer.alloc(0)), "olds")).toEqual({});
    expect(propsOf(new provpb.UpdateRequest!(), "olds")).toEqual({});
  });

  it("a response without Structs is the generated encoder's bytes; an unknown Struct field is refused", () => {
    const plain = provrpc.ResourceProviderService.update;
    const res = new provpb.UpdateResponse!();
    const lean = leanNow();
    expect(lean.update!.responseSerialize(res)).toEqual(plain.responseSerialize(res as never));
    const none = withProps(new provpb.UpdateResponse!(), "update", {});
    expect(lean.update!.responseSerialize(none)).toEqual(plain.responseSerialize(none as never));
    expect(() => withProps(new provpb.UpdateResponse!(), "update", { inputs: {} })).toThrow(
      "update responses have no Struct field inputs",
    );
  });

  it("keeps every other method, and each method's path and stream kinds, as generated", () => {
    const generated = provrpc.ResourceProviderService as unknown as Record<string, Record<string, unknown>>;
    const lean = leanNow();
    expect(Object.keys(lean).sort()).toEqual(Object.keys(generated).sort());
    for (const [method, def] of Object.entries(generated)) {
      const { requestDeserialize: _rd, responseSerialize: _rs, ...shape } = def;
      expect(lean[method], method).toMatchObject(shape);
      if (!(method in STRUCT_FIELDS)) expect(lean[method], method).toBe(def);
    }
  });

  it("refuses a service without one of the resource calls", () => {
    const { update: _update, ...withoutUpdate } = provrpc.ResourceProviderService;
    expect(() => leanService(withoutUpdate as never)).toThrow("the ResourceProvider service has no method update");
  });
});

describe("reveal", () => {
  const SIG = "4dabf18193072939515e22adb298388d";
  const secret = (value: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value });

  it("returns properties without secrets as they are, and copies only the way to a secret", () => {
    const plain = { roles: { a: { name: "A", settings: { x: true } } }, list: [1, { b: 2 }] };
    expect(reveal(plain)).toBe(plain);
    const withSecret = { keep: { same: 1 }, token: secret("s3cret"), list: [0, secret({ deep: true })] };
    const revealed = reveal(withSecret) as Props;
    expect(revealed).toStrictEqual({ keep: { same: 1 }, token: "s3cret", list: [0, { deep: true }] });
    expect(revealed.keep).toBe(withSecret.keep);
    revealed.token = "changed"; // an ordinary property of the copy
    expect(revealed.token).toBe("changed");
    expect(withSecret.token).toEqual(secret("s3cret")); // the input is left as it was
  });
});
