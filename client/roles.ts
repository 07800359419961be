/** The five roles endpoints of `{baseUrl}/api/v0`. */
import { ConfigurationError, UnexpectedReplyError } from "./errors";
import type { z } from "zod";
import type { Transport, CallOptions } from "./transport";
import type { ServiceUrl } from "./urls";
import type { CreatedRole, RoleCreateInput, RoleDetails, RoleSummary, RoleUpdateInput } from "./types";
import { idRule, requireValid } from "./rules";
import { WireCreatedRoles, WireRoleCreate, WireRoleDetails, WireRoleList, WireRoleUpdate, WireStatus } from "./wire";

/** Per-call overrides (retries, timeouts). */
export type RequestOptions = Pick<CallOptions<unknown>, "retry" | "timeouts">;

const checkId = (value: number, field: string): void => requireValid(idRule, value, field);

/** Each item of an array request, by the service's rules, before anything is sent. */
function checkItems(schema: z.ZodType, items: readonly unknown[]): void {
  items.forEach((item, i) => requireValid(schema, item, `roles[${i}]`));
}

export class RolesApi {
  constructor(
    private readonly transport: Transport,
    private readonly base: ServiceUrl,
  ) {}

  private path(groupId: number, rest = ""): string {
    checkId(groupId, "groupId");
    return `${this.base.basePath}/api/v0/groups/${groupId}${rest}`;
  }

  /** Every role of the group. */
  async list(groupId: number, options?: RequestOptions): Promise<RoleSummary[]> {
    const roles = await this.transport.call({
      method: "GET", origin: this.base.origin, path: this.path(groupId, "/roles"),
      schema: WireRoleList, idempotent: true, ...options,
    });
    return roles.map((r) => ({
      roleId: r.roleId,
      name: r.name,
      inUse: r.inUse,
      ...(r.description != null ? { description: r.description } : {}),
      ...(r.userCount !== undefined ? { userCount: r.userCount } : {}),
    }));
  }

  /**
   * Creates roles in one request. Not retried after the service may have acted: a caller that gets a
   * connection error or timeout must find out what was created (see the Role provider's adoption).
   * The reply is checked to hold one role per input, in order, with the names sent.
   */
  async create(groupId: number, roles: RoleCreateInput[], options?: RequestOptions): Promise<CreatedRole[]> {
    const path = this.path(groupId, "/roles");
    checkItems(WireRoleCreate, roles);
    const created = await this.transport.call({
      method: "POST", origin: this.base.origin, path, body: roles,
      schema: WireCreatedRoles, idempotent: false, ...options,
    });
    const mismatch =
      created.length !== roles.length
        ? `${created.length} roles for ${roles.length} requested`
        : created.findIndex((c, i) => c.name !== roles[i].name) >= 0
          ? `role ${created.findIndex((c, i) => c.name !== roles[i].name)} came back with another name`
          : undefined;
    if (mismatch) {
      throw new UnexpectedReplyError(`create reply does not match the request: ${mismatch}`, undefined, {
        request: { method: "POST", path, origin: this.base.origin },
        status: 200,
      });
    }
    return created.map((c) => ({ roleId: c.roleId, name: c.name, ...(c.inUse !== undefined ? { inUse: c.inUse } : {}) }));
  }

  /** One role's details, with its full settings. */
  async get(groupId: number, roleId: number, options?: RequestOptions): Promise<RoleDetails> {
    checkId(roleId, "roleId");
    const r = await this.transport.call({
      method: "GET", origin: this.base.origin, path: this.path(groupId, `/roles/${roleId}`),
      schema: WireRoleDetails, idempotent: true, ...options,
    });
    return {
      roleId: r.roleId,
      name: r.name,
      settings: r.settings ?? {},
      ...(r.description != null ? { description: r.description } : {}),
    };
  }

  /** Updates roles in one request. A PUT of full role objects is idempotent, so it is retried. */
  async update(groupId: number, roles: RoleUpdateInput[], options?: RequestOptions): Promise<void> {
    checkItems(WireRoleUpdate, roles);
    const path = this.path(groupId, "/roles");
    const reply = await this.transport.call({
      method: "PUT", origin: this.base.origin, path, body: roles,
      schema: WireStatus, idempotent: true, ...options,
    });
    this.expectOk(reply.status, "PUT", path);
  }

  /**
   * Deletes roles in one request. Retried like an idempotent call: a retry after a lost reply may answer
   * 404 for roles already gone, which callers treat as success.
   */
  async delete(groupId: number, roleIds: number[], options?: RequestOptions): Promise<void> {
    for (const id of roleIds) checkId(id, "roleId");
    const path = this.path(groupId, "/delete-roles");
    const reply = await this.transport.call({
      method: "POST", origin: this.base.origin, path, body: roleIds,
      schema: WireStatus, idempotent: true, ...options,
    });
    this.expectOk(reply.status, "POST", path);
  }

  /** `{status}` other than "ok" on a 2xx reply means the change was not applied as asked. */
  private expectOk(status: string, method: string, path: string): void {
    if (status.toLowerCase() !== "ok") {
      throw new UnexpectedReplyError(`service answered status "${status.slice(0, 100)}" instead of "ok"`, undefined, {
        request: { method, path, origin: this.base.origin },
        status: 200,
      });
    }
  }
}
