/**
 * The test surface under `/_emulator` on the roles server: user assignments, fault rules, the request
 * log, the whole store (to save and restore), reset. Same bearer token as the service; never logged, never faulted.
 */
import { z } from "zod";
import { ApiError } from "./errors";
import { FaultRuleInput, type FaultRules } from "./faults";
import { StateFileSchema } from "./persistence";
import { compileTemplate, parseJson, parsePositiveInt } from "./http-util";
import type { Route, RouteContext } from "./pipeline";
import type { RequestLog } from "./request-log";
import type { RoleStore } from "./store";

/** What the admin routes act on. */
export interface AdminDeps {
  store: RoleStore;
  faults: FaultRules;
  log: RequestLog;
  persist(): Promise<void>;
}

const UserCountBody = z.object({ userCount: z.number().int().min(0) }).strict();

function parseBody<T>(ctx: RouteContext, schema: z.ZodType<T>): T {
  const result = schema.safeParse(parseJson(ctx.body));
  if (result.success) return result.data;
  const message = result.error.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`)
    .join("; ");
  throw new ApiError(400, "validation_failed", message);
}

/** The `/_emulator/...` routes of the roles server. */
export function adminRoutes({ store, faults, log, persist }: AdminDeps): Route[] {
  const faultsPath = compileTemplate("/_emulator/faults");
  return [
    {
      method: "PUT",
      path: compileTemplate("/_emulator/groups/:groupId/roles/:roleId/users"),
      kind: "admin",
      group: "path",
      handle: async (ctx) => {
        const roleId = parsePositiveInt(ctx.params["roleId"]);
        if (roleId === undefined) throw new ApiError(400, "validation_failed", "roleId: must be a positive integer");
        const { userCount } = parseBody(ctx, UserCountBody);
        const role = store.setUserCount(ctx.groupId, roleId, userCount);
        await persist();
        return { status: 200, body: { roleId: role.roleId, userCount: role.userCount, inUse: role.userCount > 0 } };
      },
    },
    {
      method: "POST",
      path: faultsPath,
      kind: "admin",
      handle: (ctx) => ({ status: 201, body: { id: faults.add(parseBody(ctx, FaultRuleInput)).id } }),
    },
    { method: "GET", path: faultsPath, kind: "admin", handle: () => ({ status: 200, body: faults.list() }) },
    {
      method: "DELETE",
      path: faultsPath,
      kind: "admin",
      handle: () => ({ status: 200, body: { status: "ok", cleared: faults.clear() } }),
    },
    {
      // One rule, leaving the others: tests that run side by side each clear only their own.
      method: "DELETE",
      path: compileTemplate("/_emulator/faults/:id"),
      kind: "admin",
      handle: (ctx) => {
        const rule = faults.remove(parsePositiveInt(ctx.params["id"]) ?? 0);
        const id = ctx.params["id"];
        if (!rule) throw new ApiError(404, "not_found", `no active fault rule ${id} (used up, cleared or never added)`);
        return { status: 200, body: { status: "ok", rule } };
      },
    },
    {
      method: "GET",
      path: compileTemplate("/_emulator/requests"),
      kind: "admin",
      handle: () => ({ status: 200, body: log.view() }),
    },
    {
      method: "DELETE",
      path: compileTemplate("/_emulator/requests"),
      kind: "admin",
      handle: () => {
        log.clear();
        return { status: 200, body: { status: "ok" } };
      },
    },
    {
      // The whole store (roles, user counts, the ID counter), to restore later with PUT: a test suite
      // sets up a baseline once and restores it before each test instead of recreating it.
      method: "GET",
      path: compileTemplate("/_emulator/state"),
      kind: "admin",
      handle: () => ({ status: 200, body: { version: 1, ...store.snapshot() } }),
    },
    {
      method: "PUT",
      path: compileTemplate("/_emulator/state"),
      kind: "admin",
      handle: async (ctx) => {
        const { nextRoleId, groups } = parseBody(ctx, StateFileSchema);
        store.restore({ nextRoleId, groups });
        faults.clear();
        log.clear();
        await persist();
        return { status: 200, body: { status: "ok" } };
      },
    },
    {
      method: "POST",
      path: compileTemplate("/_emulator/reset"),
      kind: "admin",
      handle: async () => {
        store.reset();
        faults.clear();
        log.clear();
        await persist();
        return { status: 200, body: { status: "ok" } };
      },
    },
  ];
}
