/**
 * Adopting roles created by hand in the service:
 * - `agents` is taken over: declare it exactly as it is, with the `import` option. The first `up`
 *   adopts it (nothing is created; a mismatch fails and changes nothing); afterwards it is managed like
 *   any other Role, and the `import` option can stay or go.
 * - `auditors` is only referenced with `Role.get`: Pulumi reads it and never changes or deletes it.
 */
import * as pulumi from "@pulumi/pulumi";
import { Role } from "pulumi-grouproles";

const config = new pulumi.Config();
const groupId = config.requireNumber("groupId");

const agents = new Role(
  "agents",
  { groupId, name: "Agents", description: "Created by hand in 2024", settings: { viewVideo: true } },
  { import: config.require("agentsRoleId") },
);

const auditors = Role.get("auditors", config.require("auditorsRoleId"));

export const agentsRoleId = agents.roleId;
export const agentsUserCount = agents.userCount;
export const auditorsName = auditors.name;
export const auditorsSettings = auditors.settings;
