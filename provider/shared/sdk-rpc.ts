/**
 * The gRPC library and the protobuf types of the Pulumi SDK the program or plugin runs with: the ones
 * its generated clients and services (`@pulumi/pulumi/proto/...`) were built against. Loaded from the
 * SDK's own location, since they are its dependencies, not this package's.
 */
import path from "node:path";

const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = <T>(id: string): T => require(require.resolve(id, { paths: [sdk] })) as T;

export const grpc = fromSdk<typeof import("@grpc/grpc-js")>("@grpc/grpc-js");
export const structproto = fromSdk<typeof import("google-protobuf/google/protobuf/struct_pb")>(
  "google-protobuf/google/protobuf/struct_pb",
);
export const anyproto = fromSdk<typeof import("google-protobuf/google/protobuf/any_pb")>(
  "google-protobuf/google/protobuf/any_pb",
);
export const emptyproto = fromSdk<typeof import("google-protobuf/google/protobuf/empty_pb")>(
  "google-protobuf/google/protobuf/empty_pb",
);
