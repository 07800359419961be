// TEST INFRASTRUCTURE (engine stand-in): preloaded (`node --require`) into every provider host the
// stand-in starts, so that the partial state of a large failed create or update reaches it whole.
//
// A provider reports a partial create or update (Pulumi's init failure) in the `grpc-status-details-bin`
// trailer, with every property of the resource: for a GroupRoles of 1000 roles that is about 180 KB
// of base64. Pulumi's Go engine reads trailers up to grpc-go's default header list limit, 16 MiB
// (defaultClientMaxHeaderListSize in grpc-go's internal/transport/defaults.go; Pulumi's rpcutil sets
// only message sizes). Node's HTTP/2 cannot receive it, and no option of Node or @grpc/grpc-js changes
// that: one header field may not exceed 64 KiB once HPACK-encoded (nghttp2's NGHTTP2_HD_MAX_NV), and a
// header block may not span more than 8 CONTINUATION frames of 16 KiB (nghttp2's guard against
// CONTINUATION floods); past either the call fails with "Received RST_STREAM with code 2".
//
// So a trailer of more than INLINE_LIMIT characters is written, decoded, to a file in the directory the
// stand-in names in PULUMI_ENGINE_STANDIN_DETAILS_DIR, and the trailer names the file instead
// (`x-engine-status-details-file`); the stand-in reads it back (./provider-host.ts, `statusDetails`)
// and deletes it. What the stand-in reads is byte for byte what the Go engine would read. Nothing else
// changes, and small trailers go as they are.
"use strict";
const fs = require("node:fs");
const http2 = require("node:http2");
const path = require("node:path");

const KEY = "grpc-status-details-bin";
/** Well under both limits above, as base64 characters. */
const INLINE_LIMIT = 32 * 1024;
const dir = process.env.PULUMI_ENGINE_STANDIN_DETAILS_DIR;
let written = 0;

function moveOut(headers) {
  const value = headers?.[KEY];
  if (!dir || typeof value !== "string" || value.length <= INLINE_LIMIT) return headers;
  const name = `details-${process.pid}-${++written}.bin`;
  fs.writeFileSync(path.join(dir, name), Buffer.from(value, "base64"));
  const out = { ...headers, "x-engine-status-details-file": name };
  delete out[KEY];
  return out;
}

const createServer = http2.createServer;
http2.createServer = function patchedCreateServer(...args) {
  const server = createServer.apply(this, args);
  // Before gRPC's own listener: the stream's respond (a trailers-only reply) and sendTrailers.
  server.prependListener("stream", (stream) => {
    const respond = stream.respond;
    stream.respond = function (headers, options) {
      return respond.call(this, moveOut(headers), options);
    };
    const sendTrailers = stream.sendTrailers;
    stream.sendTrailers = function (headers) {
      return sendTrailers.call(this, moveOut(headers));
    };
  });
  return server;
};
