/**
 * `npm run try -- <program-dir> [preview|up|refresh|destroy] [--skip-preview] [--config ns:key=value]...
 * [--secret ns:key=value]... [--parallel N] [--refresh] [--expect-no-changes] [--target URN]...
 * [--exclude URN]... [--replace URN]...`, and
 * `npm run try -- <program-dir> users <roleName> <count> [--group N]`.
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
 * have no `node_modules` of their own use this repository's. `up` previews first and stops when the
 * preview fails, as `pulumi up` does (pkg/backend/apply.go PreviewThenPromptThenExecute);
 * `--skip-preview` goes straight to the update. `users` gives a role of the trial's emulator users
 * (the emulator lives for one run, so this is how a trial gets a role "in use").
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../../emulator";
import { readable } from "../plan-report";
import { repoRoot } from "../repo-root";
import { type EngineOptions, type EngineResult, type StateResource, readCheckpoint, runEngine } from "../engine";
import { plannedOutputs } from "./planned-outputs";
import { runLines } from "./report";
import { setUsers } from "./users";

const OPERATIONS = ["preview", "up", "refresh", "destroy", "users"] as const;
const USAGE =
  "usage: npm run try -- <program-dir> [preview|up|refresh|destroy] [--skip-preview] [--config ns:key=value] " +
  "[--secret ns:key=value] [--parallel N] [--refresh] [--expect-no-changes] [--target URN]... [--exclude URN]... " +
  "[--replace URN]...\n" +
  "       npm run try -- <program-dir> users <roleName> <count> [--group N]";
/** Where a trial writes its report, a line at a time (stdout for the command; a test collects it). */
type Say = (line: string) => void;
const toStdout: Say = (line) => void process.stdout.write(`${line}\n`);

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

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
const trimmed = (url: unknown) => (typeof url === "string" ? url.replace(/\/+$/, "") : undefined);

/**
 * The service address each resource of the run talks to: its explicit provider's `baseUrl`, else the
 * stack config's (dynamic resources and default providers).
 */
function serviceOf(
  res: StateResource,
  all: readonly StateResource[],
  config: Record<string, string>,
): string | undefined {
  const ref = res.provider;
  const providerUrn = ref?.slice(0, ref.lastIndexOf("::"));
  const explicit =
    providerUrn && !/::default(_[0-9_]+)?$/.test(providerUrn) ? all.find((p) => p.urn === providerUrn) : undefined;
  return trimmed(explicit ? explicit.inputs["baseUrl"] : config["grouproles:baseUrl"]);
}

/** Roles of a group printed by name; the rest are counted. */
const SHOWN_ROLES = 20;

/**
 * What the trial's emulator holds now in the groups of the stack's resources that use it (before and
 * after the run): what `up` did, seen from the service. Resources whose provider talks to another
 * address are named instead: the trial's emulator says nothing about them.
 */
