// Test program for the user-path suites: a team's program, written from the README, whose resources
// come from the stack config so that a test can rename, swap, remove and refactor them between runs
// as teams do with code.
//
// config roles-spec:spec        JSON array of { name, args: RoleArgs, opts?: { aliases, retainOnDelete,
//                               protect, deleteBeforeReplace, import, ignoreChanges } }
// config roles-spec:groupRoles  JSON array of { name, args: GroupRolesArgs, opts? } (optional)
// config roles-spec:order       "catalogues-first" registers the GroupRoles before the Roles (optional)
// config roles-spec:groupIds    "outputs" gives every groupId as an Output, `pulumi.output(n)` (optional)
// config roles-spec:sdk         "package" uses the resource plugin's SDK (pulumi-grouproles/package)
//                               instead of the dynamic resources (optional)
// config roles-spec:slow        JSON array of { name, ms }: test resources declared before all others,
//                               whose create and update take `ms` (optional). A resource that names one
//                               in `dependsOn` registers only after that step: in an `up`, not in a
//                               preview (which skips creates), as behind a slow database.
// config roles-spec:components  JSON array of names: component resources (type roles-spec:index:Team),
//                               declared before all others, that a resource names in `opts.parent` (optional)
// config roles-spec:provider    JSON ProviderArgs: with sdk "package", an explicit Provider named
//                               "explicit" that every Role and GroupRoles uses (optional)
// opts.dependsOn (either kind) names resources of the spec declared before it (Roles first by default).
// opts.parent names one of the components; opts.aliases passes as given, except that { "noParent": true }
//                               is the Node SDK's way of saying it, { parent: pulumi.rootStackResource }.
"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("roles-spec");
const sdk = require(config.get("sdk") === "package" ? "pulumi-grouproles/package" : "pulumi-grouproles");
const { Role, GroupRoles } = sdk;
const providerArgs = config.getObject("provider");
// An inline program (the stand-in runs this one inline, as the Automation API would) registers the
// delete hooks in every run: the package is loaded once per process (README, "Automation API").
sdk.registerDeleteHooks();
const explicit = providerArgs && new sdk.Provider("explicit", providerArgs);
const spec = JSON.parse(config.get("spec") ?? "[]");
const roles = {};
const catalogues = {};
/** A step that takes its time: the dynamic provider's create and update wait `ms` (the preview runs neither). */
const slowProvider = {
  create: async (inputs) => {
    await new Promise((resolve) => setTimeout(resolve, inputs.ms));
    return { id: `slow-${inputs.ms}-${Date.now()}`, outs: inputs };
  },
  update: async (_id, _olds, news) => {
    await new Promise((resolve) => setTimeout(resolve, news.ms));
    return { outs: news };
  },
};
const slow = {};
for (const r of JSON.parse(config.get("slow") ?? "[]"))
  slow[r.name] = new pulumi.dynamic.Resource(slowProvider, r.name, { ms: r.ms }, {});
class Team extends pulumi.ComponentResource {
  constructor(name) {
    super("roles-spec:index:Team", name, {}, {});
    this.registerOutputs({});
  }
}
const components = {};
for (const name of JSON.parse(config.get("components") ?? "[]")) components[name] = new Team(name);
/** The args with groupId as an Output when the config asks for it (the program cannot check those). */
const withGroupId = (args) =>
  config.get("groupIds") === "outputs" && args ? { ...args, groupId: pulumi.output(args.groupId) } : args;
/** Resource options with `dependsOn` names resolved to the resources declared so far. */
const withDependencies = (opts = {}) => ({
  ...opts,
  ...(explicit ? { provider: explicit } : {}),
  ...(opts.dependsOn ? { dependsOn: opts.dependsOn.map((name) => roles[name] ?? catalogues[name] ?? slow[name]) } : {}),
  ...(opts.parent ? { parent: components[opts.parent] } : {}),
  ...(opts.aliases
    ? { aliases: opts.aliases.map((a) => (a.noParent ? { parent: pulumi.rootStackResource } : a)) }
    : {}),
});
const declareRoles = () => {
  for (const r of spec) roles[r.name] = new Role(r.name, withGroupId(r.args), withDependencies(r.opts));
};
const declareCatalogues = () => {
  for (const g of JSON.parse(config.get("groupRoles") ?? "[]"))
    catalogues[g.name] = new GroupRoles(g.name, withGroupId(g.args), withDependencies(g.opts));
};
if (config.get("order") === "catalogues-first") {
  declareCatalogues();
  declareRoles();
} else {
  declareRoles();
  declareCatalogues();
}

// No stack outputs: the tests read the state and the service. An output of a resource whose step
// failed never resolves, so a program exporting one never returns from an inline run (the engine
// stand-in then has to give the run up and replace its process, which costs a second of CPU).
