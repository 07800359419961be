// TEST INFRASTRUCTURE (real-CLI layer): a small launcher of the real Python runtime of Pulumi that speaks
// the LanguageRuntime protocol, standing in for the CLI distribution's `pulumi-language-python`.
//
// Why it exists: the real host is the Go module `github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3`,
// which the Go module proxy here refuses (403), as it does the Node.js host's (./README.md). What it runs is
// real: `pulumi-language-python-exec`, the script the real host runs, from the Go SDK module the proxy
// serves (github.com/pulumi/pulumi/sdk/v3, python/cmd/; laid beside `pulumi` by `npm run cli:install`), in
// the program's virtual environment with PyPI's `pulumi`.
//
// What it does is what pulumi/pulumi's `sdk/python/cmd/pulumi-language-python/main.go` does in `Run` and
// `constructArguments`, `constructConfig`, `constructConfigSecretKeys` (read at 1b59498), and the pip
// toolchain's `Command` (sdk/python/toolchain/pip.go): start `<virtualenv>/bin/python` (the runtime option
// `virtualenv`, relative to the project's root; else `python3` from $PATH) on the exec script with
// `--monitor`, `--engine`, `--project`, `--root_directory`, `--stack`, `--pwd`, `--dry_run`, `--parallel`,
// `--organization`, the entry point and the program's arguments; config in PULUMI_CONFIG (keys as given)
// and PULUMI_CONFIG_SECRET_KEYS; the virtual environment activated (VIRTUAL_ENV, its bin first on PATH);
// exit code 32 as `bail`, any other as "program exited with non-zero exit code: N". Left out: the
// typecheckers, debugging, `toolchain: poetry|uv`, and the methods other than Run and GetPluginInfo.
//
// Usage (as the CLI starts a language plugin): pulumi-language-python [flags] <engine address>
"use strict";
const path = require("node:path");
const { engineAddress, runChild, runResponse, serveLanguageHost } = require("./language-host-server");

/** The script the real host runs, installed next to it. */
const EXEC = path.join(__dirname, "pulumi-language-python-exec");

function runArguments(req) {
  const info = req.getInfo();
  const args = [];
  const flag = (name, value) => {
    if (value !== undefined && value !== "") args.push(`--${name}`, String(value));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", engineAddress);
  flag("project", req.getProject());
  flag("root_directory", info?.getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", req.getPwd());
  flag("dry_run", String(req.getDryrun()));
  flag("parallel", String(req.getParallel()));
  flag("organization", req.getOrganization());
  args.push(info?.getEntryPoint() || ".", ...req.getArgsList());
  return args;
}

function run(call, callback) {
  const req = call.request;
  const info = req.getInfo();
  const root = info?.getRootDirectory() || req.getPwd();
  const options = info?.getOptions()?.toJavaScript() ?? {};
  const venv = options.virtualenv ? path.resolve(root, String(options.virtualenv)) : undefined;
  const python = venv ? path.join(venv, "bin", "python") : "python3";
  const env = {
    ...process.env,
    ...(venv ? { VIRTUAL_ENV: venv, PATH: `${path.join(venv, "bin")}${path.delimiter}${process.env.PATH ?? ""}` } : {}),
    PULUMI_CONFIG: JSON.stringify(Object.fromEntries(req.getConfigMap().entries())),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  runChild(python, [EXEC, ...runArguments(req)], { cwd: req.getPwd() || root, env }).then(({ error, code, signal }) =>
    callback(
      null,
      error
        ? runResponse({ error: `problem executing program (could not run language executor): ${error.message}` })
        : runResponse({ code, signal, message: (c) => `program exited with non-zero exit code: ${c}` }),
    ),
  );
}

// The version of the Go SDK module whose exec script this runs (install-pulumi-cli.js writes it beside it).
serveLanguageHost("pulumi-language-python", run, require("./pulumi-sdk-version.json").version, "python");
