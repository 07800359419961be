/**
 * What a Role tells the deployment's ledger (../shared/deployment-ledger) in its Check or Diff, the
 * Role's side of ../group-roles/declaration: a create declares the role it makes (by name) or imports
 * (by ID); an existing role is kept under the name the program gives it, or let go when the engine
 * replaces it. Each declaration first meets the refusals of ../shared/registration-order.
 */
import { NameTakenError } from "../../client/status-errors";
import type { Release } from "../shared/declarations";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import type { CheckFailure } from "../shared/fields";
import type { Props } from "../shared/props";
import { lateDeclare, lateFreeing, lateKeep, lateTakeover } from "../shared/registration-order";
import type { Registration } from "../shared/registrations";
import { importPreview } from "./adoption";
import { heldNameFailures } from "./held-names";

/** What the step of a create finds its registration by (the ledger's `registrations.stepOf`). */
export const newRoleStep = (groupId: unknown, name: unknown) => `new role:${String(groupId)}:${String(name)}`;
/** What the step of an update finds its registration by. */
export const existingRoleStep = (id: string) => `role:${id}`;

/**
 * A create's Check: declares the role it makes (by name) or imports (by ID), so that a resource letting
 * that role go later in the deployment leaves it here, and an exclusive catalogue leaves the role it
 * makes. A move that only another order of registrations could keep is refused, and so is a name a role
 * of the group holds that nothing frees in time (./held-names). A refused create declares nothing.
 */
export async function declareNewRole(
  ledger: DeploymentLedger,
  news: Props,
  reg: Registration,
): Promise<CheckFailure[]> {
  const { groupId, name } = news;
  if (typeof groupId !== "number" || typeof name !== "string") return [];
  ledger.registrations.bind(newRoleStep(groupId, name), reg);
  const what = `creating role "${name}" in group ${groupId}`;
  const unseen = lateDeclare(ledger, groupId, name, reg, what);
  if (unseen) return [{ property: "name", reason: unseen.message }];
  const imported = typeof news.importId === "string" ? /^\d+\/(\d+)$/.exec(news.importId) : null;
  if (imported) {
    const roleId = Number(imported[1]);
    const late = lateTakeover(ledger, groupId, { name, roleId }, reg, what);
    if (late) return [{ property: "importId", reason: late.message }];
    const refused = await importPreview(groupId, roleId, name, reg.described, reg.structure.urn);
    if (refused.length) return refused;
    ledger.wants.addRole(groupId, roleId, reg);
    return [];
  }
  const release = ledger.releases.named(groupId, name);
  // Its own old role, which the engine replaces (./held-names says whether the name is free in time).
  const own = release?.reg.replaced === true && release.reg.structure.urn === reg.structure.urn;
  if (release && release.reg !== reg && !own)
    return [{ property: "name", reason: createsReleasedName(what, groupId, release) }];
  // A name a role of the group holds: `up` would meet a 409 (./held-names, e.g. a Role renamed in code).
  const held = await heldNameFailures(news, reg);
  if (held.length) return held;
  ledger.wants.addName(groupId, name, reg, false);
  return [];
}

/** A Role created with the name of a role another resource lets go: a move needs `import`, a new role two steps. */
function createsReleasedName(what: string, groupId: number, release: Release): string {
  const when = release.deferred
    ? "deletes it only after every other change"
    : "registers before this Role and deletes it in its own update";
  return (
    `${what}: the group's role "${release.name}" (roleId ${release.roleId}) is removed from ${release.reg.described} in this change, which ` +
    `${when}; a Role takes over an existing role only with the resource option \`import\`. To move that role here ` +
    `(keeping its ID and users), add \`import: "${groupId}/${release.roleId}"\`` +
    (release.deferred ? "" : ` and give ${release.reg.described} \`dependsOn\` on this Role`) +
    "; to replace it with a new role, remove it in one `pulumi up` and create this one in the next."
  );
}

/**
 * An existing role's Diff, its group unchanged: refuses what only another order of registrations could
 * settle (an earlier registration deletes it; one gives its old name to another role before this one
 * frees it) and a new name a role of the group holds that nothing frees in time (./held-names), then
 * declares it with the name the program gives it. Every existing role of the program is diffed as it
 * registers: what a rename elsewhere can wait for. A refused Diff declares nothing.
 */
export async function declareKeptRole(
  ledger: DeploymentLedger,
  role: { id: string; groupId: number; roleId: number; name: string },
  news: Props & { name: string },
  reg: Registration,
): Promise<void> {
  const { groupId, roleId, name } = role;
  const plannedName = news.name;
  const what = `updating role "${name}" (id ${role.id})`;
  const late =
    lateKeep(ledger, groupId, { name, roleId }, reg, what) ??
    (name !== plannedName ? lateFreeing(ledger, groupId, { name, roleId, plannedName }, reg, what) : undefined);
  if (late) throw late;
  if (name !== plannedName) {
    // The new name must be free when this update runs: only a resource in its `dependsOn` can free it.
    const held = await heldNameFailures(news, reg, { selfRoleId: roleId, from: name });
    if (held.length) throw new NameTakenError(held[0]!.reason);
  }
  ledger.declarations.declare(groupId, roleId, { currentName: name, plannedName, by: "role", reg });
}
