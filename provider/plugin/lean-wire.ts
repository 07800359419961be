/**
 * The ResourceProvider service definition with the property Structs of the resource calls decoded and
 * encoded by ./struct-wire instead of google-protobuf: a request's Struct fields are taken out of its
 * bytes before the generated decoder sees the rest, and a response's are appended after the generated
 * encoder's bytes (protobuf merges a message's fields in any order: a field written once after the
 * others is the same message). The handlers read them with {@link propsOf} and attach them with
 * {@link withProps}. Field numbers are pulumi/pulumi's proto/pulumi/provider.proto (v3.270, the
 * generated `provider_pb.js` readers); test/provider/plugin-wire.test.ts checks each against the
 * generated code.
 */
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { delimitedField, encodeStruct, takeStructFields } from "./struct-wire";
import type { Props } from "../shared/props";

/** Per method: the Struct fields of its request and of its response, by name, with their numbers. */
export const STRUCT_FIELDS = {
  check: { request: { olds: 2, news: 3, oldOutputs: 9 }, response: { inputs: 1 } },
  diff: { request: { olds: 3, news: 4, oldInputs: 6 }, response: {} },
  create: { request: { properties: 2 }, response: { properties: 2 } },
  read: { request: { properties: 3, inputs: 4 }, response: { properties: 2, inputs: 3 } },
  update: { request: { olds: 3, news: 4, oldInputs: 8 }, response: { properties: 1 } },
  delete: { request: { properties: 3, oldInputs: 5 }, response: {} },
} as const;

type Method = keyof typeof STRUCT_FIELDS;

/** What each lean request carries beside its message: its Structs, by field name. */
const decoded = new WeakMap<object, Record<string, Props>>();
/** What each lean response carries beside its message: Structs to append, by field number. */
const attached = new WeakMap<object, Map<number, Props>>();

/** The Struct field `name` of a request as plain values ({} when absent, as jspb gives none). */
export function propsOf(request: object, name: string): Props {
  return decoded.get(request)?.[name] ?? {};
}

/** `response` with the Struct fields `props` (by field name for `method`), sent after its own fields. */
export function withProps<T extends object>(response: T, method: Method, props: Record<string, Props>): T {
  const numbers = STRUCT_FIELDS[method].response as Record<string, number>;
  const fields = new Map<number, Props>();
  for (const [name, value] of Object.entries(props)) {
    const field = numbers[name];
    if (field === undefined) throw new Error(`${method} responses have no Struct field ${name}`);
    fields.set(field, value);
  }
  attached.set(response, fields);
  return response;
}

/** `service` with the resource calls' Structs lean (see the file's comment); other methods as they were. */
export function leanService(service: ServiceDefinition): ServiceDefinition {
  const lean: Record<string, MethodDefinition<unknown, unknown>> = { ...service };
  for (const [method, { request }] of Object.entries(STRUCT_FIELDS)) {
    const def = service[method];
    if (!def) throw new Error(`the ResourceProvider service has no method ${method}`);
    const names = new Map(Object.entries(request).map(([name, field]) => [field as number, name]));
    const numbers = new Set(names.keys());
    lean[method] = {
      ...def,
      requestDeserialize: (bytes: Buffer) => {
        const { rest, structs } = takeStructFields(bytes, numbers);
        const message = def.requestDeserialize(rest);
        decoded.set(message as object, Object.fromEntries([...structs].map(([field, v]) => [names.get(field)!, v])));
        return message;
      },
      responseSerialize: (message: unknown) => {
        const own = def.responseSerialize(message);
        const fields = attached.get(message as object);
        if (!fields?.size) return own;
        return Buffer.concat([own, ...[...fields].map(([field, v]) => delimitedField(field, encodeStruct(v)))]);
      },
    };
  }
  return lean;
}
