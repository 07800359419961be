// Benchmark program for `npm run bench`: the roles of bench/programs/roles, declared as one GroupRoles
// resource instead of N Role resources. Same config, same names, same settings.
//
// config bench:count    how many roles
// config bench:prefix   role names are `<prefix>-<i>`; changing it renames every role (an update)
// config bench:groupId  the group holding them
// config bench:flip     "true" flips every role's viewVideo (a settings change of every role)
// config bench:skip     index of a role to leave out (a removal), or -1
// config bench:sdk      "package": the resource plugin's SDK (pulumi-grouproles/package), else dynamic
"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const { GroupRoles } = require(config.get("sdk") === "package" ? "pulumi-grouproles/package" : "pulumi-grouproles");
const count = config.requireNumber("count");
const prefix = config.require("prefix");
const groupId = config.requireNumber("groupId");
const flip = config.getBoolean("flip") === true;
const skip = config.getNumber("skip") ?? -1;

const roles = {};
for (let i = 0; i < count; i++) {
  if (i === skip) continue;
  roles[`role-${i}`] = {
    name: `${prefix}-${i}`,
    description: `benchmark role ${i}`,
    settings: { viewVideo: (i % 2 === 0) !== flip, remoteAssist: true },
  };
}
new GroupRoles("roles", { groupId, roles });

exports.roles = Object.keys(roles).length;
