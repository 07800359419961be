// Benchmark program for `npm run bench`: N roles in one group, described by stack config so the
// benchmark can create, rename and destroy them without editing code. It imports the installed
// package exactly as a user's program does.
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
const { Role } = require(config.get("sdk") === "package" ? "pulumi-grouproles/package" : "pulumi-grouproles");
const count = config.requireNumber("count");
const prefix = config.require("prefix");
const groupId = config.requireNumber("groupId");
const flip = config.getBoolean("flip") === true;
const skip = config.getNumber("skip") ?? -1;

for (let i = 0; i < count; i++) {
  if (i === skip) continue;
  new Role(`role-${i}`, {
    groupId,
    name: `${prefix}-${i}`,
    description: `benchmark role ${i}`,
    settings: { viewVideo: (i % 2 === 0) !== flip, remoteAssist: true },
  });
}

exports.roles = count;
