// TEST INFRASTRUCTURE (engine stand-in): resource hooks, as the Go engine v3.274.1 runs them.
//
// A program registers a named hook (ResourceMonitor `RegisterResourceHook`: a name, whether it runs in
// previews, whether its errors are only warnings, and a callback, i.e. a token at the address of the
// program's own Callbacks gRPC server) and binds hook names to a resource (`hooks` of its
// RegisterResourceRequest), which the state keeps per resource (`resourceHooks`, keyed by hook type).
// A delete step runs the deleted state's BeforeDelete hooks before anything else, and its AfterDelete
// hooks after the delete; the engine calls each hook in the program process (`Callbacks.Invoke` with a
// serialized ResourceHookRequest) and reads the ResourceHookResponse's `error`.
//
// Sources: pkg/resource/deploy/resource_hooks.go (the registry), deployment.go `RunHooks`, source_eval.go
// `RegisterResourceHook`, `wrapResourceHookCallback`, `GetCallbacksClient`, step.go `DeleteStep.Apply`.

import * as grpc from "@grpc/grpc-js";
import * as cbrpc from "@pulumi/pulumi/proto/callback_grpc_pb";
import * as cbproto from "@pulumi/pulumi/proto/callback_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { StepError } from "./step-generator";
import { type Props, toStruct } from "./values";

/** sdk/go/common/resource/resource_hooks.go `HookType`: the keys of a state's `resourceHooks`. */
export type HookType =
  | "BeforeCreate"
  | "AfterCreate"
  | "BeforeUpdate"
  | "AfterUpdate"
  | "BeforeDelete"
  | "AfterDelete"
  | "OnError";

/** Hook names bound to a resource, by type (apitype.ResourceV3 `resourceHooks`; empty lists left out). */
export type HookBinding = Partial<Record<HookType, string[]>>;

/** The hook types the stand-in does not run: a step that would run them is refused (see {@link unsupportedHooks}). */
const NOT_RUN: readonly HookType[] = ["BeforeCreate", "AfterCreate", "BeforeUpdate", "AfterUpdate"];

/**
 * The binding of a RegisterResourceRequest, as source_eval.go builds `resourceHooks` (one list per type,
 * only the non-empty ones; none at all when nothing is bound).
 */
export function bindingOf(
  b: resproto.RegisterResourceRequest.ResourceHooksBinding | undefined,
): HookBinding | undefined {
  if (!b) return undefined;
  const lists: Array<[HookType, string[]]> = [
    ["BeforeCreate", b.getBeforeCreateList()],
    ["AfterCreate", b.getAfterCreateList()],
    ["BeforeUpdate", b.getBeforeUpdateList()],
    ["AfterUpdate", b.getAfterUpdateList()],
    ["BeforeDelete", b.getBeforeDeleteList()],
    ["AfterDelete", b.getAfterDeleteList()],
    ["OnError", b.getOnErrorList()],
  ];
  const binding: HookBinding = {};
  for (const [type, names] of lists) if (names.length) binding[type] = [...names];
  return Object.keys(binding).length ? binding : undefined;
}

/**
 * The refusal of a create, update or replacement whose resource binds hooks the stand-in does not run
 * (before/after create and update): the Go engine would call them, and a failing one would fail the step,
 * so running the step without them would be kinder than the engine. Undefined when there are none.
 */
export function unsupportedHooks(binding: HookBinding | undefined): string | undefined {
  const bound = NOT_RUN.filter((t) => binding?.[t]?.length);
  if (!bound.length) return undefined;
  return (
    `the engine stand-in does not run ${bound.join(", ")} resource hooks ` +
    `(${bound.flatMap((t) => binding![t]!).join(", ")}); run this program through the real CLI`
  );
}

/** A hook the program registered (deploy.ResourceHook), with its callback's address and token. */
interface RegisteredHook {
  name: string;
  onDryRun: boolean;
  ignoreErrors: boolean;
  target: string;
  token: string;
}

/** What a hook is told about the resource (the ResourceHookRequest's fields). */
export interface HookCall {
  urn: string;
  id: string;
  /** The resource's name (the URN's last part). */
  name: string;
  type: string;
  oldInputs?: Props;
  oldOutputs?: Props;
  newInputs?: Props;
  newOutputs?: Props;
}

/** grpc-go's names of the status codes, as a Go `rpc error: code = ... desc = ...` prints them. */
const GO_CODE: Record<number, string> = {
  [grpc.status.CANCELLED]: "Canceled",
  [grpc.status.UNKNOWN]: "Unknown",
  [grpc.status.INVALID_ARGUMENT]: "InvalidArgument",
  [grpc.status.DEADLINE_EXCEEDED]: "DeadlineExceeded",
  [grpc.status.NOT_FOUND]: "NotFound",
  [grpc.status.UNIMPLEMENTED]: "Unimplemented",
  [grpc.status.INTERNAL]: "Internal",
  [grpc.status.UNAVAILABLE]: "Unavailable",
};

