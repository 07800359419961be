// TEST INFRASTRUCTURE (engine stand-in): a provider process, driven over gRPC.
//
// The Go engine loads the `pulumi-nodejs` plugin, which runs
// `node ./node_modules/@pulumi/pulumi/cmd/dynamic-provider <engine>` in the program directory; a
// resource plugin (`pulumi-resource-<package> <engine>`) is started the same way. Either prints its
// port, then serves pulumirpc.ResourceProvider. We do the same, count every call (tests assert on
// them) and read the process's peak RSS from /proc before stopping it.

import * as grpc from "@grpc/grpc-js";
import type { Any } from "google-protobuf/google/protobuf/any_pb";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { type Props, fromStruct, secret, toStruct } from "./values";
import { recordChildCpu } from "./process-cpu";

export type ProviderMethod =
  | "Configure"
  | "Check"
  | "Diff"
  | "Create"
  | "Update"
  | "Read"
  | "Delete"
  | "CheckConfig"
  | "DiffConfig"
  | "Invoke"
  | "GetSchema";

/** An error returned by the provider over gRPC; `message` is the provider's own text. */
export class ProviderError extends Error {
  constructor(
    readonly method: ProviderMethod,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A Create or Update that the provider reports as applied but not finished (Pulumi's "init error",
 * `ErrorResourceInitFailed` in the status details): the resource exists with this id and these
 * properties, and the engine keeps it in state with `reasons` as its init errors.
 */
export class ProviderInitError extends ProviderError {
  constructor(
    method: ProviderMethod,
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(method, message);
  }
}

/**
 * The `grpc-status-details-bin` trailers of an error: as sent, or read back from the file that
 * ./large-trailers.js wrote in `detailsDir` when one was too large for Node's HTTP/2 to receive.
 */
function statusDetails(err: grpc.ServiceError, detailsDir: string | undefined): Buffer[] {
  const sent = (err.metadata?.get("grpc-status-details-bin") ?? []) as Buffer[];
  const [file] = err.metadata?.get("x-engine-status-details-file") ?? [];
  if (typeof file !== "string" || !detailsDir || path.basename(file) !== file) return sent;
  const where = path.join(detailsDir, file);
  const moved = readFileSync(where);
  rmSync(where, { force: true });
  return [...sent, moved];
}

/** The init failure packed in a gRPC error's `grpc-status-details-bin`, as plugin.parseError reads it. */
function initFailure(err: grpc.ServiceError, detailsDir?: string): provproto.ErrorResourceInitFailed | undefined {
  for (const bin of statusDetails(err, detailsDir)) {
    const status = statusproto.Status.deserializeBinary(new Uint8Array(bin as Buffer));
    for (const detail of status.getDetailsList() as Any[]) {
      if (detail.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
        return provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
      }
    }
  }
  return undefined;
}

/** The error a provider call failed with: an init failure when the details carry one. */
function providerError(method: ProviderMethod, err: grpc.ServiceError, detailsDir?: string): ProviderError {
  const message = err.details || err.message;
  const init = initFailure(err, detailsDir);
  if (!init) return new ProviderError(method, message);
  const properties = init.getProperties();
  return new ProviderInitError(
    method,
    message,
    init.getId(),
    properties ? fromStruct(properties) : {},
    init.getReasonsList(),
  );
}

export interface CheckResult {
  inputs: Props;
  failures: Array<{ property: string; reason: string }>;
}
export interface DiffResult {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  /** Per property path, what happens to it, when the provider sent a detailed diff (`hasDetailedDiff`). */
  detailedDiff?: Record<string, string>;
  /** The engine could not ask the provider (its config is unknown): assumed changed, with this warning. */
  unavailable?: string;
}
export interface ReadResult {
  id: string;
  properties: Props;
  inputs?: Props;
}
/** What the caller knows about a resource when calling the provider. */
export interface Target {
  urn: string;
  name: string;
  type: string;
}

const GRPC_OPTIONS = {
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.max_send_message_length": 400 * 1024 * 1024,
};

export interface ProviderHostOptions {
  /** The host's entry: the dynamic-provider host, or a provider plugin's main. */
  modulePath: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  engineAddr: string;
  /** Run `modulePath` itself (a plugin, by its shebang) instead of with this process's Node. */
  executable?: boolean;
}

/** A count of zero for every method. */
export function noCalls(): Record<ProviderMethod, number> {
  return {
    Configure: 0,
    Check: 0,
    Diff: 0,
    Create: 0,
    Update: 0,
    Read: 0,
    Delete: 0,
    CheckConfig: 0,
    DiffConfig: 0,
    Invoke: 0,
    GetSchema: 0,
  };
}

export class ProviderHost {
  readonly calls = noCalls();
  stdout = "";
  stderr = "";
  private child?: ChildProcess;
  private client?: provrpc.ResourceProviderClient;
  private peakRss?: number;
  /** Where ./large-trailers.js leaves trailers too large to send (removed on stop). */
  private detailsDir?: string;

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Peak resident set size of the host in bytes (VmHWM), read just before it was stopped. */
  get peakRssBytes(): number | undefined {
    return this.peakRss ?? this.readPeakRss();
  }

  async start(o: ProviderHostOptions): Promise<void> {
    // Preloaded so a large init failure reaches us whole, through this folder (./large-trailers.js), and
    // so the compile cache is written though the host is killed (./flush-compile-cache.js).
    this.detailsDir = mkdtempSync(path.join(os.tmpdir(), "engine-details-"));
    const preloads = ["large-trailers.js", "flush-compile-cache.js"].map((f) => path.join(__dirname, f));
    const env: NodeJS.ProcessEnv = { ...o.env, PULUMI_ENGINE_STANDIN_DETAILS_DIR: this.detailsDir };
    // A plugin runs by its shebang (`node` from the PATH, as under the CLI): the preload goes by NODE_OPTIONS.
    const child = o.executable
      ? spawn(o.modulePath, [o.engineAddr], {
          cwd: o.cwd,
          env: {
            ...env,
            NODE_OPTIONS: [env.NODE_OPTIONS, ...preloads.map((p) => `--require=${p}`)].filter(Boolean).join(" "),
          },
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(process.execPath, [...preloads.flatMap((p) => ["--require", p]), o.modulePath, o.engineAddr], {
          cwd: o.cwd,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
    this.child = child;
    child.stderr?.on("data", (d: Buffer) => (this.stderr += d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let first = true;
      child.stdout?.on("data", (d: Buffer) => {
        this.stdout += d.toString();
        const nl = this.stdout.indexOf("\n");
        if (first && nl >= 0) {
          first = false;
          resolve(this.stdout.slice(0, nl).trim());
          this.stdout = this.stdout.slice(nl + 1);
        }
      });
      child.on(
        "exit",
        (code) =>
          first &&
          reject(new Error(`provider host ${o.modulePath} exited (${code}) before printing its port:\n${this.stderr}`)),
      );
      child.on("error", reject);
    });
    this.client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      GRPC_OPTIONS,
    );
  }

  /**
   * The engine configures the `pulumi-nodejs` provider with the whole stack config, `ns:key` to
   * string, secrets wrapped in the secret signature (the host unwraps them). The deprecated
   * `variables` map gets the same plain strings, as the engine still fills it.
   */
  async configure(config: Record<string, string>, secretKeys: ReadonlySet<string>, provider: Target): Promise<void> {
    const req = new provproto.ConfigureRequest();
    const args: Props = {};
    for (const [k, v] of Object.entries(config)) {
      args[k] = secretKeys.has(k) ? secret(v) : v;
      req.getVariablesMap().set(k, v);
    }
    req.setArgs(toStruct(args));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setUrn(provider.urn);
    req.setName(provider.name);
    req.setType(provider.type);
    this.supportsPreview = (
      await this.call<provproto.ConfigureResponse>("Configure", "configure", req)
    ).getSupportspreview();
  }

  /**
   * A resource plugin's Configure (registry.go, after CheckConfig): `args` are the provider resource's
   * checked inputs, secrets still marked; `variables` the same as `<package>:<key>` strings, which the
   * engine still fills for older plugins.
   */
  async configureProvider(args: Props, variables: Record<string, string>, provider: Target): Promise<void> {
    const req = new provproto.ConfigureRequest();
    for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
    req.setArgs(toStruct(args));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setUrn(provider.urn);
    req.setName(provider.name);
    req.setType(provider.type);
    this.supportsPreview = (
      await this.call<provproto.ConfigureResponse>("Configure", "configure", req)
    ).getSupportspreview();
  }

  /** Whether the provider plans a preview's creates and updates (its ConfigureResponse `supportsPreview`). */
  private supportsPreview = false;

  /**
   * A preview's Create (plugin/provider_plugin.go `Create` with `req.Preview`): with its config unknown
   * the engine answers an empty map itself; for a provider that does not plan it answers with the inputs
   * (undefined here: the caller's to build); one that plans is asked, with `preview: true`.
   */
  async previewCreate(t: Target, properties: Props): Promise<Props | undefined> {
    if (this.configUnknown) return {};
    if (!this.supportsPreview) return undefined;
    return (await this.create(t, properties, true)).properties;
  }

  /** A preview's Update (plugin/provider_plugin.go `Update` with `req.Preview`), as {@link previewCreate}. */
  async previewUpdate(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
  ): Promise<Props | undefined> {
    if (this.configUnknown) return {};
    if (!this.supportsPreview) return undefined;
    return this.update(t, id, olds, news, oldInputs, ignoreChanges, true);
  }

  /** CheckConfig of a provider resource's inputs (registry.go Check); failures name the property. */
  checkConfig(t: Target, olds: Props, news: Props): Promise<CheckResult> {
    return this.checkAs("CheckConfig", "checkConfig", t, olds, news);
  }

  /** DiffConfig of a provider resource (registry.go Diff): a change updates the provider, or replaces it. */
  diffConfig(t: Target, id: string, olds: Props, news: Props): Promise<DiffResult> {
    return this.diffAs("DiffConfig", "diffConfig", t, id, olds, news, olds, []);
  }

  /**
   * A provider whose config holds values unknown in a preview: Configure is not sent, and the engine
   * answers Check, Diff, Read and Invoke itself (plugin/provider_plugin.go `!pcfg.known`).
   */
  private configUnknown = false;

  markConfigUnknown(): void {
    this.configUnknown = true;
  }

  /** A function call (`pulumi.runtime.invoke`), as the engine forwards a ResourceMonitor Invoke. */
  async invoke(
    tok: string,
    args: Props,
  ): Promise<{ result: Props; failures: Array<{ property: string; reason: string }> }> {
    if (this.configUnknown) return { result: {}, failures: [] };
    const req = new provproto.InvokeRequest();
    req.setTok(tok);
    req.setArgs(toStruct(args));
    const resp = await this.call<provproto.InvokeResponse>("Invoke", "invoke", req);
    return { result: fromStruct(resp.getReturn()), failures: failuresOf(resp) };
  }

  /** The package schema the plugin serves (GetSchema, version 0). */
  async getSchema(): Promise<string> {
    const req = new provproto.GetSchemaRequest();
    const resp = await this.call<provproto.GetSchemaResponse>("GetSchema", "getSchema", req);
    return resp.getSchema();
  }

  check(t: Target, olds: Props, news: Props): Promise<CheckResult> {
    if (this.configUnknown) return Promise.resolve({ inputs: news, failures: [] });
    return this.checkAs("Check", "check", t, olds, news);
  }

  diff(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
  ): Promise<DiffResult> {
    if (this.configUnknown)
      return Promise.resolve({
        changes: "some",
        replaces: [],
        deleteBeforeReplace: false,
        diffs: [],
        unavailable:
          "The provider for this resource has inputs that are not known during preview.\n" +
          "This preview may not correctly represent the changes that will be applied during an update.",
      });
    return this.diffAs("Diff", "diff", t, id, olds, news, oldInputs, ignoreChanges);
  }

  /** Check and CheckConfig: the same request and reply, another method. */
  private async checkAs(
    method: "Check" | "CheckConfig",
    fn: "check" | "checkConfig",
    t: Target,
    olds: Props,
    news: Props,
  ): Promise<CheckResult> {
    const req = new provproto.CheckRequest();
    setTarget(req, t);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const resp = await this.call<provproto.CheckResponse>(method, fn, req);
    return { inputs: fromStruct(resp.getInputs()), failures: failuresOf(resp) };
  }

  /** Diff and DiffConfig: the same request and reply, another method. */
  private async diffAs(
    method: "Diff" | "DiffConfig",
    fn: "diff" | "diffConfig",
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
  ): Promise<DiffResult> {
    const req = new provproto.DiffRequest();
    setTarget(req, t);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setOldInputs(toStruct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    return diffResult(await this.call<provproto.DiffResponse>(method, fn, req));
  }

  async create(t: Target, properties: Props, preview = false): Promise<{ id: string; properties: Props }> {
    const req = new provproto.CreateRequest();
    setTarget(req, t);
    req.setProperties(toStruct(properties));
    req.setPreview(preview);
    const resp = await this.call<provproto.CreateResponse>("Create", "create", req);
    return { id: resp.getId(), properties: fromStruct(resp.getProperties()) };
  }

  async update(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
    preview = false,
  ): Promise<Props> {
    const req = new provproto.UpdateRequest();
    setTarget(req, t);
    req.setPreview(preview);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setOldInputs(toStruct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    const resp = await this.call<provproto.UpdateResponse>("Update", "update", req);
    return fromStruct(resp.getProperties());
  }

  /**
   * `properties` are the last known outputs (refresh) or the inputs again (`get`); an import sends
   * neither, only the id, exactly as the engine does.
   */
  async read(t: Target, id: string, properties?: Props, inputs?: Props): Promise<ReadResult> {
    if (this.configUnknown) return { id, properties: {}, inputs: {} };
    const req = new provproto.ReadRequest();
    setTarget(req, t);
    req.setId(id);
    if (properties) req.setProperties(toStruct(properties));
    if (inputs) req.setInputs(toStruct(inputs));
    const resp = await this.call<provproto.ReadResponse>("Read", "read", req);
    const inputsStruct = resp.getInputs();
    return {
      id: resp.getId(),
      properties: fromStruct(resp.getProperties()),
      ...(inputsStruct ? { inputs: fromStruct(inputsStruct) } : {}),
    };
  }

  async delete(t: Target, id: string, properties: Props, oldInputs: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    setTarget(req, t);
    req.setId(id);
    req.setProperties(toStruct(properties));
    req.setOldInputs(toStruct(oldInputs));
    await this.call("Delete", "delete", req);
  }

  async stop(): Promise<void> {
    this.client?.close();
    if (this.detailsDir) rmSync(this.detailsDir, { recursive: true, force: true });
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.peakRss = this.readPeakRss();
    recordChildCpu("provider host", child.pid);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    await exited;
  }

  private readPeakRss(): number | undefined {
    const pid = this.child?.pid;
    if (pid === undefined) return undefined;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      return m ? Number(m[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  private call<R>(method: ProviderMethod, fn: string, req: unknown): Promise<R> {
    const client = this.client;
    if (!client) throw new Error("provider host not started");
    this.calls[method]++;
    return new Promise<R>((resolve, reject) => {
      // The generated client has one overload per method; index it dynamically to share the plumbing.
      const f = (
        client as unknown as Record<string, (r: unknown, cb: (e: grpc.ServiceError | null, v: R) => void) => void>
      )[fn];
      f!.call(client, req, (err, resp) => (err ? reject(providerError(method, err, this.detailsDir)) : resolve(resp)));
    });
  }
}

/** Check or Invoke failures, each naming its property. */
function failuresOf(resp: {
  getFailuresList(): Array<{ getProperty(): string; getReason(): string }>;
}): Array<{ property: string; reason: string }> {
  return resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

function diffResult(resp: provproto.DiffResponse): DiffResult {
  const c = resp.getChanges();
  const D = provproto.DiffResponse.DiffChanges;
  return {
    changes: c === D.DIFF_SOME ? "some" : c === D.DIFF_NONE ? "none" : "unknown",
    replaces: resp.getReplacesList(),
    deleteBeforeReplace: resp.getDeletebeforereplace(),
    diffs: resp.getDiffsList(),
    ...(resp.getHasdetaileddiff() ? { detailedDiff: detailedDiffOf(resp) } : {}),
  };
}

/** A detailed diff as path to kind (`add`, `update-replace`, ...), as the CLI shows it. */
function detailedDiffOf(resp: provproto.DiffResponse): Record<string, string> {
  const K = provproto.PropertyDiff.Kind;
  const kinds: Record<number, string> = {
    [K.ADD]: "add",
    [K.ADD_REPLACE]: "add-replace",
    [K.DELETE]: "delete",
    [K.DELETE_REPLACE]: "delete-replace",
    [K.UPDATE]: "update",
    [K.UPDATE_REPLACE]: "update-replace",
  };
  const out: Record<string, string> = {};
  resp.getDetaileddiffMap().forEach((diff, path) => {
    out[path] = kinds[diff.getKind()] ?? String(diff.getKind());
  });
  return out;
}

function setTarget(
  req: { setUrn(v: string): unknown; setName(v: string): unknown; setType(v: string): unknown },
  t: Target,
): void {
  req.setUrn(t.urn);
  req.setName(t.name);
  req.setType(t.type);
}
