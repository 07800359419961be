/**
 * What a preview's Create or Update answers for a `Role` or `GroupRoles` of the resource plugin, which
 * plans (`supportsPreview`): the outputs the step will produce, so that what the program builds from
 * them (a stack output of role IDs) previews as what `up` gives, not as a deletion.
 *
 * The Go engine sends a provider that plans `Create`/`Update` with `preview: true` and hands the program
 * the properties it returns (pulumi/pulumi sdk/go/common/resource/plugin/provider_plugin.go `Create`,
 * `Update`: only without `supportsPreview` does it answer with the new inputs itself). The
 * dynamic-provider host never plans, its Configure leaving `supportsPreview` unset
 * (pulumi/pulumi sdk/nodejs/cmd/dynamic-provider/index.ts `configure`), so the dynamic SDK cannot do this.
 *
 * The plan follows the public contract (DESIGN.md "Public contract", the outputs of each resource) and
 * writes nothing: what the program declares comes from the new inputs; what the service decides comes
 * from state when the step keeps the role (an update keeps a role's ID; a GroupRoles entry keeps its
 * role under the same key or, moved to a new key with its name, under the new one), and is unknown when
 * the step makes a new role (a create, a replacement, an added entry). `inUse` and `userCount` are taken
 * from state, as every preview takes the service to be what state says (`--refresh` reads it first).
 */
import { heldTextFields } from "../../client/role-fields";
import { renamedKeys } from "../group-roles/renamed-keys";
import type { GroupRolesState } from "../group-roles/types";
import { toRoleInputs } from "../role/inputs";
import { UNKNOWN } from "../shared/fields";
import type { Props } from "../shared/props";

const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A `Role`'s planned outputs: `old` is its state when the step is an update (undefined for a create or
 * the create of a replacement).
 */
export function plannedRole(inputs: Props, old: Props | undefined): Props {
  const kept = (k: string): unknown => (old && k in old ? (old[k] ?? null) : UNKNOWN);
  return { ...toRoleInputs(inputs), roleId: kept("roleId"), inUse: kept("inUse"), userCount: kept("userCount") };
}

/**
 * A `GroupRoles`'s planned outputs, or undefined where no plan can be trusted: the engine's answer (the
 * new inputs) is then the honest one. Evidence of unsettled creates (`unconfirmed`) is settled by the up
 * in ways a plan cannot tell.
 */
export function plannedCatalogue(inputs: Props, old: Props | undefined): Props | undefined {
  if (old?.["unconfirmed"] !== undefined) return undefined;
  const { groupId, exclusive, roles } = inputs;
  return {
    groupId,
    ...(exclusive === true || exclusive === UNKNOWN ? { exclusive } : {}),
    roles: plannedEntries(roles, old?.["roles"], old?.["appliedNames"]),
  };
}

/** Each declared entry as state will hold it: its role kept (same key, or moved with its name) or new. */
function plannedEntries(declared: unknown, held: unknown, applied: unknown): unknown {
  if (!isObject(declared)) return declared === undefined ? {} : UNKNOWN;
  const before = Object.fromEntries(Object.entries(isObject(held) ? held : {}).filter(([, e]) => isObject(e)));
  // A new key declaring the name a removed key held keeps that role (../group-roles/renamed-keys.ts).
  const appliedNames = isObject(applied) ? (applied as Record<string, string>) : undefined;
  const moved = renamedKeys(
    { roles: before as GroupRolesState["roles"], ...(appliedNames && { appliedNames }) },
    declared,
  );
  const out: Props = {};
  for (const [key, entry] of Object.entries(declared)) {
    if (!isObject(entry)) {
      out[key] = UNKNOWN;
      continue;
    }
    const from = Object.hasOwn(before, key) ? key : moved.get(key);
    const was = from === undefined ? undefined : before[from];
    const kept = (k: string): unknown => (isObject(was) && k in was ? (was[k] ?? null) : UNKNOWN);
    out[key] = {
      ...heldTextFields(entry),
      roleId: kept("roleId"),
      name: entry["name"] ?? null,
      settings: entry["settings"] ?? {},
      inUse: kept("inUse"),
      userCount: kept("userCount"),
      ...(entry["retain"] === true ? { retain: true } : {}),
    };
  }
  return out;
}
