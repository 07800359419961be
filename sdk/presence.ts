/**
 * Presence as data functions: where a visitor is and what the service knows about them, plus a helper
 * that sends a connected visitor a message.
 *
 * These run in the program process, not in a provider: a dynamic provider can manage resources but
 * cannot serve invokes, so there is no provider round trip and nothing of them reaches state except
 * the results you export. They also run during `pulumi preview`, so a preview queries the live service;
 * {@link signalVisitor} is the exception and sends nothing during a preview.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigurationError } from "../client/errors";
import { checkVisitorRef } from "../client/presence";
import { checkVisitorMessage } from "../client/visitor-message";
import { locateVisitor, lookupVisitorPresence } from "../provider/shared/lookups";
import { clientFor, type ConnectionOptions } from "./client";
import type { PresenceRecord, VisitorLocation } from "../client/types";

/** Arguments of {@link getVisitorPresence}. */
export interface GetVisitorPresenceArgs {
  /** ID of the group: a positive integer. */
  groupId: number;
  /** The visitor's ID: 1 to 62 characters of letters, digits, `-`, `_` and `~`. */
  visitorId: string;
}

/**
 * A visitor's presence record (`/lookupvisitor`), camelCase, numbers as numbers. When the visitor is
 * not present only `present`, `groupId` and `visitorId` are set.
 */
export type GetVisitorPresenceResult = PresenceRecord & {
  /** The group, as the service reports it (else as asked). */
  groupId: number;
  /** The visitor's ID, as the service reports it (else as asked). */
  visitorId: string;
};

/** Arguments of {@link findVisitor}. */
export interface FindVisitorArgs {
  /** ID of the group: a positive integer. */
  groupId: number;
  /** The visitor's ID: 1 to 62 characters of letters, digits, `-`, `_` and `~`. */
  visitorId: string;
}

/** Where a visitor is connected (`/findvisitor`). Only `visitorFound` is set when it is not connected. */
export type FindVisitorResult = VisitorLocation;

/** Asks the visitor's page to call one of its presence functions. */
export interface VisitorInvokeMessage {
  /** Call a visitor-side function. */
  mtype: "invoke";
  data: {
    /** The visitor-side function, `SERVICE.<Module>.Visitor.<function>`, e.g. `SERVICE.Cobrowse.Visitor.startSession`. */
    func: string;
  };
}

/** Hands a JSON object to the visitor instance's `onsignal()` handler. */
export interface VisitorSignalMessage {
  /** Hand `data` to the visitor's `onsignal()` handler. */
  mtype: "signal";
  /** Any JSON object of your choosing, e.g. `{ command: "chat", chatid: "7" }`. Must be plain JSON. */
  data: Record<string, unknown>;
}

/** A message for a connected visitor, discriminated by `mtype`. */
export type VisitorMessage = VisitorInvokeMessage | VisitorSignalMessage;

/** Arguments of {@link signalVisitor}. */
export interface SignalVisitorArgs {
  /** ID of the group: a positive integer. */
  groupId: number;
  /** The visitor's ID: 1 to 62 characters of letters, digits, `-`, `_` and `~`. */
  visitorId: string;
  /** What to send. */
  message: VisitorMessage;
}

/** What {@link signalVisitor} did. */
export interface SignalVisitorResult {
  /** True when the message was delivered; false only when it was skipped because this is a preview. */
  sent: boolean;
}

/** Inputs form of an args type, for the `...Output` variants. */
type InputArgs<T> = pulumi.Input<T> | { [K in keyof T]: pulumi.Input<T[K]> };

function checkArgs(args: { groupId: number; visitorId: string } | undefined): void {
  if (typeof args !== "object" || args === null)
    throw new ConfigurationError("args must be an object { groupId, visitorId }");
  checkVisitorRef(args.groupId, args.visitorId);
}

/**
 * Looks up a visitor's presence record. An absent visitor is `{ present: false, groupId, visitorId }`,
 * not an error.
 *
 * Runs in the program process, during `pulumi preview` as well as `pulumi up`: a preview queries the
 * live service. Settings come from `options`, else the stack config (`grouproles:presenceUrl`,
 * `grouproles:accessToken`), else `GROUPROLES_PRESENCE_URL` / `GROUPROLES_ACCESS_TOKEN`.
 *
 * @example
 * ```ts
 * const p = await getVisitorPresence({ groupId: 42, visitorId: "visitor-1" });
 * if (p.present) console.log(`on ${p.directServer} since ${new Date(p.visitorPresent! * 1000).toISOString()}`);
 * ```
 * @throws ConfigurationError for a bad groupId or visitorId (before any request) or missing settings.
 */
