/**
 * Exports what the presence service knows about one visitor. The lookups run in this program's
 * process, during `pulumi preview` as well as `pulumi up`, and query the live service both times.
 * Settings: `grouproles:presenceUrl` and `grouproles:accessToken` (secret), or the GROUPROLES_* variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { findVisitorOutput, getVisitorPresenceOutput } from "pulumi-grouproles";

const config = new pulumi.Config();
const groupId = config.requireNumber("groupId");
const visitorId = config.require("visitorId");

const presence = getVisitorPresenceOutput({ groupId, visitorId });

/** True when the visitor is present. */
export const present = presence.present;
/** The whole presence record: `{ present, groupId, visitorId, direct?, ds?, directServer?, ... }`. */
export const visitorPresence = presence;
/** When the visitor was seen present, as an ISO date, or undefined when absent. */
export const presentSince = presence.apply((p) =>
  p.visitorPresent === undefined ? undefined : new Date(p.visitorPresent * 1000).toISOString(),
);
/** Where the visitor is connected: `{ visitorFound, ds?, direct?, directServer?, tlsPort?, httpsPort? }`. */
export const location = findVisitorOutput({ groupId, visitorId });
