/**
 * The role IDs of a create reply are not taken on trust. An ID the group held before the create (a
 * stale or replayed reply, a proxy's mix-up) or one that does not hold the name sent would put a
 * resource on someone else's role: its destroy would delete that role and orphan the one made. Such a
 * reply is an `UnexpectedReplyError`, which the providers treat as a lost reply: they list the group
 * and adopt by name, or fail keeping what they know (../shared/lost-replies). The client already
 * refuses a reply with the wrong count, names or a duplicated ID (client/roles.ts).
 */
import type { GroupRolesClient } from "../../client";
import { UnexpectedReplyError } from "../../client/errors";
import { ROUTES, pathOf } from "../../client/routes";
import type { CreatedRole, RoleCreateInput } from "../../client/types";

function badReply(groupId: number, why: string): UnexpectedReplyError {
  const request = { method: ROUTES.createRoles.method, path: pathOf(ROUTES.createRoles, { groupId }) };
  return new UnexpectedReplyError(`create reply not trusted: ${why}`, undefined, { request, status: 200 });
}

/** @throws UnexpectedReplyError when the reply names a role the group held before the create. */
export function refuseHeldIds(groupId: number, created: readonly CreatedRole[], heldBefore: ReadonlySet<number>): void {
  const held = created.find((c) => heldBefore.has(c.roleId));
  if (held)
    throw badReply(groupId, `it names role ${held.roleId} for "${held.name}", an ID group ${groupId} held before`);
}

/**
 * Creates `roles` and checks the reply against a list taken after it: each ID must be listed under
 * the name sent (this also refuses an ID the group held before, which lists under its own name, and
 * two new IDs swapped). One list per array request, shared by every role of the batch.
 */
export async function createConfirmed(
  client: GroupRolesClient,
  groupId: number,
  roles: RoleCreateInput[],
): Promise<CreatedRole[]> {
  const created = await client.roles.create(groupId, roles);
  // The create was answered: a list that then fails leaves it applied but unconfirmed, which callers
  // settle as a lost reply, never as "nothing created" (found by the simulation: a create answered
  // while every list answered 429 was a plain error, and the roles it made were orphaned).
  const confirming = await client.roles.list(groupId).catch((error: unknown) => {
    throw badReply(groupId, `the list confirming it failed: ${(error as Error).message}`);
  });
  const listed = new Map(confirming.map((r) => [r.roleId, r.name]));
  for (const c of created) {
    const holds = listed.get(c.roleId);
    if (holds === c.name) continue;
    // A list can be short (a truncated page, a bad reply): a role it leaves out is the one made when its
    // own details hold the name sent (found by the simulation: with every list short of its last item,
    // "nothing was created" was said of a role that existed, and it was orphaned).
    if (holds === undefined && (await detailsName(client, groupId, c.roleId)) === c.name) continue;
    throw badReply(
      groupId,
      `it names role ${c.roleId} for "${c.name}", but the group lists ` +
        (holds === undefined ? `no role ${c.roleId}` : `role ${c.roleId} as "${holds}"`),
    );
  }
  return created;
}

/** The name role `roleId`'s own details give, or undefined when they cannot be read. */
function detailsName(client: GroupRolesClient, groupId: number, roleId: number): Promise<string | undefined> {
  return client.roles.get(groupId, roleId).then(
    (r) => r.name,
    () => undefined,
  );
}
