/**
 * The write path of the Role provider: every request that touches roles goes through one `RoleWriter`,
 * so batching can take it over without the provider changing. The direct writer sends one-element
 * arrays.
 */
import type { GroupRolesClient } from "../../client";
import { createConfirmed } from "../shared/created-ids";
import type { CreatedRole, RoleCreateInput, RoleSummary, RoleUpdateInput } from "../../client/types";

export interface RoleWriter {
  /** Creates one role; resolves with the service's reply for it. */
  create(groupId: number, role: RoleCreateInput): Promise<CreatedRole>;
  /** Updates one role. */
  update(groupId: number, role: RoleUpdateInput): Promise<void>;
  /** Deletes one role (the caller has verified it is not in use). */
  delete(groupId: number, roleId: number): Promise<void>;
  /** Lists the group's roles. */
  list(groupId: number): Promise<RoleSummary[]>;
}

/** One request per call. */
export function directWriter(client: GroupRolesClient): RoleWriter {
  return {
    create: async (groupId, role) => (await createConfirmed(client, groupId, [role]))[0],
    update: (groupId, role) => client.roles.update(groupId, [role]),
    delete: (groupId, roleId) => client.roles.delete(groupId, [roleId]),
    list: (groupId) => client.roles.list(groupId),
  };
}
