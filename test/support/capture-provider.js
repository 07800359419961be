// Run with cwd = a project that has pulumi-grouproles installed. Registers Roles under
// pulumi.runtime.setMocks (and GroupRoles) and prints what the engine would receive, as JSON on stdout.
const pulumi = require("@pulumi/pulumi");
const captured = [];
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      captured.push({ type: args.type, name: args.name, inputs: args.inputs, id: args.id });
      const roleId = { support: 1001, sales: 1002 }[args.name] ?? 7;
      return { id: args.id || `42/${roleId}`, state: { ...args.inputs, roleId, inUse: false, userCount: 0 } };
    },
    call: () => ({}),
  },
  "proj",
  "stack",
  false,
);
const { Role, GroupRoles } = require("pulumi-grouproles");
const a = new Role("support", { groupId: 42, name: "Support", settings: { viewVideo: true } });
const b = new Role("sales", { groupId: 42, name: "Sales", description: "d" });
const c = Role.get("existing", "42/7");
new GroupRoles("catalogue", { groupId: 43, roles: { support: { name: "Support", settings: { viewVideo: true } } } });
new GroupRoles("other-catalogue", { groupId: 44, roles: {} });
pulumi.all([a.roleId, b.roleId, a.urn, c.name]).apply(([ra, rb, urn]) => {
  setTimeout(() => console.log(JSON.stringify({ captured, roleIds: [ra, rb], urn })), 0);
});
