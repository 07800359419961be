// TEST INFRASTRUCTURE (real-CLI layer): what the launchers of real language runtimes (./language-host.js
// for Node.js, ./python-host.js for Python) share: the LanguageRuntime gRPC service, from the `@pulumi/pulumi`
// protobuf bindings, with `Run`, `GetPluginInfo` and `GenerateProgram` (what `pulumi import` asks for
// the code it prints: ./program-gen, the language's generator of the pinned release, built beside this
// file by `npm run cli:install`) and nothing else (grpc-js answers UNIMPLEMENTED for the rest, which the
// CLI takes as an older host's answer where it has a fallback: GetRequiredPackages, GetRequiredPlugins),
// and how a finished program's exit becomes a RunResponse. See ./README.md.
"use strict";
const { execFile, spawn } = require("node:child_process");
const path = require("node:path");

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd(), __dirname] }));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const langrpc = require(path.join(pulumiDir, "proto/language_grpc_pb"));
const langproto = require(path.join(pulumiDir, "proto/language_pb"));
const pluginproto = require(path.join(pulumiDir, "proto/plugin_pb"));

/** The exit code with which a runtime says it already showed the user an actionable message. */
const BAIL_EXIT_CODE = 32;

/** The engine's address: the last argument that is not a flag, as the CLI starts a language plugin. */
const engineAddress =
  process.argv
    .slice(2)
    .filter((a) => !a.startsWith("-"))
    .pop() ?? "";

/**
 * Runs `command` with its output on this process's, as the real hosts' exec.Cmd do; resolves with its
 * exit (`code`, `signal`) or the `error` that kept it from starting.
 */
function runChild(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
    child.on("error", (error) => resolve({ error }));
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
}

/** A RunResponse: `error` set, or `bail` for exit code 32; `message(code)` words any other failure. */
function runResponse({ error, code, signal, message }) {
  const response = new langproto.RunResponse();
  if (error) response.setError(error);
  else if (code === BAIL_EXIT_CODE) response.setBail(true);
  else if (code !== 0) response.setError(message(code ?? signal));
  return response;
}

/**
 * GenerateProgram for `language`: the request, protobuf-encoded, to ./program-gen, whose answer is the
 * response; its failure (its stderr) fails the call, as a host's error does.
 */
function generateProgram(language) {
  return (call, callback) => {
    const child = execFile(
      path.join(__dirname, "program-gen"),
      [language],
      { encoding: "buffer", maxBuffer: 1 << 28 },
      (err, stdout, stderr) => {
        if (err) callback({ code: grpc.status.UNKNOWN, details: stderr.toString().trim() || err.message });
        else callback(null, langproto.GenerateProgramResponse.deserializeBinary(new Uint8Array(stdout)));
      },
    );
    child.stdin.end(Buffer.from(call.request.serializeBinary()));
  };
}

/**
 * Serves `run` (a child process per RunRequest), GetPluginInfo (`version`) and GenerateProgram in
 * `language`, printing the port as plugins do.
 */
function serveLanguageHost(name, run, version, language) {
  const getPluginInfo = (_call, callback) => {
    const info = new pluginproto.PluginInfo();
    info.setVersion(version);
    callback(null, info);
  };
  const server = new grpc.Server();
  server.addService(langrpc.LanguageRuntimeService, { run, getPluginInfo, generateProgram: generateProgram(language) });
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      console.error(`${name} (launcher): ${err.message}`);
      process.exit(1);
    }
    // The plugin protocol: the port alone on the first line of stdout.
    process.stdout.write(`${port}\n`);
  });
}

module.exports = { engineAddress, pulumiDir, runChild, runResponse, serveLanguageHost };
