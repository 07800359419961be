// Test program for the resource plugin's suites: a team's program using `pulumi-grouproles/package`,
// whose providers, resources and function calls come from the stack config.
//
// config package-spec:providers   JSON map of provider name to ProviderArgs (secret: holds credentials)
// config package-spec:roles       JSON array of { name, args: RoleArgs, opts?: { provider?, import?, ... } }
// config package-spec:catalogues  JSON array of { name, args: GroupRolesArgs, opts? }
// config package-spec:calls       JSON array of { fn: "getRole" | "getRoles" | "getVisitorPresence" |
//                                 "findVisitor", args, provider? }; results are the stack output `calls`
// config package-spec:anchor      a RoleArgs: that Role is declared first (default provider), and a
//                                 provider whose args say `"afterAnchor": true` takes its baseUrl only
//                                 once the anchor's roleId is known (unknown in the preview of a new one)
"use strict";
const pulumi = require("@pulumi/pulumi");
const grouproles = require("pulumi-grouproles/package");

const config = new pulumi.Config("package-spec");
const json = (key) => JSON.parse(config.get(key) ?? "[]");
const anchorArgs = config.getObject("anchor");
const anchor = anchorArgs ? new grouproles.Role("anchor", anchorArgs) : undefined;
const providers = {};
for (const [name, { afterAnchor, ...args }] of Object.entries(JSON.parse(config.get("providers") ?? "{}"))) {
  const baseUrl = afterAnchor && anchor ? anchor.roleId.apply(() => args.baseUrl) : args.baseUrl;
  providers[name] = new grouproles.Provider(name, { ...args, baseUrl });
}
const options = (opts = {}) => ({ ...opts, ...(opts.provider ? { provider: providers[opts.provider] } : {}) });

const roles = {};
for (const r of json("roles")) roles[r.name] = new grouproles.Role(r.name, r.args, options(r.opts));
const catalogues = {};
for (const c of json("catalogues")) catalogues[c.name] = new grouproles.GroupRoles(c.name, c.args, options(c.opts));

exports.roleIds = Object.fromEntries(Object.entries(roles).map(([name, role]) => [name, role.roleId]));
exports.catalogues = Object.fromEntries(Object.entries(catalogues).map(([name, c]) => [name, c.roles]));
exports.calls = json("calls").map((c) =>
  grouproles[`${c.fn}Output`](c.args, c.provider ? { provider: providers[c.provider] } : {}),
);
