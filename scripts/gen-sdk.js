#!/usr/bin/env node
// `npm run sdk:gen`: the Python and Go SDKs (sdk/python, sdk/go) from schema.json, by the code generators
// of the Pulumi CLI that tools/pulumi-cli/go.mod pins (tools/pulumi-cli/gen-sdk), at this package's
// version; then the Go SDK's go.sum (`go mod tidy`), and sdk/generated-from.json, which records the
// schema's digest so that `npm test` (no Go needed) can tell the SDKs were made from today's schema.json.
// Needs Go and the Go module proxy.
"use strict";
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, "sdk");
const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
const schema = path.join(root, "schema.json");

function go(args, cwd, env = {}) {
  const r = spawnSync("go", args, { cwd, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  if (r.error || r.status !== 0) {
    console.error(`sdk:gen: go ${args.join(" ")} failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}`);
    process.exit(1);
  }
}

go(["run", "./gen-sdk", schema, version, out], path.join(root, "tools", "pulumi-cli"), { GOFLAGS: "-mod=readonly" });
go(["mod", "tidy"], path.join(out, "go"));
const digest = crypto.createHash("sha256").update(fs.readFileSync(schema)).digest("hex");
fs.writeFileSync(
  path.join(out, "generated-from.json"),
  `${JSON.stringify({ schemaSha256: digest, version, generator: "github.com/pulumi/pulumi/pkg/v3 codegen, tools/pulumi-cli/go.mod" }, null, 2)}\n`,
);
console.log(
  `sdk:gen: ${path.relative(root, out) || "."}/python and /go from schema.json (sha256 ${digest.slice(0, 12)}), version ${version}`,
);
