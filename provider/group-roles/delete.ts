/**
 * `delete` of GroupRoles (destroy, or the old group of a replacement): one list, the in-use check
 * of every role it would delete (all are named, nothing is deleted), then delete-roles in arrays.
 * Entries declared with `retain: true` are forgotten, never deleted, and so are roles another resource
 * of this deployment took over (deletes run after every create and update). A delete that fails half-way
 * leaves the resource in state; the next attempt lists again and deletes what is left.
 */
import { clientFromConfig } from "../../config/stack-config";
import { confirmAbsentRoleGone } from "../shared/absent-role";
import { deploymentLedger } from "../shared/deployment-ledger";
import { inContext } from "../shared/errors";
import { chunksOf, deleteChunk, entries } from "./apply";
import { describeCatalogue } from "./describe";
import { destroyInUse, heldRole } from "./errors";
import { listGroup } from "./listing";
import { catalogueOwner, parseGroupId, toState, type Props } from "./types";

/** Deletes the roles of the resource, in arrays of at most `max`. */
export async function deleteGroupRoles(id: string, props: Props, max: number): Promise<void> {
  const groupId = parseGroupId(id);
  const state = toState({ ...props, groupId });
  const client = clientFromConfig();
  const what = `deleting the roles of group ${groupId}`;
  const listed = await listGroup(client, groupId, what);
  if (!listed) return; // the group is gone, and its roles with it
  const byId = new Map(listed.map((r) => [r.roleId, r]));
  const byName = new Map(listed.map((r) => [r.name, r]));
  // A role the list leaves out is gone only if its own read says so: a short list must not make
  // destroy forget a role it never deleted (../shared/absent-role).
  for (const [key, role] of Object.entries(state.roles))
    if (!role.retain && !byId.has(role.roleId))
      await confirmAbsentRoleGone(client, groupId, role.roleId, `${what}: roles.${key}`);
  const ledger = deploymentLedger();
  const view = ledger.view(groupId);
  const own = catalogueOwner(state);
  // In a destroy (no Check ran) the only declarations are a refresh's, and a refresh of this catalogue
  // declares its roles too, as its own. In an up the program's first Check forgot them: a catalogue of the
  // program that declares these roles keeps them, even when it holds the same ones, as the other half of a
  // replacement does after its create failed part-way (simulation history 57627: the old half, left pending
  // deletion, deleted the roles the next `up`'s update of the new half kept).
  const programRan = ledger.run.operation === "up";
  /** Declared by a Role, or by a catalogue of the program (in a destroy, by another catalogue's refresh). */
  const keptElsewhere = (roleId: number) => {
    const declared = view.declared(roleId);
    return declared?.by === "role" || (declared?.by === "catalogue" && (programRan || declared.owner !== own));
  };
  // A role another resource of this deployment took over, or a Role of the program keeps, is theirs:
  // forgotten here. (Deletes run after every create and update, so every takeover has happened.)
  const targets = Object.entries(state.roles)
    .filter(([, role]) => !role.retain && byId.has(role.roleId))
    .map(([key, role]) => ({ key, role: byId.get(role.roleId)! }))
    .filter(({ role }) => !view.claimed(role.roleId) && !keptElsewhere(role.roleId));
  // A create never confirmed: the role holding the name it sent is the one it made.
  const managed = new Set(targets.map((t) => t.role.roleId));
  for (const [key, sent] of Object.entries(state.unconfirmed ?? {})) {
    const made = byName.get(sent);
    if (made && !managed.has(made.roleId) && !view.claimed(made.roleId)) targets.push({ key, role: made });
  }
  const held = targets.filter((t) => t.role.inUse);
  if (held.length)
    throw destroyInUse(
      groupId,
      held.map(({ key, role }) => heldRole(key, role)),
      ledger.run.operation,
    );
  const by = describeCatalogue(groupId, state.roles);
  const done: string[] = [];
  for (const chunk of chunksOf(targets, max)) {
    const ids = chunk.map((t) => t.role.roleId);
    await deleteChunk(client, groupId, ids).catch((e) => {
      // Say what went before: a delete that fails half-way leaves the rest for the next attempt.
      const before = done.length ? `deleted ${entries(done)}, then ` : "";
      throw inContext(e, `${what}: ${before}deleting ${entries(chunk.map((t) => t.key))}`);
    });
    done.push(...chunk.map((t) => t.key));
    ledger.run.noteDeleted({ by, groupId, names: chunk.map((t) => t.role.name) });
  }
}
