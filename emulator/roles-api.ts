/**
 * The five documented role endpoints under `/api/v0`. Requests are validated with the emulator's own
 * statement of the service's rules (./service-rules) as whole arrays: the first invalid item rejects the request and its index leads the message.
 */
import { z } from "zod";
import { MAX_BATCH_ITEMS, RoleCreate, RoleId, RoleUpdate, type CreatedRole } from "./service-rules";
import { ApiError } from "./errors";
import { compileTemplate, parseJson, parsePositiveInt } from "./http-util";
import type { Route, RouteContext } from "./pipeline";
import type { RoleStore } from "./store";

/** `[3].name`, `[0].settings.viewVideo`, or `body` for the array itself. */
function formatPath(path: readonly PropertyKey[]): string {
  if (!path.length) return "body";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
}

/** Parses and validates an array body; 400/413 with the first offending item's index otherwise. */
function parseArray<T>(ctx: RouteContext, item: z.ZodType<T>): T[] {
  const value = parseJson(ctx.body);
  if (!Array.isArray(value)) throw new ApiError(400, "validation_failed", "body: must be a JSON array");
  if (value.length > MAX_BATCH_ITEMS) {
    throw new ApiError(
      413,
      "payload_too_large",
      `body: at most ${MAX_BATCH_ITEMS} items per request, got ${value.length}`,
    );
  }
  const result = z.array(item).safeParse(value);
  if (result.success) return result.data;
  // Report issues of the first bad item only: that is the item a client has to fix or drop.
  const first = result.error.issues[0];
  const index = typeof first?.path[0] === "number" ? first.path[0] : undefined;
  const issues = result.error.issues.filter((i) => i.path[0] === first?.path[0]);
  const message = issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join("; ");
  throw new ApiError(400, "validation_failed", message, { index });
}

const ok = { status: "ok" } as const;

/** What the role routes act on. */
export interface RolesApiDeps {
  store: RoleStore;
  /** Resolves once a change is durable (state file) — a no-op in memory. */
  persist(): Promise<void>;
}

/** The five documented endpoints under `/api/v0`. */
export function rolesRoutes({ store, persist }: RolesApiDeps): Route[] {
  const collection = compileTemplate("/api/v0/groups/:groupId/roles");
  return [
    {
      method: "GET",
      path: collection,
      kind: "service",
      group: "path",
      handle: (ctx) => ({ status: 200, body: store.list(ctx.groupId) }),
    },
    {
      method: "POST",
      path: collection,
      kind: "service",
      group: "path",
      handle: async (ctx) => {
        const created = store.create(ctx.groupId, parseArray(ctx, RoleCreate));
        await persist();
        const body: CreatedRole[] = created.map((r) => ({ roleId: r.roleId, name: r.name, inUse: r.userCount > 0 }));
        return { status: 200, body };
      },
    },
    {
      method: "PUT",
      path: collection,
      kind: "service",
      group: "path",
      handle: async (ctx) => {
        store.update(ctx.groupId, parseArray(ctx, RoleUpdate));
        await persist();
        return { status: 200, body: ok };
      },
    },
    {
      method: "GET",
      path: compileTemplate("/api/v0/groups/:groupId/roles/:roleId"),
      kind: "service",
      group: "path",
      handle: (ctx) => {
        const roleId = parsePositiveInt(ctx.params["roleId"]);
        if (roleId === undefined) {
          throw new ApiError(
            400,
            "validation_failed",
            `roleId: must be a positive integer, got ${JSON.stringify(ctx.params["roleId"])}`,
          );
        }
        return { status: 200, body: store.details(ctx.groupId, roleId) };
      },
    },
    {
      method: "POST",
      path: compileTemplate("/api/v0/groups/:groupId/delete-roles"),
      kind: "service",
      group: "path",
      handle: async (ctx) => {
        const ids = parseArray(ctx, RoleId);
        store.delete(ctx.groupId, ids);
        await persist();
        return { status: 200, body: ok };
      },
    },
  ];
}
