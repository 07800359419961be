/**
 * What every HTTP request goes through, on every listener: routing, auth, rate limit, latency, fault
 * rules, the handler, the request log. Handlers only compute a {@link Reply} or throw an
 * {@link ApiError}; keeping the writing here is what lets fault rules replace, mangle or drop any reply.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Auth, ServiceName } from "./auth";
import { ApiError } from "./errors";
import type { FaultRule, FaultRules } from "./faults";
import { type CompiledTemplate, type Reply, matchTemplate, parsePositiveInt, readBody, send, sleep } from "./http-util";
import type { RateLimiter } from "./rate-limit";
import { loggedHeaders, type RequestLog, type ServerKind } from "./request-log";

/** What a handler gets. */
export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** Raw request body (`""` when none). */
  body: string;
  /** The authorized group, for routes with a `group` source. */
  groupId: number;
}

/**
 * - `service`: the documented interface: bearer token, rate limit, latency, faults, logged
 * - `admin`: `/_emulator/...`: the admin token only (given with --token and no group); never logged,
 *   never faulted, never delayed
 * - `visitor`: what a visitor's browser calls: no bearer token (visitors authenticate differently in
 *   the real service), logged and faultable, never rate limited or delayed
 * - `authorization`: the authorization endpoint: credentials in the body, no bearer token; logged,
 *   faultable and delayed like a service call, not rate limited
 */
export type RouteKind = "service" | "admin" | "visitor" | "authorization";

/** The service a listener's bearer tokens must be issued for (the authorization server needs none). */
const SERVICE_OF: Record<ServerKind, ServiceName | undefined> = {
  api: "webservices",
  presence: "presence",
  direct: "presence",
  auth: undefined,
};

/** One endpoint of one server. */
export interface Route {
  method: string;
  path: CompiledTemplate;
  kind: RouteKind;
  /** Where the group id to authorize comes from: path param `groupId` or query param `groupid`. */
  group?: "path" | "query";
  handle(ctx: RouteContext): Reply | Promise<Reply>;
}

/** Shared by every server's pipeline: one log, one rule set, one rate limit for the whole emulator. */
export interface PipelineDeps {
  auth: Auth;
  log: RequestLog;
  faults: FaultRules;
  rateLimiter?: RateLimiter;
  latencyMs: number;
  /** 404 for a group that does not exist. */
  assertGroup(groupId: number): void;
}

function errorReply(err: unknown): Reply {
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: err.body(),
      headers: err.extras.retryAfter ? { "retry-after": err.extras.retryAfter } : {},
    };
  }
  console.error("grouproles-emulator: internal error:", err);
  return { status: 500, body: { code: "internal", message: "internal emulator error" } };
}

/** A well-formed reply of the wrong shape: a shortened array (wrong length), or an unexpected object. */
function wrongShape(body: unknown): unknown {
  if (Array.isArray(body)) return body.length ? body.slice(0, -1) : [{ unexpected: true }];
  return { unexpected: true };
}

/** The reply with `fields` merged in, when it is a successful JSON object; any other reply as it was. */
function overridden(reply: Reply, fields: Record<string, unknown>): Reply {
  const isObject = (v: unknown): v is object => typeof v === "object" && v !== null && !Array.isArray(v);
  const body = reply.body;
  if (reply.status >= 300) return reply;
  // An array reply (list, create) gets the fields in each of its objects.
  if (Array.isArray(body))
    return { ...reply, body: body.map((item: unknown) => (isObject(item) ? { ...item, ...fields } : item)) };
  return isObject(body) ? { ...reply, body: { ...body, ...fields } } : reply;
}

function groupOf(route: Route, params: Record<string, string>, query: URLSearchParams): number {
  const raw = route.group === "path" ? params["groupId"] : query.get("groupid");
  const groupId = parsePositiveInt(raw);
  if (groupId === undefined) {
    const where = route.group === "path" ? "groupId" : "groupid";
    throw new ApiError(
      400,
      "validation_failed",
      `${where}: must be a positive integer, got ${JSON.stringify(raw ?? null)}`,
    );
  }
  return groupId;
}