export async function getVisitorPresence(
  args: GetVisitorPresenceArgs,
  options?: ConnectionOptions,
): Promise<GetVisitorPresenceResult> {
  return lookupVisitorPresence(clientFor(options, "presence"), args);
}

/**
 * Finds the named presence server a visitor is connected to. A visitor that is not connected is
 * `{ visitorFound: false }`, not an error.
 *
 * Runs in the program process, during `pulumi preview` as well as `pulumi up` (see {@link getVisitorPresence}).
 *
 * @example
 * ```ts
 * const where = await findVisitor({ groupId: 42, visitorId: "visitor-1" });
 * if (where.visitorFound) console.log(`connected to ${where.direct}`);
 * ```
 * @throws ConfigurationError for a bad groupId or visitorId (before any request) or missing settings.
 */
export async function findVisitor(args: FindVisitorArgs, options?: ConnectionOptions): Promise<FindVisitorResult> {
  return locateVisitor(clientFor(options, "presence"), args);
}

/**
 * {@link getVisitorPresence} taking Inputs and returning an Output, for use inside a program. The
 * result is unknown in a preview while an input is unknown, and secret when an input is secret.
 * Connection settings stay plain values: the token never enters an Output.
 *
 * @example
 * ```ts
 * const cfg = new pulumi.Config();
 * const presence = getVisitorPresenceOutput({ groupId: cfg.requireNumber("groupId"), visitorId: cfg.require("visitorId") });
 * export const visitorPresent = presence.present;
 * ```
 */
export function getVisitorPresenceOutput(
  args: InputArgs<GetVisitorPresenceArgs>,
  options?: ConnectionOptions,
): pulumi.Output<GetVisitorPresenceResult> {
  return pulumi
    .output(args as pulumi.Input<GetVisitorPresenceArgs>)
    .apply((a) => getVisitorPresence(a as GetVisitorPresenceArgs, options));
}

/**
 * {@link findVisitor} taking Inputs and returning an Output, for use inside a program. The result is
 * unknown in a preview while an input is unknown, and secret when an input is secret.
 *
 * @example
 * ```ts
 * const where = findVisitorOutput({ groupId: 42, visitorId: "visitor-1" });
 * export const visitorServer = where.direct;
 * ```
 */
export function findVisitorOutput(
  args: InputArgs<FindVisitorArgs>,
  options?: ConnectionOptions,
): pulumi.Output<FindVisitorResult> {
  return pulumi.output(args as pulumi.Input<FindVisitorArgs>).apply((a) => findVisitor(a as FindVisitorArgs, options));
}

/**
 * Sends a message to a connected visitor: finds the visitor through the presence load balancer, then
 * posts to the named server that holds it (never the load balancer). Not retried once it may have
 * been delivered.
 *
 * During `pulumi preview` it sends nothing: it validates the arguments and the settings, logs that the
 * message was skipped, and resolves `{ sent: false }`. Outside a Pulumi program (a plain script) it
 * always sends.
 *
 * @example
 * ```ts
 * await signalVisitor({ groupId: 42, visitorId: "visitor-1", message: { mtype: "signal", data: { command: "chat", chatid: "7" } } });
 * await signalVisitor({ groupId: 42, visitorId: "visitor-1", message: { mtype: "invoke", data: { func: "SERVICE.Cobrowse.Visitor.startSession" } } });
 * ```
 * @throws ConfigurationError for a bad groupId, visitorId or message (before any request) or missing settings.
 * @throws VisitorNotConnectedError when the visitor is not connected (or leaves before the message arrives).
 */
export async function signalVisitor(
  args: SignalVisitorArgs,
  options?: ConnectionOptions,
): Promise<SignalVisitorResult> {
  checkArgs(args);
  const message = checkVisitorMessage(args.message);
  const client = clientFor(options, "presence");
  if (pulumi.runtime.isDryRun()) {
    await pulumi.log.info(
      `signalVisitor: preview, not sending the "${message.mtype}" message to visitor "${args.visitorId}" of group ${args.groupId}; \`pulumi up\` sends it`,
    );
    return { sent: false };
  }
  await client.presence.signalVisitor(args.groupId, args.visitorId, message);
  return { sent: true };
}
