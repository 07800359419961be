#!/usr/bin/env node
/**
 * `pulumi-resource-grouproles <engine-address>`: the resource provider plugin. The engine starts it
 * with its own gRPC address (for diagnostics) and reads the port it serves on from the first line of
 * stdout, as for every provider plugin.
 */
// First: on an older Node, fail naming the version needed (../../client/node-version-command): the message alone.
import "../../client/node-version-command";
import { setEngineAddress } from "../shared/engine-log";
import { serve } from "./server";

// The engine passes `[--logtostderr] [-v=N] [--tracing <url>] <engine address>` (plugin.go
// buildPluginArguments): the address is the last argument that is not a flag or a flag's value.
const args = process.argv.slice(2);
const engine = args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "--tracing").pop();
if (engine) setEngineAddress(engine);
serve().then(
  (port) => process.stdout.write(`${port}\n`),
  (e: unknown) => {
    process.stderr.write(`pulumi-resource-grouproles: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
