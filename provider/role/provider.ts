/**
 * The Role dynamic provider: Pulumi's ResourceProvider methods for one role of a group (check and diff
 * here; create, update, read and delete in ./create, ./update, ./read and ./delete). Runs in the
 * dynamic-provider host; reads settings at call time (see ../../config/stack-config) and writes through
 * the writer of ./services, which batches the writes of every resource of the deployment.
 */
import type { dynamic } from "@pulumi/pulumi";
import { NameTakenError, RoleInUseError } from "../../client/status-errors";
import { changedTextFields } from "../../client/role-fields";
import { setStackConfig, type ConfigSource } from "../../config/stack-config";
import { credentialRefusal, roleGoneInPreview } from "../shared/preview-listing";
import { dynamicConfigSource } from "../shared/config-check";
import type { Release } from "../shared/declarations";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import type { CheckFailure } from "../shared/fields";
import { programName } from "../shared/structure";
import { lateDeclare, lateFreeing, lateKeep, lateTakeover } from "../shared/registration-order";
import { checkRegistration, diffRegistration, runDelete, runStep } from "../shared/resource-protocol";
import { importPreview } from "./adoption";
import { create } from "./create";
import { heldNameFailures } from "./held-names";
import { RoleNotAppliedError } from "../shared/errors";
import { deleteRole, findInList } from "./delete";
import { inUseReplaceMessage } from "./errors";
import { checkRoleInputs, isUnknown, parseRoleId, unconfirmedGroup } from "./inputs";
import { read } from "./read";
import { sameSettings } from "../shared/settings";
import { update } from "./update";

type Props = Record<string, unknown>;

// ---- configure / check / diff ----------------------------------------------------------------------

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(dynamicConfigSource(req.config));
}

export async function check(olds: Props, news: Props) {
  return checkRegistration(olds, news, {
    what: "check of a Role",
    described: describeRole(news, news.name, { groupId: news.groupId }),
    inputFailures: checkRoleInputs,
    declareCreate,
  });
}

/**
 * The name a create's Check binds its registration to, for the create to find (the ledger's
 * `registrations.stepOf`).
 */
const newRole = (groupId: unknown, name: unknown) => `new role:${String(groupId)}:${String(name)}`;

/**
 * A create declares the role it makes (by name) or imports (by ID), so that a resource letting that
 * role go later in the deployment leaves it here, and an exclusive catalogue leaves the role it makes.
 * A move that only another order of registrations could keep is refused (../shared/registration-order),
 * and so is a name a role of the group holds that nothing frees in time (./held-names). A refused
 * create declares nothing.
 */
