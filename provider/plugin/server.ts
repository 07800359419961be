/**
 * The resource provider plugin `pulumi-resource-grouproles`: Pulumi's ResourceProvider gRPC service,
 * served by the same check, diff and CRUD code as the dynamic providers (../role/provider,
 * ../group-roles/provider), plus what only a plugin can do: its own configuration per provider instance
 * (CheckConfig, DiffConfig, Configure), a schema (GetSchema), `pulumi import` (Read with only an ID),
 * and invokes. The Node SDK's `provider.main()` answers Configure without handing the config to the
 * provider and leaves CheckConfig unimplemented (pulumi/pulumi sdk/nodejs/provider/server.ts), so this service is
 * built on the SDK's generated `provider_grpc_pb` directly. See docs/design/pulumi-package.md.
 * Here: the service's handlers and serve(); what serves each token is ./served-tokens, the schema
 * ./package-schema, the replies ./check-diff-responses, and the answering of a call ./grpc-handlers.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { setStackConfig } from "../../config/stack-config";
import { emptyproto, grpc } from "../shared/sdk-rpc";
import { PACKAGE_VERSION } from "../../client/version";
import { checkResponse, diffResponse } from "./check-diff-responses";
import { configFailures, configSource } from "./config";
import { sameNameFailures } from "./declared-names";
import { claimIfImported, readNoting } from "./imports";
import { narrowToDeclared } from "./declared-settings";
import { unary, unimplemented } from "./grpc-handlers";
import { schemaText } from "./package-schema";
import { plannedCatalogue, plannedRole } from "./planned-outputs";
import { INVOKES, methodsFor, tokenOf } from "./served-tokens";
import { leanService, propsOf, withProps } from "./lean-wire";
import { fromStruct, reveal, toStruct, withoutShim } from "./values";
import type { Props } from "../shared/props";

const provrpc =
  require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof import("@pulumi/pulumi/proto/provider_grpc_pb");
const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof import("@pulumi/pulumi/proto/provider_pb");
const pluginpb = require("@pulumi/pulumi/proto/plugin_pb") as typeof import("@pulumi/pulumi/proto/plugin_pb");

/** A resource call's Struct field `name` (./lean-wire), secrets revealed, without the dynamic providers' shim. */
const field = (req: object, name: string): Props => withoutShim(reveal(propsOf(req, name)) as Props);

/**
 * Inputs as the provider's methods take them: with the program's structure (../shared/structure). The
 * TypeScript SDKs send it; a program in another language sends none, and its resource's URN then comes
 * from the request: its Check opens the registration under that URN, and its create or update finds it so.
 */
const withUrn = (urn: string, inputs: Props): Props =>
  "__structure" in inputs ? inputs : { ...inputs, __structure: { urn } };

/** A Diff's or Update's old outputs (narrowed to what is declared, ./declared-settings) and new inputs. */
function changeOf(req: provproto.DiffRequest | provproto.UpdateRequest) {
  const urn = req.getUrn();
  const news = withUrn(urn, field(req, "news"));
  const olds = narrowToDeclared(tokenOf(urn), field(req, "olds"), field(req, "oldInputs"), news);
  return { urn, olds, news };
}

/**
 * A preview's Create or Update: the outputs the step will produce (./planned-outputs), from the new
 * inputs and, for an update, the state; nothing is read or written.
 */
function planned(req: provproto.CreateRequest | provproto.UpdateRequest): Props {
  const isUpdate = "getOlds" in req;
  const inputs = field(req, isUpdate ? "news" : "properties");
  const old = isUpdate ? field(req, "olds") : undefined;
  if (tokenOf(req.getUrn()) === "grouproles:index:Role") return plannedRole(inputs, old);
  return plannedCatalogue(inputs, old) ?? inputs;
}

