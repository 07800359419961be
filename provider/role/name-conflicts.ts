/**
 * Writes that give a role a name another role of the group holds right now.
 *
 * When the holder is a role that a resource registered before this one renames away, or deletes in
 * its update, the write waits for that resource's step (it runs whatever this one does: see
 * ../shared/deployment-ledger) and tries again. Any other holder fails the write with a message that
 * says who holds the name and what works: two resources that swap names, or a name freed by a resource
 * that registers later, are refused in the later one's Diff (../shared/registration-order).
 */
import { ConflictError, NameTakenError, RoleInUseError } from "../../client/status-errors";
import type { RoleSummary } from "../../client/types";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
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
  self?: { roleId: number };
  /** The registration whose step writes (see the ledger). */
  reg: Registration;
  /** E.g. `updating role "Support" (id 42/7)`, leads every message. */
  what: string;
  /** The error for a holder this deployment does not declare; default: the rename's two-step advice. */
  undeclared?(holder: RoleSummary, conflict: ConflictError): Error;
}

const isNameConflict = (e: unknown): e is ConflictError => e instanceof ConflictError && !(e instanceof RoleInUseError);

export async function writeWithName<T>(w: NameWrite<T>): Promise<T> {
  const ledger = deploymentLedger();
  const waited = new Set<Registration>();
  for (let freed = 0; ; ) {
    let conflict: ConflictError;
    try {
      return await w.write();
    } catch (error) {
      if (!isNameConflict(error)) throw error;
      conflict = error;
    }
    const holder = (await w.list()).find((r) => r.name === w.wanted && r.roleId !== w.self?.roleId);
    if (!holder) {
      // Freed between the write and the list: try once more, not forever.
      if (++freed > 1) throw conflict;
      continue;
    }
    const view = ledger.view(w.groupId, w.reg);
    const freer = view.freer(holder.roleId, w.wanted);
    // The freer is in this resource's `dependsOn`: its step ended before this one registered (never
    // waited for). Succeeded, it freed the name since the write was refused: one more try.
    if (freer?.succeeded && !waited.has(freer)) {
      waited.add(freer);
      continue;
    }
    const plan = view.declared(holder.roleId);
    if (plan?.plannedName === w.wanted) throw keepsName(w, holder, conflict);
    if (freer) throw holderFailed(w, holder, conflict, freer);
    if (plan || view.released(holder.roleId)) throw freedLater(w, holder, conflict);
    throw w.undeclared ? w.undeclared(holder, conflict) : notDeclared(w, holder, conflict);
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

function freedLater(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which another resource of this program frees in this change, but only ` +
      "after this one (it registers after this Role, or the role is deleted after every other change). Give this " +
      "Role `dependsOn` on the resource that renames that role away; a role deleted by a resource that leaves the " +
      "program frees its name only after every change: apply that in two steps.",
    cause,
  );
}

function holderFailed(w: NameWrite<unknown>, holder: RoleSummary, cause: ConflictError, freer: Registration): Error {
  return nameTaken(
    `${w.what}: ${holderText(w, holder)}, which ${freer.described} renames away or deletes in this change, but ` +
      "its change failed (see its error), so the name was not freed. Fix that error and run `pulumi up` again.",
    cause,
  );
}
