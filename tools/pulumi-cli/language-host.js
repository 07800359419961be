// TEST INFRASTRUCTURE (real-CLI layer): a small launcher of the real `@pulumi/pulumi` Node runtime that
// speaks Pulumi's LanguageRuntime protocol, standing in for the CLI distribution's `pulumi-language-nodejs`.
//
// Why it exists: the real language host is the Go module
// `github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3`, and the Go module proxy here answers
// "403 Forbidden: This module version is not available" for every version of it (its list, the pinned
// release's version, a pseudo-version of a known commit; tools/pulumi-cli/README.md gives the commands).
// Everything else of a `pulumi up` stays real: the Go CLI and engine, `@pulumi/pulumi/cmd/run` (the program
// runtime the real host starts), the dynamic-provider host and our resource plugin.
//
// What it does is what pulumi/pulumi's `sdk/nodejs/cmd/pulumi-language-nodejs/main.go` does in `Run`,
// `execRuntime`, `constructArguments` and `constructConfig` (read at 1b59498):
// - start `node <@pulumi/pulumi>/cmd/run` found from the program directory, with `--monitor`, `--engine`,
//   `--organization`, `--project`, `--root-directory`, `--stack`, `--pwd`, `--dry-run`, `--parallel`, the
//   entry point and the program's arguments;
// - hand config over in PULUMI_CONFIG (keys as `ns:config:name`, as the real host still does for older
//   SDKs) and PULUMI_CONFIG_SECRET_KEYS, and PULUMI_NODEJS_TYPESCRIPT when the runtime option `typescript`
//   is not false (its default is true), PULUMI_NODEJS_TSCONFIG_PATH from `tsconfigpath`;
// - answer exit code 32 (the runtime already reported an actionable error) as `bail`, any other non-zero
//   code as "Program exited with non-zero exit code: N".
// What it leaves out, each said in tools/pulumi-cli/README.md: the monitor proxy and `--sync` pipes (the
// runtime talks to the engine's monitor directly; synchronous invokes are not used here), `nodeargs`,
// debugging, `GetRequiredPackages` (answered Unimplemented, as an older host would: the engine then loads
// each provider plugin when a resource first needs it, from $PATH) and the code-generation methods. The
// gRPC service is ./language-host-server.js, shared with the Python launcher.
//
// Usage (as the CLI starts a language plugin): pulumi-language-nodejs [flags] <engine address>
"use strict";
const path = require("node:path");
const { engineAddress, pulumiDir, runChild, runResponse, serveLanguageHost } = require("./language-host-server");

/** `ns:name` -> `ns:config:name`, as the real host's constructConfig hands config to the runtime. */
function configForRuntime(configMap) {
  const out = {};
  for (const [key, value] of configMap.entries()) {
    const colon = key.indexOf(":");
    out[colon < 0 ? key : `${key.slice(0, colon)}:config:${key.slice(colon + 1)}`] = value;
  }
  return out;
}

/** The arguments of `node cmd/run`, in constructArguments' order; empty values are left out as it does. */
function runArguments(req, runPath) {
  const info = req.getInfo();
  const args = [runPath];
  const flag = (name, value) => {
    if (value !== undefined && value !== "") args.push(`--${name}`, String(value));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", engineAddress);
  flag("organization", req.getOrganization());
  flag("project", req.getProject());
  flag("root-directory", info?.getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", info?.getProgramDirectory() || req.getPwd());
  if (req.getDryrun()) args.push("--dry-run");
  flag("parallel", req.getParallel());
  args.push(info?.getEntryPoint() || req.getProgram() || ".");
  args.push(...req.getArgsList());
  return args;
}

function run(call, callback) {
  const req = call.request;
  const info = req.getInfo();
  const programDir = info?.getProgramDirectory() || req.getPwd();
  const options = info?.getOptions()?.toJavaScript() ?? {};
  let runPath;
  try {
    runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [programDir] });
  } catch (e) {
    callback(null, runResponse({ error: `could not find @pulumi/pulumi from ${programDir}: ${e.message}` }));
    return;
  }
  const env = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(configForRuntime(req.getConfigMap())),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    ...(options.typescript !== false ? { PULUMI_NODEJS_TYPESCRIPT: "true" } : {}),
    ...(options.tsconfigpath ? { PULUMI_NODEJS_TSCONFIG_PATH: String(options.tsconfigpath) } : {}),
  };
  // `node` from $PATH, as the real host's exec.LookPath("node").
  runChild("node", runArguments(req, runPath), { cwd: programDir, env }).then(({ error, code, signal }) =>
    callback(
      null,
      error
        ? runResponse({ error: `Problem executing program (could not run language executor): ${error.message}` })
        : runResponse({ code, signal, message: (c) => `Program exited with non-zero exit code: ${c}` }),
    ),
  );
}

serveLanguageHost("pulumi-language-nodejs", run, require(path.join(pulumiDir, "package.json")).version, "nodejs");
