// TEST INFRASTRUCTURE (real-CLI layer): a small launcher that runs a Pulumi Go program as the CLI
// distribution's `pulumi-language-go` does, speaking the LanguageRuntime protocol.
//
// Why it exists: the real host is the Go module `github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3`, which
// the Go module proxy here refuses (403), as it does the Node.js and Python hosts' (./README.md). What it
// runs is real: `go build` of the program, against the Go SDK the proxy serves
// (github.com/pulumi/pulumi/sdk/v3) and the generated SDK, and the program's binary.
//
// What it does is what pulumi/pulumi's `sdk/go/pulumi-language-go/main.go` does in `Run`, `compileProgram`,
// `runProgram` and `constructEnv` (read at 1b59498): `go build -buildvcs=false -o <temporary file>
// -trimpath -ldflags "-w -s"` in the program directory (the runtime option `buildTarget` names the output
// instead, and `binary` skips the build), then the binary, in the request's `pwd`, with PULUMI_ORGANIZATION,
// PULUMI_PROJECT, PULUMI_ROOT_DIRECTORY, PULUMI_STACK, PULUMI_CONFIG (keys as given),
// PULUMI_CONFIG_SECRET_KEYS, PULUMI_DRY_RUN, PULUMI_PARALLEL, PULUMI_MONITOR and PULUMI_ENGINE; exit
// code 32 as `bail`, any other as "program exited with non-zero exit code: N". Left out: debugging,
// `PULUMI_GO_USE_RUN`, and the methods other than Run, GetPluginInfo and GenerateProgram.
//
// Usage (as the CLI starts a language plugin): pulumi-language-go [flags] <engine address>
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { engineAddress, runChild, runResponse, serveLanguageHost } = require("./language-host-server");

function environment(req) {
  const env = { ...process.env };
  const set = (k, v) => {
    if (v !== undefined && v !== "") env[k] = String(v);
  };
  set("PULUMI_ORGANIZATION", req.getOrganization());
  set("PULUMI_PROJECT", req.getProject());
  set("PULUMI_ROOT_DIRECTORY", req.getInfo()?.getRootDirectory());
  set("PULUMI_STACK", req.getStack());
  set("PULUMI_CONFIG", JSON.stringify(Object.fromEntries(req.getConfigMap().entries())));
  set("PULUMI_CONFIG_SECRET_KEYS", JSON.stringify(req.getConfigsecretkeysList()));
  set("PULUMI_DRY_RUN", String(req.getDryrun()));
  set("PULUMI_PARALLEL", String(req.getParallel()));
  set("PULUMI_MONITOR", req.getMonitorAddress());
  set("PULUMI_ENGINE", engineAddress);
  return env;
}

async function runGo(req) {
  const info = req.getInfo();
  const options = info?.getOptions()?.toJavaScript() ?? {};
  const programDir = info?.getProgramDirectory() || req.getPwd();
  let bin = options.binary ? String(options.binary) : undefined;
  let temporary;
  if (!bin) {
    if (!fs.readdirSync(programDir).some((f) => f.endsWith(".go")))
      return runResponse({ error: `Failed to find go files for 'go build' matching ${path.join(programDir, "*.go")}` });
    bin = options.buildTarget ? path.resolve(info.getRootDirectory(), String(options.buildTarget)) : undefined;
    if (!bin) bin = temporary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-go.")), "program");
    const args = ["build", "-buildvcs=false", "-o", bin, "-trimpath", "-ldflags", "-w -s"];
    const built = await runChild("go", args, { cwd: programDir });
    if (built.error || built.code !== 0)
      return runResponse({
        error: `error in compiling Go: unable to run \`go build\`: ${built.error?.message ?? `exit status ${built.code}`}`,
      });
  }
  try {
    const ran = await runChild(bin, [], { cwd: req.getPwd() || programDir, env: environment(req) });
    if (ran.error) return runResponse({ error: `command errored unexpectedly: ${ran.error.message}` });
    return runResponse({ ...ran, message: (c) => `program exited with non-zero exit code: ${c}` });
  } finally {
    if (temporary) fs.rmSync(path.dirname(temporary), { recursive: true, force: true });
  }
}

function run(call, callback) {
  runGo(call.request).then(
    (response) => callback(null, response),
    (e) => callback(null, runResponse({ error: e.message })),
  );
}

// The version of the Go SDK the CLI module pins, which the generated SDK's programs build against.
serveLanguageHost("pulumi-language-go", run, require("./pulumi-sdk-version.json").version, "go");