async function declareCreate(news: Props, reg: Registration): Promise<CheckFailure[]> {
  const { groupId, name } = news;
  if (typeof groupId !== "number" || typeof name !== "string") return [];
  const ledger = deploymentLedger();
  ledger.registrations.bind(newRole(groupId, name), reg);
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
 * A Role as other resources' messages name it: by its name in the program when known,
 * `the Role "role-a" (role "Reports", id 42/7)`, else `the Role "Reports" (id 42/7)` (a provider called
 * without the SDK).
 */
function describeRole(news: Props, roleName: unknown, at: { groupId: unknown } | { id: string }): string {
  const name = programName(news);
  const role = `"${String(roleName)}"`;
  if ("id" in at)
    return name === undefined ? `the Role ${role} (id ${at.id})` : `the Role "${name}" (role ${role}, id ${at.id})`;
  const group = `of group ${String(at.groupId)}`;
  return name === undefined ? `the Role ${role} ${group}` : `the Role "${name}" (role ${role} ${group})`;
}

/** Which inputs differ. Cheap: no request, except to refuse replacing an in-use role. */
export function changedProperties(olds: Props, news: Props): string[] {
  const changed: string[] = [];
  if (isUnknown(news.groupId) || olds.groupId !== news.groupId) changed.push("groupId");
  if (isUnknown(news.name) || olds.name !== news.name) changed.push("name");
  changed.push(...changedTextFields(olds, news, isUnknown));
  if (!sameSettings(olds.settings, news.settings)) changed.push("settings");
  return changed;
}

export async function diff(id: string, olds: Props, news: Props) {
  return diffRegistration(
    `diff of role ${id}`,
    describeRole(news, olds.name, { id }),
    undefined, // bound in `diffRole`, unless the create was never confirmed
    (reg) => diffRole(id, olds, news, reg),
    { changes: true, replaces: [] as string[], deleteBeforeReplace: false },
  );
}

async function diffRole(id: string, olds: Props, news: Props, reg: Registration) {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) {
    // A create of an earlier run that was never confirmed: replace the record with a create that
    // adopts the role if that run made it (see findUnconfirmed), and deletes it otherwise.
    if (typeof news.groupId === "number" && typeof news.name === "string") {
      deploymentLedger().creates.noteUnconfirmed(news.groupId, news.name, {
        groupId: unconfirmed,
        name: String(olds.name),
      });
    }
    return { changes: true, replaces: ["roleId"], deleteBeforeReplace: false };
  }
  const ledger = deploymentLedger();
  ledger.registrations.bind(`role:${id}`, reg);
  const changed = changedProperties(olds, news);
  const replaces = changed.filter((p) => p === "groupId");
  // Its credentials must work for its group: before a write is planned, and in a no-op too, so that a
  // drift check finds a revoked credential before the next change does (one list per group and deployment).
  if (typeof news.groupId === "number") {
    const refusal = await credentialRefusal(news.groupId, `listing group ${news.groupId}`, changed.length > 0);
    if (refusal) throw refusal;
  }
  if (replaces.length && !isUnknown(news.groupId)) await refuseReplaceIfInUse(id, olds, news.groupId);
  const { groupId, roleId } = parseRoleId(id);
  // Deleted outside Pulumi since the last refresh: the update would meet a 404 at `up` (history 3072).
  if (changed.length && !replaces.length && (await roleGoneInPreview(groupId, roleId)))
    throw new RoleNotAppliedError(
      `updating role "${String(olds.name)}" (id ${id}): the service no longer has this role (deleted outside ` +
        "Pulumi since the last refresh?); `pulumi refresh` drops it from state and `pulumi up` then creates it again",
    );
  // Should the engine replace it (`replaceOnChanges`, `--replace`) in its own group under the same name,
  // the new role cannot be made while the old one holds the name: delete first.
  reg.askDeleteBeforeReplace(news.groupId === olds.groupId && news.name === olds.name);
  if (replaces.length && typeof olds.name === "string") {
    // The replaced role is deleted after every other step (a resource may take it over meanwhile), or
    // first with `deleteBeforeReplace`.
    ledger.names.release(groupId, roleId, olds.name, reg, !reg.deleteBeforeReplace);
  } else if (!replaces.length && typeof olds.name === "string" && typeof news.name === "string") {
    // Every existing role of the program is diffed as it registers: what a rename elsewhere can wait for.
    const what = `updating role "${olds.name}" (id ${id})`;
    const late =
      lateKeep(ledger, groupId, { name: olds.name, roleId }, reg, what) ??
      (olds.name !== news.name
        ? lateFreeing(ledger, groupId, { name: olds.name, roleId, plannedName: news.name }, reg, what)
        : undefined);
    if (late) throw late;
    if (olds.name !== news.name) {
      // The new name must be free when this update runs: only a resource in its `dependsOn` can free it.
      const held = await heldNameFailures(news, reg, { selfRoleId: roleId, from: olds.name });
      if (held.length) throw new NameTakenError(held[0]!.reason);
    }
    ledger.declarations.declare(groupId, roleId, { currentName: olds.name, plannedName: news.name, by: "role", reg });
  }
  // `diffs`: the inputs that change, which `replaceOnChanges` is matched against (the plugin sends them;
  // the dynamic-provider host drops them).
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: changed.length > 0 && news.groupId === olds.groupId && news.name === olds.name,
    diffs: changed,
  };
}

async function refuseReplaceIfInUse(id: string, olds: Props, newGroupId: unknown): Promise<void> {
  const { groupId, roleId } = parseRoleId(id);
  const entry = await findInList(
    groupId,
    roleId,
    `replacing role "${String(olds.name)}" (id ${id}): checking whether it is in use`,
  );
  if (entry?.inUse) {
    throw new RoleInUseError(inUseReplaceMessage({ ...entry, groupId }, newGroupId));
  }
}

/**
 * The Role resource's dynamic provider, as the dynamic-provider host calls it. `satisfies` proves the
 * methods fit Pulumi's `ResourceProvider` while keeping their precise result types.
 */
export const roleProvider = {
  configure,
  check,
  diff,
  create: (inputs: Props) =>
    runStep(newRole(inputs.groupId, inputs.name), `the Role "${String(inputs.name)}"`, (reg) => create(inputs, reg)),
  read,
  update: (id: string, olds: Props, news: Props) =>
    runStep(`role:${id}`, `the Role "${String(olds.name)}" (id ${id})`, (reg) => update(id, olds, news, reg)),
  delete: (id: string, props: Props, urn?: string) => runDelete(() => deleteRole(id, props), urn),
} satisfies dynamic.ResourceProvider<Props, Props>;
