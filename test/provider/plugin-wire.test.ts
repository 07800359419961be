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

/** `olds` → `setOlds`: the generated setter of a field. */
const setter = (name: string) => `set${name[0]!.toUpperCase()}${name.slice(1)}`;
const getter = (name: string) => `get${name[0]!.toUpperCase()}${name.slice(1)}`;

describe("lean-wire: each resource call's Struct fields under the numbers Pulumi's generated code uses", () => {
  const lean = leanService(provrpc.ResourceProviderService as never) as unknown as Record<
    string,
    {
      requestDeserialize(b: Buffer): object;
      responseSerialize(m: object): Buffer;
      requestSerialize(m: object): Buffer;
      responseDeserialize(b: Buffer): Record<string, () => { toJavaScript(): unknown } | undefined>;
    }
  >;

  for (const [method, { request, response }] of Object.entries(STRUCT_FIELDS)) {
    it(`${method}: the request's ${Object.keys(request).join(", ")}; the response's ${Object.keys(response).join(", ") || "none"}`, () => {
      const def = lean[method]!;
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

  it("a Struct field absent from the request reads as no properties", () => {
    const def = lean.update!;
    expect(propsOf(def.requestDeserialize(Buffer.alloc(0)), "olds")).toEqual({});
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
    expect(withSecret.token).toEqual(secret("s3cret")); // the input is left as it was
  });
});
