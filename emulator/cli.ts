#!/usr/bin/env node
/**
 * `grouproles-emulator`: runs the emulator until SIGINT/SIGTERM. Prints exactly one JSON line
 * `{"baseUrl":…,"presenceUrl":…,"directServers":[…],"authUrl":…}` on stdout when ready, so scripts can read it;
 * everything for humans (the token to use) goes to stderr.
 */
// First: on an older Node, fail naming the version needed (../client/node-version-command): the message alone.
import "../client/node-version-command";
import { parseArgs } from "node:util";
import { startEmulator } from "./index";

const USAGE = `usage: grouproles-emulator [options]
  --host HOST               interface to listen on (default 127.0.0.1); one other than loopback
                            needs --token (the development token is public)
  --port N                  roles API port (default 0 = any free port); presence uses N+1, N+2, ...
  --presence-servers N      named presence servers (default 2)
  --token TOKEN[:G1,G2]     accepted bearer token, optionally limited to groups (repeatable;
                            default: one development token "dev-token" for every group); a token
                            with no group is an admin token, the only kind /_emulator accepts
  --group N                 only this group exists (repeatable; default: every positive integer)
  --api-key GROUP:KEY       the group's API key, for login keys at the authorization endpoint (repeatable)
  --user NAME:PASSWORD:GROUP a user the authorization endpoint accepts (repeatable)
  --token-lifetime-s N      issued tokens expire after at most N seconds (default: the duration asked for)
  --state-file PATH         keep roles across restarts in this JSON file
  --latency-ms N            add N ms to every service call
  --rate-limit N            at most N service calls per second (429 with Retry-After above)
  --settings-update MODE    what an update does with settings keys it leaves out: replace (drop
                            them, the default) or merge (keep them)
  --help                    show this help`;

function int(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min)
    throw new Error(`--${name} must be an integer >= ${min}, got "${text}"`);
  return n;
}

function settingsMode(text: string | undefined): "replace" | "merge" | undefined {
  if (text === undefined || text === "replace" || text === "merge") return text;
  throw new Error(`--settings-update must be "replace" or "merge", got "${text}"`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "presence-servers": { type: "string" },
      token: { type: "string", multiple: true },
      group: { type: "string", multiple: true },
      "api-key": { type: "string", multiple: true },
      user: { type: "string", multiple: true },
      "token-lifetime-s": { type: "string" },
      "state-file": { type: "string" },
      "latency-ms": { type: "string" },
      "rate-limit": { type: "string" },
      "settings-update": { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const emulator = await startEmulator({
    host: values.host,
    port: int("port", values.port, 0),
    presenceServers: int("presence-servers", values["presence-servers"], 1),
    tokens: values.token,
    groups: values.group?.map((g) => int("group", g, 1) as number),
    stateFile: values["state-file"],
    latencyMs: int("latency-ms", values["latency-ms"], 0),
    rateLimitPerSecond: int("rate-limit", values["rate-limit"], 1),
    settingsUpdate: settingsMode(values["settings-update"]),
    apiKeys: values["api-key"],
    users: values.user,
    tokenLifetimeSeconds: int("token-lifetime-s", values["token-lifetime-s"], 1),
  });
  // Human messages first, so that whoever waits for the ready line has them too.
  if (!values.token?.length)
    process.stderr.write(`grouproles-emulator: development token (all groups): ${emulator.token}\n`);
  process.stderr.write(
    `grouproles-emulator: ready; roles API ${emulator.baseUrl}/api/v0, presence ${emulator.presenceUrl}\n`,
  );
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: emulator.baseUrl,
      presenceUrl: emulator.presenceUrl,
      directServers: emulator.directServers,
      authUrl: emulator.authUrl,
    })}\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`grouproles-emulator: ${signal}, shutting down\n`);
    emulator.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`grouproles-emulator: error while shutting down: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`grouproles-emulator: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(2);
});
