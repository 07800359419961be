// TEST INFRASTRUCTURE (engine stand-in): a process that runs Pulumi programs the way the Automation API
// runs an inline program.
//
// `stack.up({ program })` serves Pulumi's own LanguageServer (@pulumi/pulumi/automation/server) in the
// caller's process and hands its address to the CLI (`--client`); the engine then calls its `Run` once
// per operation, and every run happens in that one process, with the packages the program uses loaded
// once. This file is that process for the stand-in (./inline-host.ts): the LanguageServer is Pulumi's,
// unchanged; the inline program it runs is a program file, evaluated afresh for each run as the
// language host would (its own modules are forgotten first; packages in node_modules stay loaded, as
// they do in an Automation API process). A TypeScript program is compiled through ts-node, registered
// once for its project as `cmd/run` registers it (an Automation API process that runs TypeScript does
// the same): one project per process.
//
// Usage: node inline-language-host.js <directory of @pulumi/pulumi>   (prints its port, then serves)
"use strict";
const path = require("node:path");

const pulumiDir = process.argv[2];
if (!pulumiDir) {
  console.error("usage: inline-language-host.js <directory of @pulumi/pulumi>");
  process.exit(2);
}
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const { LanguageServer } = require(path.join(pulumiDir, "automation/server"));
const langrpc = require(path.join(pulumiDir, "proto/language_grpc_pb"));
const { grpcChannelOptions } = require(path.join(pulumiDir, "runtime"));
const { leakedPromises } = require(path.join(pulumiDir, "runtime/debuggable"));
const { getStore } = require(path.join(pulumiDir, "runtime/state"));

// The stand-in holds our stdin open: when it goes (a killed test worker too), so do we.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

/** Forgets the program's own modules (not its packages), so that the next require evaluates them again. */
function forgetProgramModules(dir) {
  const inside = dir + path.sep;
  const packages = `${path.sep}node_modules${path.sep}`;
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(inside) && !file.slice(inside.length).includes(packages)) delete require.cache[file];
  }
}

/** The project directory ts-node was registered for (once per process, as a ts-node process has it). */
let typeScriptProject;

/**
 * ts-node registered as `cmd/run` registers it for a TypeScript program in `pwd`
 * (@pulumi/pulumi cmd/run/run.js, its CommonJS branch): the project's tsconfig.json, type checked unless
 * its `noCheck` says otherwise, Pulumi's vendored ts-node. (`cmd/run` also reads PULUMI_NODEJS_TSCONFIG_PATH
 * and PULUMI_NODEJS_TRANSPILE_ONLY; the stand-in starts this host without PULUMI_ variables: ./child-env.ts.)
 */
function registerTypeScript(pwd) {
  if (typeScriptProject === pwd) return;
  if (typeScriptProject !== undefined)
    throw new Error(`this host compiles the TypeScript of ${typeScriptProject}; start another for ${pwd}`);
  const { existsSync } = require("node:fs");
  const semver = require(require.resolve("semver", { paths: [pulumiDir] }));
  const tsutils = require(path.join(pulumiDir, "tsutils"));
  const tsConfigPath = "tsconfig.json";
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const ts = require(typescriptRequire);
  const useNodeNext = semver.gte(ts.version, "4.7.0");
  require(tsnodeRequire).register({
    compiler: typescriptRequire,
    transpileOnly: compilerOptions.noCheck,
    project: tsConfigPath,
    skipProject: !existsSync(tsConfigPath),
    compilerOptions: {
      target: "ES2020",
      module: useNodeNext ? "nodenext" : "commonjs",
      moduleResolution: useNodeNext ? "nodenext" : "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  });
  typeScriptProject = pwd;
}

class ProgramFileServer extends LanguageServer {
  constructor() {
    // The inline program: the entry's exports (or what its exported function returns) are the stack
    // outputs, as `cmd/run` takes them.
    super(() => {
      forgetProgramModules(this.pwd);
      const exported = require(this.entry);
      return exported instanceof Function ? exported() : exported;
    });
  }

  run(call, callback) {
    const req = call.request;
    try {
      this.pwd = req.getPwd();
      this.entry = require.resolve(path.resolve(this.pwd, req.getProgram() || "."));
      process.chdir(this.pwd);
      if (this.entry.endsWith(".ts")) registerTypeScript(this.pwd);
    } catch (err) {
      callback(err);
      return;
    }
    // LanguageServer.run answers a failed run twice (the error, then an empty response); a unary call
    // takes the first answer only.
    let answered = false;
    return super.run(call, (err, resp) => {
      if (answered) return;
      answered = true;
      // What `cmd/run` checks as its process exits (@pulumi/pulumi runtime/debuggable.js), and the Automation API
      // after the CLI returns (LanguageServer.onPulumiExit): a run that succeeded but left promises
      // pending fails, with Pulumi's message, unless the engine had shut the monitor (a failed step).
      // Still inside the run's own async store here.
      if (!err && !getStore().terminated) {
        const [leaks, message] = leakedPromises();
        if (leaks.size !== 0) {
          callback(new Error(message));
          return;
        }
      }
      callback(err, resp);
    });
  }
}

const server = new grpc.Server({ ...grpcChannelOptions });
server.addService(langrpc.LanguageRuntimeService, new ProgramFileServer());
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(err.message);
    process.exit(1);
  }
  console.log(String(port));
});