export const service: Partial<import("@pulumi/pulumi/proto/provider_grpc_pb").IResourceProviderServer> = {
  getPluginInfo: unary(async () => {
    const info = new pluginpb.PluginInfo();
    info.setVersion(PACKAGE_VERSION);
    return info;
  }),
  getSchema: unary(async () => {
    const res = new provpb.GetSchemaResponse();
    res.setSchema(schemaText());
    return res;
  }),
  checkConfig: unary(async (req: provproto.CheckRequest) => {
    const news = fromStruct(req.getNews());
    const res = checkResponse(configFailures(news));
    res.setInputs(toStruct(news));
    return res;
  }),
  diffConfig: unary(async (req: provproto.DiffRequest) => {
    const olds = fromStruct(req.getOldInputs() ?? req.getOlds());
    const news = fromStruct(req.getNews());
    // A changed address or credential is an update of the provider: its resources are never replaced.
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])]
      .filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]))
      .sort();
    const res = diffResponse({ changes: changed.length > 0 });
    res.setDiffsList(changed);
    return res;
  }),
  configure: unary(async (req: provproto.ConfigureRequest) => {
    const variables = Object.fromEntries(req.getVariablesMap().toArray()) as Record<string, string>;
    setStackConfig(configSource(fromStruct(req.getArgs()), variables));
    const res = new provpb.ConfigureResponse();
    // Plain values in (the engine marks outputs secret again); a preview's creates and updates are
    // answered with what they will produce (./planned-outputs), never by writing.
    res.setAcceptsecrets(false);
    res.setSupportspreview(true);
    return res;
  }),
  check: unary(async (req: provproto.CheckRequest) => {
    const urn = req.getUrn();
    const news = field(req, "news");
    // What the provider says of it (a catalogue's plan) shows under the resource (see `withUrn`); the URN
    // added for a program in another language is not kept in its inputs.
    const told = "__structure" in news;
    const r = await methodsFor(urn).check(field(req, "olds"), withUrn(urn, news));
    const failures = [...(r.failures ?? [])];
    if (tokenOf(urn) === "grouproles:index:Role") failures.push(...sameNameFailures(urn, news));
    if (!failures.length) claimIfImported(urn);
    const { __structure: _urn, ...declared } = withoutShim(r.inputs);
    return withProps(checkResponse(failures), "check", { inputs: told ? withoutShim(r.inputs) : declared });
  }),
  diff: unary(async (req: provproto.DiffRequest) => {
    const { urn, olds, news } = changeOf(req);
    return diffResponse(await methodsFor(urn).diff(req.getId(), olds, news));
  }),
  create: unary(async (req: provproto.CreateRequest) => {
    if (req.getPreview()) return withProps(new provpb.CreateResponse(), "create", { properties: planned(req) });
    const r = await methodsFor(req.getUrn()).create(withUrn(req.getUrn(), field(req, "properties")));
    const res = new provpb.CreateResponse();
    res.setId(r.id);
    return withProps(res, "create", { properties: withoutShim(r.outs as Props) });
  }),
  read: unary(async (req: provproto.ReadRequest) => {
    const state = field(req, "properties");
    const request = { state, inputs: reveal(propsOf(req, "inputs")) as Props };
    const r = await readNoting(
      req.getUrn(),
      request,
      async () => await methodsFor(req.getUrn()).read(req.getId(), state),
    );
    const res = new provpb.ReadResponse();
    res.setId(r.id);
    if (!r.id) return res;
    const props: Record<string, Props> = { properties: withoutShim(r.props as Props) };
    if ("inputs" in r && r.inputs) props.inputs = withoutShim(r.inputs as Props);
    return withProps(res, "read", props);
  }),
  update: unary(async (req: provproto.UpdateRequest) => {
    if (req.getPreview()) return withProps(new provpb.UpdateResponse(), "update", { properties: planned(req) });
    const { urn, olds, news } = changeOf(req);
    const r = await methodsFor(urn).update(req.getId(), olds, news);
    return withProps(new provpb.UpdateResponse(), "update", { properties: withoutShim(r.outs as Props) });
  }),
  delete: unary(async (req: provproto.DeleteRequest) => {
    await methodsFor(req.getUrn()).delete(req.getId(), field(req, "properties"), req.getUrn());
    return new emptyproto.Empty();
  }),
  invoke: unary(async (req: provproto.InvokeRequest) => {
    const invoke = INVOKES[req.getTok()];
    if (!invoke)
      throw new Error(`unknown function ${req.getTok()}; this plugin serves ${Object.keys(INVOKES).join(", ")}`);
    const res = new provpb.InvokeResponse();
    res.setReturn(toStruct(await invoke(fromStruct(req.getArgs()))));
    return res;
  }),
  cancel: unary(async () => new emptyproto.Empty()),
  attach: unimplemented("Attach"),
  construct: unimplemented("Construct"),
  call: unimplemented("Call"),
  parameterize: unimplemented("Parameterize"),
  getMapping: unimplemented("GetMapping"),
  getMappings: unimplemented("GetMappings"),
  handshake: unimplemented("Handshake"),
};

/** Starts the service on a loopback port; resolves with the port. */
export async function serve(): Promise<number> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1 << 28 });
  server.addService(
    leanService(provrpc.ResourceProviderService),
    service as import("@grpc/grpc-js").UntypedServiceImplementation,
  );
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    ),
  );
}
