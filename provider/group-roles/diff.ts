/**
 * `diff` of GroupRoles: per entry, settings compared as maps, and no request unless entries are
 * removed. Removing entries is where a per-role resource fails only at `pulumi up` (Pulumi never asks
 * a provider about a resource that left the program); this resource sees its whole catalogue, so it
 * lists the group once and refuses, in the preview, to remove roles that users hold.
 */
import { clientFromConfig } from "../config";
import { credentialRefusal } from "../credential-check";
import { isUnknown } from "../role-fields";
import { sameSettings } from "../role-settings";
import { heldRole, removedInUse, replaceInUse, type HeldRole } from "./errors";
import { listGroup } from "./listing";
import { hasUnknowns, parseGroupId, toState, type EntryState, type Props } from "./types";

export interface GroupRolesDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** True when the declared entry differs from the state's (unknown values always differ). */
function entryChanged(old: EntryState, entry: unknown): boolean {
  if (!entry || typeof entry !== "object") return true;
  const e = entry as Props;
  if (isUnknown(e.name) || e.name !== old.name) return true;
  if (isUnknown(e.description) || (e.description ?? "") !== (old.description ?? "")) return true;
  if (!sameSettings(old.settings ?? {}, e.settings ?? {})) return true;
  return (e.retain === true) !== (old.retain === true);
}

/** The entries of `state` that users hold, as the group's list shows them now. */
async function heldOf(
  groupId: number,
  state: Record<string, EntryState>,
  keys: string[],
  what: string,
): Promise<HeldRole[]> {
  const listed = await listGroup(clientFromConfig(), groupId, what);
  const byId = new Map((listed ?? []).map((r) => [r.roleId, r])); // no group: no roles to hold
  return keys.flatMap((key) => {
    const role = byId.get(state[key]!.roleId);
    return role?.inUse ? [heldRole(key, role)] : [];
  });
}

/** Throws the refusal of the credentials for `groupId`, if any (one request per group and process). */
async function refuseCredentials(groupId: number): Promise<void> {
  const refusal = await credentialRefusal(groupId);
  if (refusal) throw refusal;
}

export async function diff(id: string, olds: Props, news: Props): Promise<GroupRolesDiff> {
  const state = toState(olds);
  const groupId = parseGroupId(id);
  const deleted = (keys: string[]) => keys.filter((k) => !state.roles[k]!.retain);
  if (isUnknown(news.groupId) || news.groupId !== groupId) {
    // A replacement creates the roles in the new group and deletes them from this one.
    if (!isUnknown(news.groupId)) {
      const keys = deleted(Object.keys(state.roles));
      const held = keys.length
        ? await heldOf(
            groupId,
            state.roles,
            keys,
            `moving the roles of group ${groupId}: checking whether they are in use`,
          )
        : [];
      if (held.length) throw replaceInUse(groupId, news.groupId, held);
      await refuseCredentials(news.groupId as number);
    }
    return { changes: true, replaces: ["groupId"], deleteBeforeReplace: false };
  }
  const roles = news.roles;
  // Not known until apply (preview): which entries go cannot be told; `up` checks again.
  if (isUnknown(roles) || !roles || typeof roles !== "object") {
    await refuseCredentials(groupId);
    return { changes: true, replaces: [], deleteBeforeReplace: false };
  }
  const declared = roles as Props;
  const removed = Object.keys(state.roles).filter((key) => !Object.hasOwn(declared, key));
  const changed =
    removed.length > 0 ||
    Object.keys(state.unconfirmed ?? {}).length > 0 ||
    hasUnknowns(roles) ||
    Object.entries(declared).some(([key, entry]) => !state.roles[key] || entryChanged(state.roles[key], entry));
  const keys = deleted(removed);
  if (keys.length) {
    const held = await heldOf(
      groupId,
      state.roles,
      keys,
      `group ${groupId}: checking whether the roles removed from \`roles\` are in use`,
    );
    if (held.length) throw removedInUse(groupId, held);
  } else if (changed) {
    // A write is planned and no list confirmed the credentials for the group: one shared check does.
    await refuseCredentials(groupId);
  }
  return { changes: changed, replaces: [], deleteBeforeReplace: false };
}
