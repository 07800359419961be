/**
 * Messages for the output of `pulumi preview` and `pulumi up`. The engine starts a provider plugin with
 * its own address as the first argument (the Node dynamic-provider host: `node .../cmd/dynamic-provider
 * <engine>`) so that the provider can report through the engine's `Log` service; that host does not
 * connect `pulumi.log` to it, so this module does, with the Pulumi SDK's own gRPC client. Anywhere else
 * (a provider called directly, as the tests do) there is no engine and the message is dropped.
 */
import path from "node:path";

type Log = (severity: "info" | "warning", message: string, urn?: string) => Promise<void>;

let log: Log | undefined;

/** Where the engine listens, once known: set by the plugin's main, or read off the dynamic-provider host's arguments. */
let knownAddress: string | undefined;

/** The plugin's main hands the engine address it was started with. */
export function setEngineAddress(address: string): void {
  knownAddress = address;
}

/** The engine's address when this process is a provider plugin, or the dynamic-provider host, an engine started. */
function engineAddress(): string | undefined {
  if (knownAddress) return knownAddress;
  const [, script, address] = process.argv;
  if (!script || !address) return undefined;
  return script.split(path.sep).join("/").includes("cmd/dynamic-provider") && /:\d+$/.test(address)
    ? address
    : undefined;
}

function connect(address: string): Log {
  // The SDK's gRPC and its generated Engine client: the ones the host itself uses.
  const { grpc } = require("./sdk-rpc") as typeof import("./sdk-rpc");
  const rpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const proto = require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
  return (severity, message, urn) =>
    new Promise((resolve) => {
      const req = new proto.LogRequest();
      if (urn) req.setUrn(urn);
      req.setSeverity(severity === "warning" ? proto.LogSeverity.WARNING : proto.LogSeverity.INFO);
      req.setMessage(message);
      client.log(req, () => resolve()); // a message that cannot be shown must not fail the operation
    });
}

/**
 * Shows `message` in the preview's or update's output (as the engine shows a provider's diagnostics):
 * under the resource `urn` names (the SDK sends it in `__structure`), else under the stack.
 */
export async function engineLog(severity: "info" | "warning", message: string, urn?: string): Promise<void> {
  const address = engineAddress();
  if (!address) return;
  log ??= connect(address);
  await log(severity, message, urn);
}
