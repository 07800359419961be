/**
 * Every endpoint the client calls, in one table: method, path template, the reply's schema, and
 * whether a retry after the service may have acted is safe (see ./retry). Paths are relative to
 * `baseUrl` (roles), `presenceUrl` (lookup, find) or a named presence server (signal).
 */
import type { z } from "zod";
import {
  WireCreatedRoles,
  WirePresenceRecord,
  WireRoleDetails,
  WireRoleList,
  WireStatus,
  WireVisitorLocation,
} from "./wire";

export interface Route<T = unknown> {
  method: "GET" | "POST" | "PUT";
  /** With `{groupId}` and `{roleId}` placeholders. */
  path: string;
  /** Schema of a successful reply; undefined accepts any body, including none. */
  reply?: z.ZodType<T>;
  /** True when sending it twice has the effect of sending it once. */
  idempotent: boolean;
}

const route = <T>(r: Route<T>): Route<T> => r;

export const ROUTES = {
  listRoles: route({ method: "GET", path: "/api/v0/groups/{groupId}/roles", reply: WireRoleList, idempotent: true }),
  /** Not idempotent: a second create makes a second role (or meets a name conflict). */
  createRoles: route({
    method: "POST",
    path: "/api/v0/groups/{groupId}/roles",
    reply: WireCreatedRoles,
    idempotent: false,
  }),
  getRole: route({
    method: "GET",
    path: "/api/v0/groups/{groupId}/roles/{roleId}",
    reply: WireRoleDetails,
    idempotent: true,
  }),
  /** Full role objects: sending them again sets the same values. */
  updateRoles: route({ method: "PUT", path: "/api/v0/groups/{groupId}/roles", reply: WireStatus, idempotent: true }),
  /** A repeat meets 404 for roles already gone, which callers treat as success. */
  deleteRoles: route({
    method: "POST",
    path: "/api/v0/groups/{groupId}/delete-roles",
    reply: WireStatus,
    idempotent: true,
  }),
  lookupVisitor: route({ method: "GET", path: "/lookupvisitor", reply: WirePresenceRecord, idempotent: true }),
  findVisitor: route({ method: "GET", path: "/findvisitor", reply: WireVisitorLocation, idempotent: true }),
  /** The reply is not documented: any body, or none, is success. A repeat signals the visitor twice. */
  signalVisitor: route({ method: "POST", path: "/signalvisitor", idempotent: false }),
};

/** The path of `r` with its placeholders filled, e.g. `/api/v0/groups/42/roles`. */
export function pathOf(r: Route, params: { groupId?: number; roleId?: number } = {}): string {
  return r.path.replace(/\{(groupId|roleId)\}/g, (_, name: "groupId" | "roleId") => String(params[name]));
}
