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
import { usersOf } from "../shared/user-count";
import type { RoleSummary } from "../../client/types";
import type { DeclaredRole, Release } from "../shared/declarations";
import { deploymentLedger } from "../shared/deployment-ledger";
import { orderedBefore, type Registration } from "../shared/registrations";
import type { CheckFailure } from "../shared/fields";
import { previewListing } from "../shared/preview-listing";
import { formatRoleId } from "./inputs";
import type { Props } from "../shared/props";

/**
 * The failure of a create (no olds), or of a rename of role `selfRoleId` (`renaming`: its name now), whose
 * name a role of the group holds and nothing frees in time.
 */
export async function heldNameFailures(
  news: Props,
  reg: Registration,
  rename?: { selfRoleId: number; from: string },
): Promise<CheckFailure[]> {
  const { groupId, name } = news;
  // An import takes the holder over; a create that replaces an unconfirmed one adopts the role it made.
  if (typeof groupId !== "number" || typeof name !== "string" || typeof news.importId === "string") return [];
  const ledger = deploymentLedger();
  const view = ledger.view(groupId);
  if (view.replacesUnconfirmed(name)) return [];
  const { roles } = await previewListing(groupId);
  const holder = roles?.find((r) => r.name === name && r.roleId !== rename?.selfRoleId);
  if (!holder) return []; // free, or not listed (the create meets it, with its retries and messages)
  const declared = view.declared(holder.roleId);
  const release = view.released(holder.roleId);
  // Renamed away, or deleted in its update, by a resource in this one's `dependsOn`: its step ended
  // before this one registered.
  if (declared?.reg && declared.plannedName !== name && orderedBefore(reg, declared.reg)) return [];
  if (release && !release.deferred && !release.handedTo && orderedBefore(reg, release.reg)) return [];
  // The engine's second Check of this resource's own replacement (`replaceOnChanges`): its old role,
  // deleted first when the replacement deletes before it creates (the Diff asks for that when the name
  // stays: ./provider `diff`).
  if (release?.reg.replaced && release.reg.structure.urn === reg.structure.urn && !release.deferred) return [];
  const what = rename ? `renaming role "${rename.from}" to "${name}"` : `creating role "${name}"`;
  const holderIs = holderKind(name, declared, release);
  return [{ property: "name", reason: heldNameReason(groupId, name, holder, holderIs, what, !rename) }];
}

/** Text that opens a sentence: `the Role "r5" ...` → `The Role "r5" ...`. */
export const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the program does with the role holding the name, as far as this deployment has seen. */
export type HolderKind = { freedBy: string } | { keptBy: string } | "deleted last" | "unknown";

/**
 * The kind of holder of `name`, from how this deployment declares the role (`declared`) or lets it go
 * (`release`): a resource renames it away or deletes it in its own update (but nothing orders that
 * step first), another keeps it, it is deleted after every other step, or no resource says.
 */
function holderKind(name: string, declared: DeclaredRole | undefined, release: Release | undefined): HolderKind {
  if (declared?.reg && declared.plannedName !== name) return { freedBy: declared.reg.described };
  if (release && !release.deferred && !release.handedTo) return { freedBy: release.reg.described };
  if (declared) return { keptBy: declared.reg?.described ?? "another resource of this program" };
  return release?.deferred ? "deleted last" : "unknown";
}

/** Why the write cannot apply, and what works for each kind of holder (the advice `up` gives, and more). */
export function heldNameReason(
  groupId: number,
  name: string,
  holder: RoleSummary,
  holderIs: HolderKind,
  what = `creating role "${name}"`,
  create = true,
): string {
  const id = formatRoleId(groupId, holder.roleId);
  // Its users, when it has any: the role a forced replacement would delete is often in use (issue 52's trial).
  const held = holder.inUse ? `, ${usersOf(holder)}` : "";
  const head =
    `${what} in group ${groupId}: group ${groupId} already has a role named "${name}" (id ${id}${held}), ` +
    "and no resource in this Role's `dependsOn` renames it away or deletes it, so this write would fail at " +
    "`pulumi up` (role names are unique in a group).";
  if (typeof holderIs === "object" && "keptBy" in holderIs) {
    return (
      `${head} ${sentence(holderIs.keptBy)} declares that role under that name: declare each role in one resource ` +
      "only. To move that role to this Role, remove it from that resource in the same change, declare it here with " +
      `the resource option \`import\` (its ID is ${id}), and give that resource \`dependsOn\` on this Role.`
    );
  }
  if (typeof holderIs === "object") {
    return (
      `${head} ${sentence(holderIs.freedBy)} frees the name in this change, but nothing orders its step before this one ` +
      `(Pulumi may run this write first): give this Role the resource option \`dependsOn\` on ${holderIs.freedBy}, ` +
      "and remove that resource's own `dependsOn` on this Role, if it has one. Two resources that swap names " +
      "cannot be ordered: apply it in two steps (first a name neither uses), or declare both in one GroupRoles."
    );
  }
  if (holderIs === "deleted last") {
    return (
      `${head} That role leaves the program in this change (its resource is removed, replaced, or moved to another ` +
      "group), and Pulumi deletes it only after every other change: apply it in two steps (the removal first)."
    );
  }
  // One line per holder it may be, the likeliest first; the provider cannot tell them apart (a resource
  // that registers after this one, or left the program, is not known yet: ./held-names header).
  const cases = [
    // A resource moved under a component is a new URN too (issue 52's user trial found only a rename named).
    "a resource of this program you renamed in code, or moved under another parent: keep the role with the resource " +
      'option `aliases` on it, `[{ name: "<old resource name>" }]` for a rename, `[{ parent: pulumi.rootStackResource }]` ' +
      "for a resource moved from the top level into a component;",
    "one this change removes: apply it in two steps, the removal first;",
    "one another resource renames or deletes in this change: give this Role `dependsOn` on it (a swap: two steps, " +
      "or both in one GroupRoles);",
    "one another resource keeps under that name: declare each role in one resource only;",
    ...(create
      ? [
          // Pulumi tells a provider nothing of a create it recorded as pending (docs/faults.md, "A killed `pulumi up`").
          "the one an interrupted `pulumi up` of this stack made while creating this Role (a pending create): " +
            "`pulumi refresh --clear-pending-creates`, then one `pulumi up` with the resource option " +
            `\`import: "${id}"\` on this Role takes it over (docs/faults.md);`,
          holder.inUse
            ? "this Role's own, under `pulumi up --replace` (no Diff is sent): users hold it, so it cannot be replaced " +
              "(its delete would be refused): run without `--replace`, changing the role in code instead;"
            : "this Role's own, under `pulumi up --replace` (no Diff is sent): rename the role in code, or delete it in " +
              "one `pulumi up` and create it in the next;",
        ]
      : []),
    `made by hand or by another stack: declare it as it is with the resource option \`import: "${id}"\` to manage it, or choose another name.`,
  ];
  return `${head} Whose role is it?\n${cases.map((c) => `- ${sentence(c)}`).join("\n")}`;
}
