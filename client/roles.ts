/** The five roles endpoints of `{baseUrl}/api/v0`. */
import { UnexpectedReplyError } from "./errors";
import type { z } from "zod";
import type { Transport, CallOptions } from "./transport";
import type { ServiceUrl } from "./urls";
import type { CreatedRole, RoleCreateInput, RoleDetails, RoleSummary, RoleUpdateInput } from "./types";
import { LISTED_TEXT_FIELDS, textFieldsOf } from "./role-fields";
import { idRule, requireValid } from "./rules";
import { ROUTES, pathOf, type Route } from "./routes";
import { WireRoleCreate, WireRoleUpdate } from "./wire";

/** Per-call overrides (retries, timeouts). */
export type RequestOptions = Pick<CallOptions<unknown>, "retry" | "timeouts">;

const checkId = (value: number, field: string): void => requireValid(idRule, value, field);

/** Each item of an array request, by the service's rules, before anything is sent. */
function checkItems(schema: z.ZodType, items: readonly unknown[]): void {
  for (const [i, item] of items.entries()) requireValid(schema, item, `roles[${i}]`);
}

/** The first role ID that `roles` holds twice, if any. */
function repeatedId(roles: ReadonlyArray<{ roleId: number }>): number | undefined {
  const seen = new Set<number>();
  for (const { roleId } of roles) {
    if (seen.has(roleId)) return roleId;
    seen.add(roleId);
  }
  return undefined;
}

export class RolesApi {
  constructor(
    private readonly transport: Transport,
    private readonly base: ServiceUrl,
  ) {}

  /** Sends `route` for the group (and role), with the client's origin and path prefix. */
  private send<T>(
    route: Route<T>,
    ids: { groupId: number; roleId?: number },
    body?: unknown,
    options?: RequestOptions,
  ): Promise<T> {
    checkId(ids.groupId, "groupId");
    if (ids.roleId !== undefined) checkId(ids.roleId, "roleId");
    return this.transport.call({
      method: route.method,
      origin: this.base.origin,
      path: this.base.basePath + pathOf(route, ids),
      body,
      schema: route.reply,
      idempotent: route.idempotent,
      bearer: { groupId: ids.groupId, service: "webservices" },
      ...options,
    });
  }

  private info(route: Route, groupId: number) {
    return { method: route.method, path: this.base.basePath + pathOf(route, { groupId }), origin: this.base.origin };
  }

  /** Every role of the group. A list that names one ID twice is refused: it cannot be every role. */
  async list(groupId: number, options?: RequestOptions): Promise<RoleSummary[]> {
    const roles = await this.send(ROUTES.listRoles, { groupId }, undefined, options);
    const twice = repeatedId(roles);
    if (twice !== undefined)
      throw new UnexpectedReplyError(`list reply names role ${twice} more than once`, undefined, {
        request: this.info(ROUTES.listRoles, groupId),
        status: 200,
      });
    return roles.map((r) => ({
      roleId: r.roleId,
      name: r.name,
      inUse: r.inUse,
      ...textFieldsOf(r, LISTED_TEXT_FIELDS),
      ...(r.userCount != null ? { userCount: r.userCount } : {}),
    }));
  }

  /**
   * Creates roles in one request. Not retried after the service may have acted: a caller that gets a
   * connection error or timeout must find out what was created (see the Role provider's adoption).
   * The reply is checked to hold one role per input, in order, with the names sent, each under its
   * own ID (whether an ID is new to the group is for the caller to check, see provider/shared/created-ids).
   */
  async create(groupId: number, roles: RoleCreateInput[], options?: RequestOptions): Promise<CreatedRole[]> {
    checkItems(WireRoleCreate, roles);
    const created = await this.send(ROUTES.createRoles, { groupId }, roles, options);
    const misnamed = created.findIndex((c, i) => c.name !== roles[i]?.name);
    const twice = repeatedId(created);
    const mismatch =
      created.length !== roles.length
        ? `${created.length} roles for ${roles.length} requested`
        : misnamed >= 0
          ? `role ${misnamed} came back with another name`
          : twice !== undefined
            ? `role ID ${twice} is given to more than one role`
            : undefined;
    if (mismatch) {
      throw new UnexpectedReplyError(`create reply does not match the request: ${mismatch}`, undefined, {
        request: this.info(ROUTES.createRoles, groupId),
        status: 200,
      });
    }
    return created.map((c) => ({
      roleId: c.roleId,
      name: c.name,
      ...(c.inUse !== undefined ? { inUse: c.inUse } : {}),
    }));
  }

  /** One role's details, with its full settings. */
  async get(groupId: number, roleId: number, options?: RequestOptions): Promise<RoleDetails> {
    const r = await this.send(ROUTES.getRole, { groupId, roleId }, undefined, options);
    return {
      roleId: r.roleId,
      name: r.name,
      settings: r.settings ?? {},
      ...textFieldsOf(r),
    };
  }

  /** Updates roles in one request. A PUT of full role objects is idempotent, so it is retried. */
  async update(groupId: number, roles: RoleUpdateInput[], options?: RequestOptions): Promise<void> {
    checkItems(WireRoleUpdate, roles);
    const reply = await this.send(ROUTES.updateRoles, { groupId }, roles, options);
    this.expectOk(reply.status, ROUTES.updateRoles, groupId);
  }

  /**
   * Deletes roles in one request. Retried like an idempotent call: a retry after a lost reply may answer
   * 404 for roles already gone, which callers treat as success.
   */
  async delete(groupId: number, roleIds: number[], options?: RequestOptions): Promise<void> {
    for (const id of roleIds) checkId(id, "roleId");
    const reply = await this.send(ROUTES.deleteRoles, { groupId }, roleIds, options);
    this.expectOk(reply.status, ROUTES.deleteRoles, groupId);
  }

  /** `{status}` other than "ok" on a 2xx reply means the change was not applied as asked. */
  private expectOk(status: string, route: Route, groupId: number): void {
    if (status.toLowerCase() !== "ok") {
      throw new UnexpectedReplyError(`service answered status "${status.slice(0, 100)}" instead of "ok"`, undefined, {
        request: this.info(route, groupId),
        status: 200,
      });
    }
  }
}
