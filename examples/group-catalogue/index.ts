/**
 * A team's role catalogue as one resource. The catalogue lives in a data file that the team edits in
 * pull requests; the whole file becomes one GroupRoles resource. Each entry's key (`support`,
 * `billing`) is the role's identity: changing its `name` renames that role, removing the entry deletes
 * it, and a removal of a role that users hold fails already in the pull request's `pulumi preview`.
 *
 * Entry fields: name, description?, settings?, retain? (keep the role in the service when the entry
 * is removed). Top level: groupId, roles, adoptExisting? (take over roles that already hold a name).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { GroupRoles, type GroupRoleEntry } from "pulumi-grouproles";

interface Catalogue {
  groupId: number;
  roles: Record<string, GroupRoleEntry>;
  adoptExisting?: boolean;
}

const config = new pulumi.Config();
const file = path.resolve(__dirname, config.get("catalogue") ?? "catalogue.json");
const catalogue = JSON.parse(fs.readFileSync(file, "utf8")) as Catalogue;

const roles = new GroupRoles("catalogue", {
  groupId: catalogue.groupId,
  roles: catalogue.roles,
  adoptExisting: catalogue.adoptExisting,
});

/** Role IDs by catalogue key. */
export const roleIds = roles.roles.apply((held) =>
  Object.fromEntries(Object.entries(held).map(([key, r]) => [key, r.roleId])),
);
/** Roles that users hold, by catalogue key: these cannot be removed until their users are unassigned. */
export const inUse = roles.roles.apply((held) =>
  Object.fromEntries(
    Object.entries(held)
      .filter(([, r]) => r.inUse)
      .map(([key, r]) => [key, r.userCount]),
  ),
);
