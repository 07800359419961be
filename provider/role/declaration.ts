/**
 * What a Role declares in its Check or Diff, as intents (../shared/intent), the Role's side of
 * ../group-roles/declaration: a create declares the role it makes (by name) or imports (by ID); an
 * existing role is kept under the name the program gives it, or let go when the engine replaces it.
 * Each meets the refusals of ../shared/registration-order, and the service's word where only the service
 * can tell (a name a role holds, the role an import names), before anything is recorded.
 */
import { NameTakenError } from "../../client/status-errors";
import type { DeploymentLedger } from "../shared/deployment-ledger";
import type { CheckFailure } from "../shared/fields";
import { type Intent, record, refusalsOf } from "../shared/intent";
import type { Props } from "../shared/props";
import type { Registration } from "../shared/registrations";
import { importPreview } from "./adoption";
import { heldNameFailures } from "./held-names";

/**
 * A create's Check: declares the role it makes (by name) or imports (by ID), so that a resource letting
 * that role go later in the deployment leaves it here, and an exclusive catalogue leaves the role it
 * makes. Refused: a move only another order of registrations could keep, a name another resource lets
 * go (a Role takes a role over only by `import`), a name a role of the group holds that nothing frees in
 * time (./held-names), an import the service refuses (./adoption). A refused create declares nothing.
 */
export async function declareNewRole(
  ledger: DeploymentLedger,
  news: Props,
  reg: Registration,
): Promise<CheckFailure[]> {
  const { groupId, name } = news;
  if (typeof groupId !== "number" || typeof name !== "string") return [];
  const imported = typeof news.importId === "string" ? /^\d+\/(\d+)$/.exec(news.importId) : null;
  const roleId = imported ? Number(imported[1]) : undefined;
  const intent: Intent = {
    groupId,
    by: "role",
    declares: [
      {
        kind: "want",
        at: `creating role "${name}" in group ${groupId}`,
        property: "name",
        name,
        adopts: roleId !== undefined,
        ...(roleId !== undefined ? { roleId } : { notReleased: true }),
        seenByExclusive: true,
      },
    ],
  };
  const [first] = refusalsOf(ledger, reg, intent);
  if (first) return [{ property: first.property ?? "name", reason: first.error.message }];
  const refused =
    roleId !== undefined
      ? await importPreview(groupId, roleId, name, reg.described, reg.structure.urn)
      : // A name a role of the group holds: `up` would meet a 409 (./held-names, e.g. a Role renamed in code).
        await heldNameFailures(news, reg);
  if (refused.length) return refused;
  record(ledger, reg, intent);
  return [];
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
  const intent: Intent = {
    groupId,
    by: "role",
    declares: [{ kind: "keep", at: `updating role "${name}" (id ${role.id})`, roleId, name, plannedName: news.name }],
  };
  const [first] = refusalsOf(ledger, reg, intent);
  if (first) throw first.error;
  if (name !== news.name) {
    // The new name must be free when this update runs: only a resource in its `dependsOn` can free it.
    const held = await heldNameFailures(news, reg, { selfRoleId: roleId, from: name });
    if (held.length) throw new NameTakenError(held[0]!.reason);
  }
  record(ledger, reg, intent);
}

/**
 * The engine replaces the role (its group changes): the old role is deleted after every other step (a
 * resource may take it over meanwhile), or first with `deleteBeforeReplace`.
 */
export function releaseReplacedRole(
  ledger: DeploymentLedger,
  role: { groupId: number; roleId: number; name: string },
  reg: Registration,
): void {
  const { groupId, roleId, name } = role;
  const release = { at: `replacing role "${name}"`, key: name, roleId, name, deferred: !reg.deleteBeforeReplace };
  record(ledger, reg, { groupId, by: "role", declares: [], releases: [{ ...release, checks: "none" }] });
}
