/**
 * How the plugin's handlers answer their gRPC calls: with the handler's result, or with its error as the
 * engine reads it; and the calls the plugin does not implement.
 */
import { anyproto, grpc } from "../shared/sdk-rpc";
import { toStruct, withoutShim } from "./values";
import type { Props } from "../shared/props";

const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof import("@pulumi/pulumi/proto/provider_pb");
const statuspb = require("@pulumi/pulumi/proto/status_pb") as typeof import("@pulumi/pulumi/proto/status_pb");

/**
 * An error as the engine reads it: a partial create or update (the providers' init errors carry `id`,
 * `properties` and `reasons`) travels as ErrorResourceInitFailed in the status details, so that the
 * engine keeps the resource in state with them.
 */
function asGrpcError(e: unknown): Partial<import("@grpc/grpc-js").StatusObject> & { details: string } {
  const err = e as Error & { id?: string; properties?: Props; reasons?: string[] };
  const metadata = new grpc.Metadata();
  if (err.id) {
    const detail = new provpb.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(toStruct(withoutShim(err.properties)));
    detail.setReasonsList(err.reasons ?? []);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statuspb.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(err.message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: err.message ?? String(e), metadata };
}

type Status = Partial<import("@grpc/grpc-js").StatusObject>;

/** Runs `handle` and answers the call with its result or its error. */
export function unary<Req, Res>(handle: (req: Req) => Promise<Res>) {
  return (call: { request: Req }, callback: (err: Status | null, res?: Res) => void): void => {
    handle(call.request).then(
      (res) => callback(null, res),
      (e: unknown) => callback(asGrpcError(e)),
    );
  };
}

/** The handler of a call the plugin does not implement: it answers UNIMPLEMENTED, naming the call. */
export const unimplemented = (what: string) => (_call: unknown, callback: (err: Status) => void) =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-grouproles` });
