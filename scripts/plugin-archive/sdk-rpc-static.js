// The plugin archive's provider/shared/sdk-rpc (scripts/pack-plugin.js puts it in its place): the same
// modules, required by name so that the bundler takes them in. The package's own sdk-rpc resolves them
// from the Pulumi SDK's location at run time, which a bundle has no more.
"use strict";
exports.grpc = require("@grpc/grpc-js");
exports.structproto = require("google-protobuf/google/protobuf/struct_pb");
exports.anyproto = require("google-protobuf/google/protobuf/any_pb");
exports.emptyproto = require("google-protobuf/google/protobuf/empty_pb");
