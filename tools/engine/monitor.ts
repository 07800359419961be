// TEST INFRASTRUCTURE (engine stand-in): the gRPC ResourceMonitor and Engine services that the
// real Node language runtime (`@pulumi/pulumi/cmd/run`) talks to. Each RPC is translated into a
// Deployment call; requests are served concurrently (the Deployment bounds provider work).

import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { type Deployment, type Goal, ShutDown } from "./deployment";
import { bindingOf } from "./hooks";
import { fromStruct, toStruct } from "./values";

export interface MonitorInfo {
  project: string;
  stack: string;
  dryRun: boolean;
  parallel: number;
  secretKeys: string[];
}

/**
 * The engine answers a RegisterResource whose step cannot run (failed, or after another failure)
 * with UNAVAILABLE; the SDK then stops issuing RPCs quietly instead of printing a second error.
 */
const SHUT_DOWN = {
  code: grpc.status.UNAVAILABLE,
  details: "resource monitor shut down while waiting on step's done channel",
};

const GRPC_OPTIONS = {
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.max_send_message_length": 400 * 1024 * 1024,
};

/** What the monitor answers true for: SupportsFeature ids and GetDeploymentInfo's features (source_eval.go `supportsFeatureID`). */
const SUPPORTED: Array<[string, resproto.ResourceMonitorFeature]> = [
  ["secrets", resproto.ResourceMonitorFeature.RESOURCE_MONITOR_FEATURE_SECRETS],
  ["resourceHooks", resproto.ResourceMonitorFeature.RESOURCE_MONITOR_FEATURE_RESOURCE_HOOKS],
];

/**
 * The program's end, as the engine sees it (source_eval.go `SignalAndWaitForShutdown`, `resmon.Cancel`):
 * {@link signaled} resolves when the program says it has registered everything; its call is answered
 * once the engine {@link release}s it, when the deployment is over (every step done, or a failure).
 */
export class ProgramShutdown {
  readonly signaled: Promise<void>;
  private onSignal: () => void = () => undefined;
  private released = false;
  private hasWaiter = false;
  private readonly waiters: Array<() => void> = [];

  constructor() {
    this.signaled = new Promise((resolve) => {
      this.onSignal = resolve;
    });
  }

