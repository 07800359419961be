/**
 * The Role dynamic provider: Pulumi's ResourceProvider methods for one role of a group (check and diff
 * here; create, update, read and delete in ./create, ./update, ./read and ./delete). Runs in the
 * dynamic-provider host; reads settings at call time (see ../../config/stack-config) and writes through
 * the writer of ./services, which batches the writes of every resource of the deployment.
 */
import type { dynamic } from "@pulumi/pulumi";
import { RoleInUseError } from "../../client/status-errors";
import { changedTextFields } from "../../client/role-fields";
import { setStackConfig, type ConfigSource } from "../../config/stack-config";
import { credentialRefusal, roleGoneInPreview } from "../shared/preview-listing";
import { dynamicConfigSource } from "../shared/config-check";
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Registration } from "../shared/registrations";
import { programName } from "../shared/structure";
import { checkRegistration, diffRegistration, runDelete, runStep } from "../shared/resource-protocol";
import { create } from "./create";
import { declareKeptRole, declareNewRole, releaseReplacedRole } from "./declaration";
import { RoleNotAppliedError } from "../shared/errors";
import { deleteRole, findInList } from "./delete";
import { inUseReplaceMessage } from "./errors";
import {
  checkRoleInputs,
  isUnknown,
  parseRoleId,
  unconfirmedGroup,
  type RoleProps,
  type RoleStateProps,
} from "./inputs";
import { read } from "./read";
import { sameSettings } from "../shared/settings";
import { update } from "./update";

// ---- configure / check / diff ----------------------------------------------------------------------

/** Receives the stack config (`grouproles:*`); nothing is captured or copied into state. */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  setStackConfig(dynamicConfigSource(req.config));
}

export async function check(olds: RoleProps, news: RoleProps) {
  return checkRegistration(olds, news, {
    what: "check of a Role",
    described: describeRole(news, news.name, { groupId: news.groupId }),
    inputFailures: checkRoleInputs,
    declareCreate: (news, reg) => declareNewRole(deploymentLedger(), news, reg),
  });
}

/**
 * A Role as other resources' messages name it: by its name in the program when known,
 * `the Role "role-a" (role "Reports", id 42/7)`, else `the Role "Reports" (id 42/7)` (a provider called
 * without the SDK).
 */
function describeRole(news: RoleProps, roleName: unknown, at: { groupId: unknown } | { id: string }): string {
  const name = programName(news);
  const role = `"${String(roleName)}"`;
  if ("id" in at)
    return name === undefined ? `the Role ${role} (id ${at.id})` : `the Role "${name}" (role ${role}, id ${at.id})`;
  const group = `of group ${String(at.groupId)}`;
  return name === undefined ? `the Role ${role} ${group}` : `the Role "${name}" (role ${role} ${group})`;
}

/** Which inputs differ. Cheap: no request, except to refuse replacing an in-use role. */
export function changedProperties(olds: RoleStateProps, news: RoleProps): string[] {
  const changed: string[] = [];
  if (isUnknown(news.groupId) || olds.groupId !== news.groupId) changed.push("groupId");
  if (isUnknown(news.name) || olds.name !== news.name) changed.push("name");
  changed.push(...changedTextFields(olds, news, isUnknown));
  if (!sameSettings(olds.settings, news.settings)) changed.push("settings");
  return changed;
}

export async function diff(id: string, olds: RoleStateProps, news: RoleProps) {
  return diffRegistration(
    `diff of role ${id}`,
    describeRole(news, olds.name, { id }),
    (reg) => diffRole(id, olds, news, reg),
    { changes: true, replaces: [] as string[], deleteBeforeReplace: false },
  );
}

async function diffRole(id: string, olds: RoleStateProps, news: RoleProps, reg: Registration) {
  const unconfirmed = unconfirmedGroup(id);
  if (unconfirmed !== undefined) {
    // A create of an earlier run that was never confirmed: replace the record with a create that
    // adopts the role if that run made it (see findUnconfirmed), and deletes it otherwise.
    if (typeof news.groupId === "number" && typeof news.name === "string") {
      deploymentLedger().noteUnconfirmed(news.groupId, news.name, {
        groupId: unconfirmed,
        name: String(olds.name),
      });
    }
    return { changes: true, replaces: ["roleId"], deleteBeforeReplace: false };
  }
  const ledger = deploymentLedger();
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
  // Deleted outside Pulumi since the last refresh: the update would meet a 404 at `up` (found by the
  // simulation: a green preview, then a 404; test/provider/role-diff-read-edges.test.ts).
  if (changed.length && !replaces.length && (await roleGoneInPreview(groupId, roleId)))
    throw new RoleNotAppliedError(
      `updating role "${String(olds.name)}" (id ${id}): the service no longer has this role (deleted outside ` +
        "Pulumi since the last refresh?); `pulumi refresh` drops it from state and `pulumi up` then creates it again",
    );
  // Should the engine replace it (`replaceOnChanges`, `--replace`) in its own group under the same name,
  // the new role cannot be made while the old one holds the name: delete first.
  const deleteFirst = news.groupId === olds.groupId && news.name === olds.name;
  reg.askDeleteBeforeReplace(deleteFirst);
  if (replaces.length && typeof olds.name === "string") {
    releaseReplacedRole(ledger, { groupId, roleId, name: olds.name }, reg);
  } else if (!replaces.length && typeof olds.name === "string" && typeof news.name === "string") {
    await declareKeptRole(ledger, { id, groupId, roleId, name: olds.name }, { ...news, name: news.name }, reg);
  }
  // `diffs`: the inputs that change, which `replaceOnChanges` is matched against (the plugin sends them;
  // the dynamic-provider host drops them).
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: changed.length > 0 && deleteFirst,
    diffs: changed,
  };
}

async function refuseReplaceIfInUse(id: string, olds: RoleStateProps, newGroupId: unknown): Promise<void> {
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
  create: (inputs: RoleProps) => runStep(inputs, `the Role "${String(inputs.name)}"`, (reg) => create(inputs, reg)),
  read,
  update: (id: string, olds: RoleStateProps, news: RoleProps) =>
    runStep(news, `the Role "${String(olds.name)}" (id ${id})`, (reg) => update(id, olds, news, reg)),
  delete: (id: string, props: RoleStateProps, urn?: string) => runDelete(() => deleteRole(id, props), urn),
} satisfies dynamic.ResourceProvider<RoleProps, RoleStateProps>;