const GRPC_OPTIONS = {
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.max_send_message_length": 400 * 1024 * 1024,
};

/** The deployment's hook registry (resource_hooks.go `ResourceHooks`) and its callback clients. */
export class ResourceHooks {
  private readonly hooks = new Map<string, RegisteredHook>();
  /** One client per callback address (source_eval.go `GetCallbacksClient`). */
  private readonly clients = new Map<string, cbrpc.CallbacksClient>();
  /** Every hook call made, in order (for tests of the stand-in itself). */
  readonly calls: Array<{ hook: string; type: HookType; urn: string }> = [];

  /** `RegisterResourceHook`; throws Go's error text for an empty or taken name. */
  register(req: resproto.RegisterResourceHookRequest): void {
    const name = req.getName();
    const callback = req.getCallback();
    if (name === "") throw new Error("resource hook name cannot be empty");
    if (this.hooks.has(name)) throw new Error(`resource hook already registered for name "${name}"`);
    if (!callback) throw new Error(`resource hook "${name}" has no callback`);
    this.hooks.set(name, {
      name,
      onDryRun: req.getOnDryRun(),
      ignoreErrors: req.getIgnoreErrors(),
      target: callback.getTarget(),
      token: callback.getToken(),
    });
  }

  /**
   * deployment.go `RunHooks`: each name in order; a name nobody registered fails at once (also in a
   * preview); in a preview a hook runs only if registered `onDryRun`; a failing hook fails the step
   * (`before hook "<name>" failed: <message>`, `after ...`), or, registered with `ignoreErrors`, is a
   * warning (`<HookType> hook "<name>" failed: <message>`) and the next one runs.
   */
  async run(
    names: readonly string[] | undefined,
    type: HookType,
    preview: boolean,
    call: HookCall,
    warn: (urn: string, message: string) => void,
  ): Promise<void> {
    for (const name of names ?? []) {
      const hook = this.hooks.get(name);
      if (!hook) throw new StepError(`hook "${name}" was not registered`);
      if (preview && !hook.onDryRun) continue;
      this.calls.push({ hook: name, type, urn: call.urn });
      const error = await this.invoke(hook, call);
      if (error === "") continue;
      if (hook.ignoreErrors) {
        warn(call.urn, `${type} hook "${name}" failed: ${error}`);
        continue;
      }
      const when = type.startsWith("Before") ? "before" : "after";
      throw new StepError(`${when} hook "${name}" failed: ${error}`);
    }
  }

  /** Closes the callback clients (source_eval.go `resmon.Cancel`). */
  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }

  /**
   * One call of the hook's callback (source_eval.go `wrapResourceHookCallback`): the error its response
   * carries, "" for none; a failed call's gRPC error as Go prints it.
   */
  private invoke(hook: RegisteredHook, call: HookCall): Promise<string> {
    let client = this.clients.get(hook.target);
    if (!client) {
      client = new cbrpc.CallbacksClient(hook.target, grpc.credentials.createInsecure(), GRPC_OPTIONS);
      this.clients.set(hook.target, client);
    }
    const req = new resproto.ResourceHookRequest();
    req.setUrn(call.urn);
    req.setId(call.id);
    req.setName(call.name);
    req.setType(call.type);
    // Secrets go as secrets, unknowns as unknowns (FilterOptions KeepSecrets, KeepUnknowns).
    if (call.newInputs) req.setNewInputs(toStruct(call.newInputs));
    if (call.oldInputs) req.setOldInputs(toStruct(call.oldInputs));
    if (call.newOutputs) req.setNewOutputs(toStruct(call.newOutputs));
    if (call.oldOutputs) req.setOldOutputs(toStruct(call.oldOutputs));
    const invoke = new cbproto.CallbackInvokeRequest();
    invoke.setToken(hook.token);
    invoke.setRequest(req.serializeBinary());
    return new Promise((resolve) => {
      client.invoke(invoke, (err, resp) => {
        if (err) {
          resolve(`rpc error: code = ${GO_CODE[err.code] ?? `Code(${err.code})`} desc = ${err.details}`);
          return;
        }
        try {
          resolve(resproto.ResourceHookResponse.deserializeBinary(resp.getResponse_asU8()).getError());
        } catch (e) {
          resolve(`unmarshaling resource hook response for "${call.name}": ${(e as Error).message}`);
        }
      });
    });
  }
}