/** Builds the request listener of one server. */
export function createPipeline(server: ServerKind, routes: readonly Route[], deps: PipelineDeps): RequestListener {
  const find = (
    method: string,
    pathname: string,
  ): { route?: Route; params: Record<string, string>; allowed: string[] } => {
    const allowed: string[] = [];
    for (const route of routes) {
      const params = matchTemplate(route.path, pathname);
      if (!params) continue;
      if (route.method === method) return { route, params, allowed };
      allowed.push(route.method);
    }
    return { params: {}, allowed };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://emulator");
    const method = (req.method ?? "GET").toUpperCase();
    let found: ReturnType<typeof find> | ApiError;
    try {
      found = find(method, url.pathname);
    } catch (err) {
      found = err instanceof ApiError ? err : new ApiError(400, "validation_failed", "malformed path");
    }
    const { route, params, allowed } = found instanceof ApiError ? { params: {}, allowed: [] } : found;
    let body = "";
    const ticket = route?.kind === "admin" ? undefined : deps.log.begin({ server, method, path: url.pathname });
    const record = (status: number): void => {
      if (route?.kind === "admin") return;
      const headers = loggedHeaders(req.headersDistinct);
      const entry = { server, method, path: url.pathname, query: url.search, route: route?.path.template ?? "*" };
      deps.log.record({ ...entry, status, headers, body }, ticket);
    };

    let fault: FaultRule | undefined;
    let reply: Reply;
    try {
      if (found instanceof ApiError) throw found;
      if (!route) {
        if (allowed.length)
          throw new ApiError(
            405,
            "method_not_allowed",
            `${method} is not allowed on ${url.pathname}; use ${allowed.join(" or ")}`,
          );
        throw new ApiError(404, "not_found", `no route for ${method} ${url.pathname}`);
      }
      let groupId = 0;
      if (route.kind === "admin") deps.auth.checkAdmin(req.headers.authorization);
      if (route.kind === "service" || route.kind === "admin") {
        // Service routes need a token issued for this listener's service; admin routes the admin token.
        const service = route.kind === "service" ? SERVICE_OF[server] : undefined;
        deps.auth.check(req.headers.authorization, undefined, service);
        if (route.group) {
          groupId = groupOf(route, params, url.searchParams);
          deps.auth.check(req.headers.authorization, groupId, service);
          deps.assertGroup(groupId);
        }
      } else if (route.group) {
        groupId = groupOf(route, params, url.searchParams);
      }
      // Only now: a caller without a valid token gets its 401 without the emulator reading (or waiting
      // for) the body it sends.
      body = await readBody(req);
      if (route.kind === "service") deps.rateLimiter?.take();
      if ((route.kind === "service" || route.kind === "authorization") && deps.latencyMs > 0)
        await sleep(deps.latencyMs);
      if (route.kind !== "admin") fault = deps.faults.take(server, method, url.pathname);
      if (fault?.action === "latency") await sleep(fault.latencyMs ?? 0);
      if (fault?.action === "status") {
        const status = fault.status ?? 500;
        throw new ApiError(
          status,
          fault.code ?? "fault_injected",
          `injected fault (rule ${fault.id}): status ${status}`,
          {
            retryAfter: fault.retryAfter,
          },
        );
      }
      if (fault?.action === "drop-before") {
        record(0);
        req.socket.destroy();
        return;
      }
      reply = await route.handle({ params, query: url.searchParams, body, groupId });
    } catch (err) {
      reply = errorReply(err);
    }

    if (fault?.action === "override") reply = overridden(reply, fault.fields ?? {});
    switch (fault?.action) {
      case "drop-after":
        record(0);
        req.socket.destroy();
        return;
      case "malformed-json": {
        const text = JSON.stringify(reply.body ?? {});
        record(200);
        send(res, 200, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
        return;
      }
      case "wrong-shape":
        record(200);
        send(res, 200, JSON.stringify(wrongShape(reply.body)));
        return;
      default:
        record(reply.status);
        send(res, reply.status, reply.body === undefined ? undefined : JSON.stringify(reply.body), reply.headers);
    }
  };

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error("grouproles-emulator: failed to answer a request:", err);
      if (!res.headersSent) send(res, 500, JSON.stringify({ code: "internal", message: "internal emulator error" }));
      else res.destroy();
    });
  };
}
