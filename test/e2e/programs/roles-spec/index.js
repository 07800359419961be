// Test program for the user-path suites: a team's program, written from the README, whose resources
// come from the stack config so that a test can rename, swap, remove and refactor them between runs
// as teams do with code.
//
// config roles-spec:spec   JSON array of { name, args: RoleArgs, opts?: { aliases, retainOnDelete,
//                          protect, deleteBeforeReplace, import, ignoreChanges } }
"use strict";
const pulumi = require("@pulumi/pulumi");
const { Role } = require("pulumi-grouproles");

const spec = JSON.parse(new pulumi.Config("roles-spec").require("spec"));
const roles = {};
for (const r of spec) roles[r.name] = new Role(r.name, r.args, r.opts ?? {});

exports.roleIds = Object.fromEntries(Object.entries(roles).map(([name, role]) => [name, role.roleId]));