async function showService(
  say: Say,
  emu: Emulator,
  r: EngineResult,
  before: readonly StateResource[],
  config: Record<string, string>,
): Promise<void> {
  const groups = new Set<number>();
  const elsewhere = new Map<string, string[]>();
  for (const set of [before, r.resources])
    for (const res of set) {
      const g = res.outputs["groupId"] ?? res.inputs["groupId"];
      if (typeof g !== "number") continue;
      const url = serviceOf(res, set, config);
      if (url === trimmed(emu.baseUrl)) groups.add(g);
      else {
        const name = readable(res.urn).replace(/^urn:pulumi:.*::/, "");
        const names = elsewhere.get(url ?? "(no baseUrl)") ?? [];
        if (!names.includes(name)) names.push(name);
        elsewhere.set(url ?? "(no baseUrl)", names);
      }
    }
  for (const g of [...groups].sort((a, b) => a - b)) {
    const reply = await fetch(`${emu.baseUrl}/api/v0/groups/${g}/roles`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    const roles = (await reply.json()) as Array<{ roleId: number; name: string; userCount?: number }>;
    // Counts first, then a screenful: a 2,000-role group was one 33,811-character line (issue 43).
    const shown = roles
      .slice(0, SHOWN_ROLES)
      .map((x) => `${x.name} (${x.roleId}${x.userCount ? `, ${x.userCount} users` : ""})`);
    const more = roles.length > SHOWN_ROLES ? `, ... and ${roles.length - SHOWN_ROLES} more` : "";
    const inUse = roles.filter((x) => (x.userCount ?? 0) > 0).length;
    const count = `${roles.length} role${roles.length === 1 ? "" : "s"}${inUse ? `, ${inUse} in use` : ""}`;
    say(`The emulator holds, group ${g}: ${roles.length ? `${count}: ${shown.join(", ")}${more}` : "no roles"}`);
  }
  for (const [url, names] of elsewhere)
    say(`Not on the trial's emulator: ${names.join(", ")} (their provider's baseUrl is ${url})`);
}

/** Runs the trial for command-line `args`; resolves with the exit code. */
export async function tryProgram(args: string[], say: Say = toStdout): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", multiple: true },
      secret: { type: "string", multiple: true },
      parallel: { type: "string" },
      refresh: { type: "boolean" },
      "expect-no-changes": { type: "boolean" },
      "skip-preview": { type: "boolean" },
      group: { type: "string" },
      target: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      replace: { type: "string", multiple: true },
    },
  });
  const [dir, op = "preview", ...rest] = positionals;
  if (!dir || !(OPERATIONS as readonly string[]).includes(op) || (op === "users" ? rest.length !== 2 : rest.length)) {
    say(USAGE);
    return 2;
  }
  const programDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  if (!existsSync(path.join(programDir, "Pulumi.yaml"))) {
    say(`${programDir} has no Pulumi.yaml: give the directory of a Pulumi project`);
    return 2;
  }
  const work = path.join(programDir, ".grouproles-try");
  if (op === "users") {
    const [roleName, count] = rest as [string, string];
    if (!existsSync(path.join(work, "service.json"))) {
      say(`${programDir} has no trial yet: run \`npm run try -- ${dir} up\` first`);
      return 2;
    }
    // Any free port: the address the next run uses is the one the last up recorded (see emulatorFor).
    const emu = await startEmulator({ stateFile: path.join(work, "service.json") });
    try {
      return await setUsers(emu, { roleName, count, group: values.group, dir }, say);
    } finally {
      await emu.close();
    }
  }
  mkdirSync(work, { recursive: true });
  say("LOCAL TRIAL: your program runs through this repository's engine stand-in (the real Pulumi Node runtime and");
  say("dynamic-provider host, a small test engine instead of the Pulumi CLI) against a local emulator of the service.");
  say(`Not a Pulumi replacement. Stack state and the emulator's roles: ${work}`);
  const emu = await emulatorFor(work, say);
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
    const config = {
      "grouproles:baseUrl": emu.baseUrl,
      "grouproles:presenceUrl": emu.presenceUrl,
      ...pairs(values.config, "--config"),
    };
    const options: EngineOptions = {
      operation: op as EngineOptions["operation"],
      ...(parallel ? { parallel } : {}),
      ...(values.refresh ? { refresh: true } : {}),
      ...(values["expect-no-changes"] ? { expectNoChanges: true } : {}),
      // As the CLI's `--target`, `--exclude` and `--replace` (URNs; each may be given several times).
      ...(values.target?.length ? { targets: values.target } : {}),
      ...(values.exclude?.length ? { excludes: values.exclude } : {}),
      ...(values.replace?.length ? { replaces: values.replace } : {}),
      // As `pulumi destroy --run-program`: every resource carries the before-delete hook (docs/delete-hooks.md).
      ...(op === "destroy" ? { runProgram: true } : {}),
      programDir,
      stack: "try",
      stateFile: path.join(work, "stack.json"),
      config,
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
    const stack = "try";
    const lines = (r: EngineResult, heading: string, details: boolean, preview: boolean) => {
      for (const l of runLines(r, before, { heading, details, preview, programDir })) say(l);
    };
    const done = async (r: EngineResult, touched: boolean): Promise<number> => {
      // After a failed run too: what it changed before failing is what the user needs to see.
      if (touched) await showService(say, emu, r, before, config);
      say(`${r.ok ? "Done" : "Failed"} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return r.ok ? 0 : 1;
    };
    if (op === "preview" || (op === "up" && !values["skip-preview"])) {
      // A trial's preview tells the program what each step of this package will produce (planned-outputs.ts).
      const preview = await runEngine({ ...options, operation: "preview", plannedOutputs });
      lines(preview, `Previewing update (${stack}):`, true, true);
      if (op === "preview") return await done(preview, false);
      if (!preview.ok) {
        say("The preview failed, so the update did not run (as `pulumi up` stops after a failed preview).");
        return await done(preview, false);
      }
      const up = await runEngine(options);
      lines(up, `Updating (${stack}):`, false, false);
      return await done(up, true);
    }
    const heading = { up: "Updating", refresh: "Refreshing", destroy: "Destroying" }[
      op as "up" | "refresh" | "destroy"
    ];
    const r = await runEngine(options);
    lines(r, `${heading} (${stack}):`, true, false);
    return await done(r, true);
  } finally {
    await emu.close();
  }
}

/**
 * The trial's emulator, on the port of the previous trial when it is free: Pulumi's refresh and destroy
 * configure the provider from the settings the last `up` recorded in state (docs/configuration.md
 * "Rotating"), so the address must stay the same from one run to the next, as a real service's does.
 */
async function emulatorFor(work: string, say: Say): Promise<Emulator> {
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
  // A port the system picks, then the emulator again on it: its presence and authorization servers take
  // the ports after it, as every later run does (started on a saved port); else the presence address in
  // the state would change between the first run and the second, and a drift check would never pass.
  for (let attempt = 1; ; attempt++) {
    const probe = await startEmulator(options);
    const port = Number(new URL(probe.baseUrl).port);
    await probe.close();
    try {
      const emu = await startEmulator({ ...options, port });
      writeFileSync(portFile, String(port));
      return emu;
    } catch (e) {
      if (attempt === 5) throw e; // the ports after a free one taken five times: say what failed
    }
  }
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