  /** The program's call: resolves when released; a second call is refused ("Already waiting for shutdown"). */
  wait(): Promise<void> | Error {
    if (this.hasWaiter) return new Error("Already waiting for shutdown");
    this.hasWaiter = true;
    this.onSignal();
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The deployment is over: answer the program (now and whenever it asks later). */
  release(): void {
    this.released = true;
    for (const w of this.waiters.splice(0)) w();
  }
}

export async function startMonitor(
  d: Deployment,
  info: MonitorInfo,
): Promise<{ addr: string; shutdown: ProgramShutdown; close(): Promise<void> }> {
  const server = new grpc.Server(GRPC_OPTIONS);
  const shutdown = new ProgramShutdown();

  const monitor: Partial<resrpc.IResourceMonitorServer> = {
    getDeploymentInfo(_call, cb) {
      const r = new resproto.DeploymentInfo();
      r.setProject(info.project);
      r.setStack(info.stack);
      r.setOrganization("organization");
      r.setDryrun(info.dryRun);
      r.setParallel(info.parallel);
      r.setConfigsecretkeysList(info.secretKeys);
      // Secrets and resource hooks: resource references and output values are not needed by dynamic
      // resources; error hooks are not modelled, so the SDK refuses an ErrorHook ("does not support").
      r.setSupportedfeaturesList(SUPPORTED.map(([, feature]) => feature));
      cb(null, r);
    },
    supportsFeature(call, cb) {
      const r = new resproto.SupportsFeatureResponse();
      r.setHassupport(SUPPORTED.some(([id]) => id === call.request.getId()));
      cb(null, r);
    },
    /** source_eval.go `RegisterResourceHook`: a taken or empty name is refused with the registry's error. */
    registerResourceHook(call, cb) {
      try {
        d.hooks.register(call.request);
        cb(null, new Empty());
      } catch (e) {
        cb({ code: grpc.status.UNKNOWN, details: (e as Error).message });
      }
    },
    /**
     * source_eval.go `SignalAndWaitForShutdown`: the program has registered everything; it stays alive
     * (its callback server serving hooks) until the engine has finished every step, deletes included.
     * A second call is refused, as the engine refuses it.
     */
    signalAndWaitForShutdown(_call, cb) {
      const waited = shutdown.wait();
      if (waited instanceof Error) return cb({ code: grpc.status.UNKNOWN, details: waited.message });
      void waited.then(() => cb(null, new Empty()));
    },
    registerResource(call, cb) {
      const q = call.request;
      if (d.failed) return cb(SHUT_DOWN);
      const propertyDependencies: Record<string, string[]> = {};
      q.getPropertydependenciesMap().forEach((v, k) => {
        propertyDependencies[k] = v.getUrnsList();
      });
      const goal: Goal = {
        type: q.getType(),
        name: q.getName(),
        parent: q.getParent(),
        custom: q.getCustom(),
        inputs: fromStruct(q.getObject()),
        dependencies: q.getDependenciesList(),
        propertyDependencies,
        protect: q.getProtect() ?? false,
        retainOnDelete: q.getRetainondelete() ?? false,
        ignoreChanges: q.getIgnorechangesList(),
        replaceOnChanges: q.getReplaceonchangesList(),
        importId: q.getImportid(),
        additionalSecretOutputs: q.getAdditionalsecretoutputsList(),
        // The SDK resolves `aliases` to URNs itself when the monitor lacks the aliasSpecs feature.
        aliasUrns: q.getAliasurnsList(),
        provider: q.getProvider(),
        version: q.getVersion(),
      };
      const hooks = bindingOf(q.getHooks());
      if (hooks) goal.resourceHooks = hooks;
      if (q.getDeletebeforereplacedefined()) goal.deleteBeforeReplace = q.getDeletebeforereplace();
      d.serve(d.register(goal)).then(
        (res) => {
          const r = new resproto.RegisterResourceResponse();
          r.setUrn(res.urn);
          r.setId(res.id);
          r.setObject(toStruct(res.outputs));
          // The SDK rejects the outputs of a failed resource (@pulumi/pulumi runtime/resource.js).
          r.setResult(res.result === "fail" ? resproto.Result.FAIL : resproto.Result.SUCCESS);
          cb(null, r);
        },
        () => cb(SHUT_DOWN),
      );
    },
    registerResourceOutputs(call, cb) {
      d.registerOutputs(call.request.getUrn(), fromStruct(call.request.getOutputs()));
      cb(null, new Empty());
    },
    readResource(call, cb) {
      const q = call.request;
      if (d.failed) return cb(SHUT_DOWN);
      d.serve(
        d.read(
          q.getType(),
          q.getName(),
          q.getParent(),
          q.getId(),
          fromStruct(q.getProperties()),
          q.getDependenciesList(),
          q.getProvider(),
          q.getVersion(),
        ),
      ).then(
        (res) => {
          const r = new resproto.ReadResourceResponse();
          r.setUrn(res.urn);
          r.setProperties(toStruct(res.outputs));
          cb(null, r);
        },
        () => cb(SHUT_DOWN),
      );
    },
    /**
     * A function of a package: forwarded to its provider (the one the call names, else the package's
     * default provider), as resource_monitor.go Invoke does; the result or the failures go back as sent.
     */
    invoke(call, cb) {
      const q = call.request;
      d.invoke(q.getTok(), fromStruct(q.getArgs()), q.getProvider(), q.getVersion()).then(
        ({ result, failures }) => {
          const r = new resproto.ResourceInvokeResponse();
          r.setReturn(toStruct(result));
          r.setFailuresList(
            failures.map((f) => {
              const failure = new provproto.CheckFailure();
              failure.setProperty(f.property);
              failure.setReason(f.reason);
              return failure;
            }),
          );
          cb(null, r);
        },
        // After a failure the engine answers no more calls (seen with the real CLI: an invoke whose default
        // provider was never registered is left unanswered until the program ends); the stand-in answers
        // UNAVAILABLE, which the SDK takes quietly, as it does for a registration.
        (e: Error) => cb(e instanceof ShutDown ? SHUT_DOWN : { code: grpc.status.UNKNOWN, details: e.message }),
      );
    },
  };

  let rootUrn = "";
  const engine: Partial<engrpc.IEngineServer> = {
    log(call, cb) {
      const q = call.request;
      const S = engproto.LogSeverity;
      const sev = q.getSeverity();
      const urn = q.getUrn();
      if (sev === S.ERROR) {
        // A logged error fails the update (the language host then exits 32), but, as in the engine,
        // does not by itself stop steps already asked for.
        d.errors.push(`error: ${urn ? `${urn}: ` : ""}${q.getMessage()}`);
        d.diagnostics.push({ severity: "error", message: q.getMessage(), ...(urn ? { urn } : {}) });
      } else if (sev !== S.DEBUG) {
        d.diagnostics.push({
          severity: sev === S.WARNING ? "warning" : "info",
          message: q.getMessage(),
          ...(urn ? { urn } : {}),
        });
      }
      cb(null, new Empty());
    },
    getRootResource(_call, cb) {
      const r = new engproto.GetRootResourceResponse();
      r.setUrn(rootUrn);
      cb(null, r);
    },
    setRootResource(call, cb) {
      rootUrn = call.request.getUrn();
      cb(null, new engproto.SetRootResourceResponse());
    },
  };

  // grpc-js answers UNIMPLEMENTED for any method we leave out (transforms, error hooks, ...); the SDK
  // asks for them only where the features say they are supported.
  server.addService(resrpc.ResourceMonitorService, monitor as grpc.UntypedServiceImplementation);
  server.addService(engrpc.EngineService, engine as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    addr: `127.0.0.1:${port}`,
    shutdown,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
