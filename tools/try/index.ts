/**
 * `npm run try -- <program-dir> [preview|up|refresh|destroy] [--config ns:key=value]... [--secret ns:key=value]...`
 *
 * A LOCAL TRIAL of your own Pulumi program, for people without the Pulumi CLI: it runs the program
 * through this repository's engine stand-in (tools/engine: the real Pulumi Node runtime and
 * dynamic-provider host or the resource plugin, driven by a small engine written for the tests, not by
 * Pulumi) against a local emulator of the service. It is not a replacement for Pulumi: no backend, no
 * secrets provider, no `pulumi import` command (the `import` option works with the plugin); use the
 * Pulumi CLI for real stacks (README, "Run it against the emulator").
 *
 * The stack's state and the emulator's roles live in `<program-dir>/.grouproles-try/`, so successive
 * runs (preview, up, a change, up, destroy) behave like one stack. `grouproles:baseUrl`,
 * `grouproles:presenceUrl` and `grouproles:accessToken` are set to the emulator's; programs that
 * have no `node_modules` of their own use this repository's.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../../emulator";
import { catalogueChanges, readable } from "../plan-report";
import {
  type EngineOptions,
  type EngineResult,
  type StateResource,
  UNKNOWN,
  readCheckpoint,
  runEngine,
} from "../engine";

const OPERATIONS = ["preview", "up", "refresh", "destroy"] as const;
/** This checkout: the nearest directory above this file with a package.json (compiled to .tmp/tools/...). */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "tools", "try"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no checkout of pulumi-grouproles above ${from}`);
  }
}
const repoRoot = findRepoRoot(__dirname);
/** Where the trial writes its report (stdout for the command; a test collects it). */
let say: (s?: string) => void = (s = "") => void process.stdout.write(`${s}\n`);

/** `ns:key=value` flags as a map; a bad one fails naming the flag. */
function pairs(values: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const eq = v.indexOf("=");
    if (eq <= 0 || !v.slice(0, eq).includes(":")) throw new Error(`${flag} ${v}: expected ns:key=value`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

function report(r: EngineResult, operation: string, before: readonly StateResource[]): void {
  const plan = r.planText;
  say(plan ? `Plan (${operation}):` : `Plan (${operation}): no changes`);
  // Each changing step, and under a GroupRoles step what it does to each entry.
  for (const [i, line] of plan.split("\n").filter(Boolean).entries()) {
    say(readable(line));
    const step = r.plan.filter((p) => p.op !== "same")[i];
    if (step)
      for (const l of catalogueChanges(
        step,
        before.find((b) => b.urn === step.urn),
      ))
        say(l);
  }
  for (const d of r.diagnostics.filter((x) => x.severity !== "error")) say(`${d.severity}: ${readable(d.message)}`);
  for (const e of r.errors) say(readable(e));
  if (r.ok && Object.keys(r.outputs).length) {
    say("Outputs:");
    for (const [k, v] of Object.entries(r.outputs))
      say(`  ${k}: ${JSON.stringify(v).includes(UNKNOWN) ? "(known after up)" : JSON.stringify(v)}`);
  }
  if (r.stderr.trim() && !r.ok) say(`Program output:\n${r.stderr.trim()}`);
}

/** What the emulator holds now in the groups the stack's resources use: what `up` did, seen from the service. */
async function showService(baseUrl: string, token: string, r: EngineResult): Promise<void> {
  const groups = new Set<number>();
  for (const res of r.resources) if (typeof res.outputs["groupId"] === "number") groups.add(res.outputs["groupId"]);
  for (const g of [...groups].sort((a, b) => a - b)) {
    const reply = await fetch(`${baseUrl}/api/v0/groups/${g}/roles`, { headers: { authorization: `Bearer ${token}` } });
    const roles = (await reply.json()) as Array<{ roleId: number; name: string }>;
    say(`The emulator holds, group ${g}: ${roles.map((x) => `${x.name} (${x.roleId})`).join(", ") || "no roles"}`);
  }
}

/** Runs the trial for command-line `args`; resolves with the exit code. */
export async function tryProgram(args: string[], write: (line: string) => void = say): Promise<number> {
  say = (s = "") => write(s);
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", multiple: true },
      secret: { type: "string", multiple: true },
      parallel: { type: "string" },
      refresh: { type: "boolean" },
      "expect-no-changes": { type: "boolean" },
    },
  });
  const [dir, op = "preview"] = positionals;
  if (!dir || !(OPERATIONS as readonly string[]).includes(op)) {
    say(
      `usage: npm run try -- <program-dir> [${OPERATIONS.join("|")}] [--config ns:key=value] [--secret ns:key=value] ` +
        "[--parallel N] [--refresh] [--expect-no-changes]",
    );
    return 2;
  }
  const programDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  if (!existsSync(path.join(programDir, "Pulumi.yaml"))) {
    say(`${programDir} has no Pulumi.yaml: give the directory of a Pulumi project`);
    return 2;
  }
  const work = path.join(programDir, ".grouproles-try");
  mkdirSync(work, { recursive: true });
  say("LOCAL TRIAL: your program runs through this repository's engine stand-in (the real Pulumi Node runtime and");
  say("dynamic-provider host, a small test engine instead of the Pulumi CLI) against a local emulator of the service.");
  say(`Not a Pulumi replacement. Stack state and the emulator's roles: ${work}`);
  const emu = await emulatorFor(work);
  try {
    const ownModules = existsSync(path.join(programDir, "node_modules", "pulumi-grouproles"));
    const env: Record<string, string> = ownModules
      ? {}
      : {
          // No node_modules of its own: resolve the package and Pulumi from this repository (and skip the
          // type check, which could not see them).
          NODE_PATH: [path.join(repoRoot, "node_modules"), process.env.NODE_PATH].filter(Boolean).join(path.delimiter),
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        };
    const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
    if (parallel !== undefined && !(Number.isInteger(parallel) && parallel > 0)) {
      say(`--parallel must be a positive integer, got ${values.parallel}`);
      return 2;
    }
    const options: EngineOptions = {
      operation: op as EngineOptions["operation"],
      ...(parallel ? { parallel } : {}),
      ...(values.refresh ? { refresh: true } : {}),
      ...(values["expect-no-changes"] ? { expectNoChanges: true } : {}),
      programDir,
      stack: "try",
      stateFile: path.join(work, "stack.json"),
      config: {
        "grouproles:baseUrl": emu.baseUrl,
        "grouproles:presenceUrl": emu.presenceUrl,
        ...pairs(values.config, "--config"),
      },
      secretConfig: { "grouproles:accessToken": emu.token, ...pairs(values.secret, "--secret") },
      // The resource plugin (pulumi-grouproles/package) is found on the PATH, as the CLI finds it.
      env: {
        ...env,
        PATH: [path.join(ownModules ? programDir : repoRoot, "node_modules", ".bin"), process.env.PATH].join(
          path.delimiter,
        ),
      },
    };
    const started = Date.now();
    const before = (await readCheckpoint(options.stateFile, "", "try")).resources;
    say(`Running ${op}...`);
    const r = await runEngine(options);
    report(r, op, before);
    // After a failed run too: what it changed before failing is what the user needs to see.
    if (op !== "preview") await showService(emu.baseUrl, emu.token, r);
    say(`${r.ok ? "Done" : "Failed"} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return r.ok ? 0 : 1;
  } finally {
    await emu.close();
  }
}

/**
 * The trial's emulator, on the port of the previous trial when it is free: Pulumi's refresh and destroy
 * configure the provider from the settings the last `up` recorded in state (docs/configuration.md
 * "Rotating"), so the address must stay the same from one run to the next, as a real service's does.
 */
async function emulatorFor(work: string): Promise<Awaited<ReturnType<typeof startEmulator>>> {
  const portFile = path.join(work, "port");
  const options = { stateFile: path.join(work, "service.json"), presenceServers: 2 };
  const saved = existsSync(portFile) ? Number(readFileSync(portFile, "utf8")) : undefined;
  if (saved && Number.isInteger(saved)) {
    try {
      return await startEmulator({ ...options, port: saved });
    } catch {
      say(`(port ${saved} of the previous trial is taken: a refresh or destroy reads the old address until an up)`);
    }
  }
  const emu = await startEmulator(options);
  writeFileSync(portFile, new URL(emu.baseUrl).port);
  return emu;
}

if (require.main === module) {
  tryProgram(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
