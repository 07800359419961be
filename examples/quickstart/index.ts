/**
 * Quickstart: three roles of one group, a lookup of one of them, and a visitor's presence.
 * Settings: `grouproles:baseUrl`, `grouproles:presenceUrl`, `grouproles:accessToken` (secret).
 */
import * as pulumi from "@pulumi/pulumi";
import { Role, getRoleOutput, getVisitorPresenceOutput } from "pulumi-grouproles";

const config = new pulumi.Config();
const groupId = config.requireNumber("groupId");
const visitorId = config.get("visitorId") ?? "visitor-1";

const support = new Role("support", {
  groupId,
  name: config.get("supportName") ?? "Support",
  description: "First-line support agents",
  settings: { viewVideo: true, remoteAssist: true, joinCobrowseSessions: true },
});

const supervisors = new Role("supervisors", {
  groupId,
  name: "Supervisors",
  description: "Team leads: everything support has, plus screen sharing",
  settings: { viewVideo: true, remoteAssist: true, joinCobrowseSessions: true, startScreenShareSessions: true },
});

const viewers = new Role("viewers", { groupId, name: "Viewers", settings: { viewVideo: true } });

// A lookup by ID, as another stack would reference a role it does not manage.
const supportLookup = getRoleOutput({ groupId, roleId: support.roleId });

export const roleIds = { support: support.id, supervisors: supervisors.id, viewers: viewers.id };
export const supportInUse = supportLookup.inUse;
export const supportSettings = supportLookup.settings;
export const visitorPresent = getVisitorPresenceOutput({ groupId, visitorId }).present;
