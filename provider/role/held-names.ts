/**
 * A new Role whose name a role of the group holds already, refused in its Check (so in the preview),
 * where `up` would fail with a 409 (names are unique in a group).
 *
 * The typical case: a `Role` renamed in code (`new Role("y2", …)` became `new Role("z", …)`) without
 * `aliases`. To Pulumi that is a create of `z` and a delete of `y2`, and deletes of resources that
 * left the program run only after every create and update (deployment_executor.go
 * `performPostSteps`), so when `z` is created its name is still held by `y2`'s role.
 *
 * What the Check sees: the group's list, taken once per group and deployment for the credential check
 * every create's Check makes anyway (../shared/preview-listing: no extra request), before any write of
 * this deployment to the group (every write is planned by a Check or Diff that lists first), and the
 * ledger's records of the registrations checked before this one (../shared/deployment-ledger). The
 * name is free in time only when one of those renames the holder away or deletes it in its own step
 * (the create then waits for that step, ./name-conflicts). Any other holder makes the create fail at
 * `up`: a role of a resource that left the program (deleted after every create), one a resource of the
 * program keeps (earlier: named; later: not known yet), one renamed away by a resource that registers
 * after this one (it could not run first), or one no resource of the program declares. Deterministic:
 * the list and the earlier registrations, never a clock.
 */
import type { RoleSummary } from "../../client/types";
import { deploymentLedger, type Registration } from "../shared/deployment-ledger";
import type { CheckFailure } from "../shared/fields";
import { previewListing } from "../shared/preview-listing";
import { formatRoleId } from "./inputs";

type Props = Record<string, unknown>;

/** The failure of a create (no olds) whose name a role of the group holds and nothing frees in time. */
export async function heldNameFailures(news: Props, reg: Registration): Promise<CheckFailure[]> {
  const { groupId, name } = news;
  // An import takes the holder over; a create that replaces an unconfirmed one adopts the role it made.
  if (typeof groupId !== "number" || typeof name !== "string" || typeof news.importId === "string") return [];
  const ledger = deploymentLedger();
  if (ledger.hasUnconfirmed(groupId, name)) return [];
  const { roles } = await previewListing(groupId);
  const holder = roles?.find((r) => r.name === name);
  if (!holder) return []; // free, or not listed (the create meets it, with its retries and messages)
  const declared = ledger.declaration(groupId, holder.roleId);
  // Renamed away by a registration before this one: the create waits for that step (./name-conflicts).
  if (declared && declared.plannedName !== name) return [];
  if (declared?.by === "role" && declared.reg?.seq === reg.seq - 1 && !declared.reg.settled) {
    // The Check the engine runs again for a replacement, right after this resource's own Diff
    // (step_generator.go continueStepsFromDiff; a Diff that plans a step leaves its registration
    // unsettled): the holder is the role being replaced (the plugin's `replaceOnChanges`). With
    // `deleteBeforeReplace` it is gone first; without, `up` says so (./create).
    return [];
  }
  return [{ property: "name", reason: heldNameReason(groupId, name, holder, declared !== undefined) }];
}

/** Why the create cannot apply, and what works for each kind of holder (the advice `up` gives, and more). */
export function heldNameReason(groupId: number, name: string, holder: RoleSummary, declared: boolean): string {
  const id = formatRoleId(groupId, holder.roleId);
  const head =
    `creating role "${name}" in group ${groupId}: group ${groupId} already has a role named "${name}" (id ${id}), ` +
    "and no resource registered before this Role renames it away, so this create would fail at `pulumi up` " +
    "(role names are unique in a group).";
  if (declared) {
    return (
      `${head} Another resource of this program (a GroupRoles entry or a Role) declares that role under that name: ` +
      "declare each role in one resource only. To move that role to this Role, remove it from the other resource in " +
      `the same change, declare it here with the resource option \`import\` (its ID is ${id}), and make that ` +
      "resource register after this Role (`dependsOn`)."
    );
  }
  return (
    `${head} What works depends on whose role it is. If it belongs to a resource of this program that you renamed ` +
    "or moved in code (Pulumi deletes the old resource only after every create), keep the role with the resource " +
    'option `aliases: [{ name: "<old resource name>" }]` on the renamed resource. If a GroupRoles entry or another ' +
    "Role of this program keeps that name, declare each role in one resource only; if one renames it away in this " +
    "change but registers after this Role, give this Role `dependsOn` on it. If you removed that role from the " +
    "program in this change, apply it in two steps (the removal first). If no resource of this program declares " +
    `it (made by hand or by another stack), declare it as it is with the resource option \`import: "${id}"\` to ` +
    "manage it, or choose another name."
  );
}
