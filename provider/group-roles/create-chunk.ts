/**
 * One POST of new roles, and what to do when its reply is lost: as a Role create does, the group is
 * listed and a role holding a name this POST sent is the one it made (names are unique in a group,
 * and the plan checked that no role it leaves alone held them), so nothing is made twice. When the
 * group cannot be listed, or a create that timed out still has not shown up, the outcome is unknown
 * and the names sent are kept as evidence (the state's `unconfirmed`), never guessed.
 */
import type { GroupRolesClient } from "../../client";
import { ConflictError, RoleInUseError } from "../../client/status-errors";
import { textFieldsOf } from "../../client/role-fields";
import type { RoleCreateInput, RoleSummary } from "../../client/types";
import { isAmbiguous, listSettlingCreate, stillPending } from "../shared/lost-replies";
import { refuseHeldIds } from "../shared/created-ids";
import { deploymentLedger } from "../shared/deployment-ledger";
import { userCountOf } from "../shared/user-count";
import { namesTaken, someNames, type NameConflict } from "./name-errors";
import type { EntryInputs } from "./types";

export interface NewRole {
  key: string;
  entry: EntryInputs;
}

export interface ChunkOutcome {
  /** Roles made, with what the reply (or the list) says of their use; `userCount` when a list told. */
  made: Array<{ key: string; roleId: number; inUse?: boolean; userCount?: number }>;
  /** Keys whose create may or may not have been applied. */
  unknown: string[];
  /** Set when not every role of the chunk is known to be made: the apply stops here. */
  error?: Error;
}

const body = ({ entry }: NewRole): RoleCreateInput => ({
  name: entry.name,
  ...textFieldsOf(entry),
  ...(entry.settings !== undefined ? { settings: entry.settings } : {}),
});

/** POSTs `chunk`; `known` holds the IDs of every role the group held or this apply made before it. */
export async function createChunk(
  client: GroupRolesClient,
  groupId: number,
  chunk: readonly NewRole[],
  known: ReadonlySet<number>,
): Promise<ChunkOutcome> {
  try {
    const reply = await client.roles.create(groupId, chunk.map(body));
    // An ID the group held before is a bad reply, settled below as a lost one: by name.
    refuseHeldIds(groupId, reply, known);
    return {
      made: reply.map((r, i) => ({
        key: chunk[i]!.key,
        roleId: r.roleId,
        ...(r.inUse !== undefined ? { inUse: r.inUse } : {}),
      })),
      unknown: [],
    };
  } catch (error) {
    if (error instanceof ConflictError && !(error instanceof RoleInUseError))
      return { made: [], unknown: [], error: await nameRace(client, groupId, chunk, error) };
    if (!isAmbiguous(error)) return { made: [], unknown: [], error: error as Error };
    const showsAll = (listed: readonly RoleSummary[]) => madeBy(chunk, listed, known).length === chunk.length;
    const find = async () =>
      madeBy(chunk, await listSettlingCreate(() => client.roles.list(groupId), showsAll, error), known);
    let made: ChunkOutcome["made"];
    try {
      made = await find();
    } catch (listError) {
      const message =
        `no reply (${error.message}), and listing the group to find out whether the roles were created failed too ` +
        `(${(listError as Error).message}); they are kept in state as unconfirmed (as made, if the list taken after ` +
        `the failure finds them), and the next \`pulumi up\` adopts ` +
        `those that were created and creates the others`;
      return { made: [], unknown: chunk.map((c) => c.key), error: error.rephrase(message) };
    }
    if (made.length === chunk.length) return { made, unknown: [] };
    const found = new Set(made.map((m) => m.key));
    const missing = chunk.filter((c) => !found.has(c.key));
    const names = someNames(missing.map((c) => c.entry.name));
    if (stillPending(error)) {
      // The request may still be in the service's hands and be applied after the list: nobody can know
      // when, so nothing is guessed; the next `pulumi up` settles them from the state's record.
      const message =
        `no reply (${error.message}), and the group holds no role named ${names} yet; the service may still ` +
        "create them, so they are kept in state as unconfirmed: the next `pulumi up` adopts those that appear and " +
        "creates the others";
      return { made, unknown: missing.map((c) => c.key), error: error.rephrase(message) };
    }
    const message = `no reply (${error.message}); the group holds no role named ${names}, so they were not created`;
    return { made, unknown: [], error: error.rephrase(message) };
  }
}

/**
 * A POST refused for a name taken since the plan's list (another resource of this deployment, or
 * someone by hand, created it meanwhile): the holders, named as a plan names them, or the 409 itself
 * when the group cannot be listed. The array is all-or-nothing: nothing of this chunk was made.
 */
async function nameRace(
  client: GroupRolesClient,
  groupId: number,
  chunk: readonly NewRole[],
  conflict: ConflictError,
): Promise<Error> {
  const listed = await client.roles.list(groupId).catch(() => undefined);
  const byName = new Map((listed ?? []).map((r) => [r.name, r]));
  const view = deploymentLedger().view(groupId);
  const conflicts: NameConflict[] = chunk.flatMap(({ key, entry }) => {
    const holder = byName.get(entry.name);
    if (!holder) return [];
    const ours = view.ofThisProgram(holder.roleId);
    return [{ key, name: entry.name, holderId: holder.roleId, added: true, kind: ours ? "program" : "outside" }];
  });
  if (!conflicts.length) return conflict;
  return namesTaken(groupId, conflicts, { outcome: "the request that met them created nothing", cause: conflict });
}

/** The roles of `chunk` that a list shows, by name, among roles not known before the POST. */
function madeBy(
  chunk: readonly NewRole[],
  listed: readonly RoleSummary[],
  known: ReadonlySet<number>,
): ChunkOutcome["made"] {
  const byName = new Map(listed.filter((r) => !known.has(r.roleId)).map((r) => [r.name, r]));
  return chunk.flatMap(({ key, entry }) => {
    const role = byName.get(entry.name);
    return role ? [{ key, roleId: role.roleId, inUse: role.inUse, userCount: userCountOf(role) }] : [];
  });
}
