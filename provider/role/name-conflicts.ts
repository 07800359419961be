/**
 * Writes that give a role a name another role of the group holds right now.
 *
 * Pulumi applies each resource on its own, so two roles that swap names (or rotate them) travel in
 * separate requests whenever they fall into separate batches: the first rename meets a name the
 * second has not yet given up. When the holder is a role this deployment renames away from that name,
 * the write waits for it and tries again; a role whose own name the holder (or another rename) wants
 * first steps aside to a temporary name, which breaks swaps and rotations. Any other holder fails the
 * write with a message that says who holds the name and what works.
 */
import { ConflictError, NameTakenError, RoleInUseError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import { NAME_WAIT, temporaryName } from "../shared/temporary-names";
import { formatRoleId } from "./inputs";

export interface NameWrite<T> {
  groupId: number;
  /** The name the write gives the role. */
  wanted: string;
  /** Sends the write; a name conflict is answered here, any other error passes through. */
  write(): Promise<T>;
  /** The group's roles now (to find the holder). */
  list(): Promise<RoleSummary[]>;
  /** The role being renamed (an update); absent for a create. */
  self?: RenamedRole;
  /** E.g. `updating role "Support" (id 42/7)`, leads every message. */
  what: string;
  /** The error for a holder this deployment does not declare; default: the rename's two-step advice. */
  undeclared?(holder: RoleSummary, conflict: ConflictError): Error;
  /**
   * A create's answer to a holder that another resource of this deployment lets go (an entry removed
   * from a GroupRoles in the same change): take it over (it is already claimed) instead of failing.
   */
  takeOver?(holder: RoleSummary): Promise<T>;
}

export interface RenamedRole {
  roleId: number;
  /** Its name before this write. */
  currentName: string;
  /** Renames it to a name nobody uses, so that the name it held is free for another rename. */
  stepAside(temporaryName: string): Promise<void>;
}

const isNameConflict = (e: unknown): e is ConflictError => e instanceof ConflictError && !(e instanceof RoleInUseError);

export async function writeWithName<T>(w: NameWrite<T>): Promise<T> {
  const ledger = deploymentLedger();
  const started = Date.now();
  let undeclaredSince: number | undefined;
  let aside = false;
  for (;;) {
    let conflict: ConflictError;
    try {
      return await w.write();
    } catch (error) {
      if (!isNameConflict(error)) throw error;
      conflict = error;
    }
    const holder = (await w.list()).find((r) => r.name === w.wanted && r.roleId !== w.self?.roleId);
    const elapsed = Date.now() - started;
    if (holder && ledger.isReleased(w.groupId, holder.roleId) && !ledger.isClaimed(w.groupId, holder.roleId)) {
      // Another resource lets the holder go in this deployment: a create moves it here; a rename waits
      // for its delete to free the name.
      if (ledger.isDeleting(w.groupId, holder.roleId)) {
        await ledger.waitingOn(() => ledger.deleteSettled(w.groupId, holder.roleId));
        continue;
      }
      if (w.takeOver && !w.self) {
        // Ours only once the resource letting it go applied its change; if that failed, it stays there.
        const outcome = await ledger.awaitRelease(w.groupId, holder.roleId, NAME_WAIT.quietMs, NAME_WAIT.deadlineMs);
        if (outcome !== "taken") throw releaseFailed(w, holder, conflict);
        ledger.claim(w.groupId, holder.roleId);
        return w.takeOver(holder);
      }
    } else if (holder) {
      const plan = ledger.declaration(w.groupId, holder.roleId);
      if (plan?.plannedName === w.wanted) throw keepsName(w, holder, conflict);
      if (plan?.settled) throw holderFailed(w, holder, conflict);
      if (!plan) {
        undeclaredSince ??= Date.now();
        if (Date.now() - undeclaredSince > NAME_WAIT.undeclaredGraceMs) {
          throw w.undeclared ? w.undeclared(holder, conflict) : notDeclared(w, holder, conflict);
        }
      } else if (w.self && !aside && ledger.isWanted(w.groupId, w.self.currentName, w.self.roleId)) {
        await w.self.stepAside(temporaryName(w.self.roleId));
        ledger.renamed(w.groupId, w.self.roleId, temporaryName(w.self.roleId));
        aside = true;
      }
    }
    if (elapsed > NAME_WAIT.deadlineMs) throw stillTaken(w, holder, conflict);
    await ledger.waitingOn(() => ledger.nextChange(holder ? 500 : 50));
  }
}

/** A name conflict explained: the service's 409 becomes the cause, with its status. */
export const nameTaken = (message: string, conflict: ConflictError): NameTakenError =>
  new NameTakenError(message, { cause: conflict, status: conflict.status });

const holderText = (w: NameWrite<unknown>, holder: RoleSummary) =>
  `the name "${w.wanted}" is held by role "${holder.name}" (id ${formatRoleId(w.groupId, holder.roleId)})`;

function keepsName(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which this program also declares under that name and does not rename. ` +
      `Role names are unique within a group: rename one of the two.`,
    cause,
  );
}

function notDeclared(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which this deployment does not declare. If you removed that role from the ` +
      `program in this same change, Pulumi deletes removed resources only after every create and update, so the ` +
      `name is still taken now and this \`pulumi up\` cannot apply as written: apply it in two steps (first the ` +
      `removal, keeping this role's current name; then the rename). If a GroupRoles or another Role of this ` +
      `program renames that role away in this same change but registers only after this one (it depends on this ` +
      `Role), reverse that dependency: give this Role \`dependsOn\` on it. If the role is not managed by this ` +
      `program, choose another name, or rename or delete that role in the service first.`,
    cause,
  );
}

function releaseFailed(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which another resource of this program lets go in this change so that ` +
      `this one takes it over, but that resource's change failed or could not start while this one waited ` +
      `(\`--parallel 1\`?), so the role stays with it. Fix that error, or move the role in two steps, and run ` +
      `\`pulumi up\` again.`,
    cause,
  );
}

function holderFailed(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which this deployment renames, but its own update failed (see its ` +
      `error), so the name was not freed. Fix that error and run \`pulumi up\` again.`,
    cause,
  );
}

function stillTaken(w: NameWrite<unknown>, holder: RoleSummary | undefined, cause: ConflictError): Error {
  const who = holder ? `${holderText(w, holder)}, which this deployment renames, but` : `the name "${w.wanted}"`;
  return nameTaken(
    `${w.what}: ${who} was still taken after ${Math.round(NAME_WAIT.deadlineMs / 1000)} s. Run \`pulumi up\` again; ` +
      `renames that completed are kept.`,
    cause,
  );
}
