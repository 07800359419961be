/**
 * What a trial's preview tells the program a `Role` or `GroupRoles` step will produce, so that the
 * stack outputs it prints are what `up` will give (the engine stand-in's `plannedOutputs`).
 *
 * Pulumi itself cannot do this for these resources: their providers do not plan (no `supportsPreview`),
 * so a preview hands the program each changing resource's new inputs as its outputs. A role's ID, which
 * an update never changes, is then unknown, and each GroupRoles entry lacks its `roleId`, `inUse` and
 * `userCount` (a stack output `Object.values(roles).map((e) => e.roleId)` reads `[null, null]`).
 *
 * The plan follows the public contract (DESIGN.md "Public contract", the outputs of each resource):
 * what the program declares comes from the new inputs; what the service decides comes from state when
 * the step keeps the role (an update keeps a role's ID; a GroupRoles entry keeps its role under the
 * same key or, moved to a new key with its name, under the new one), and is unknown when the step
 * makes a new role (a create, a replacement, an added entry). `inUse` and `userCount` are taken from
 * state, as every preview takes the service to be what state says (`--refresh` reads it first).
 */
import { UNKNOWN } from "../engine";
import type { PreviewPlanner } from "../engine";
import { type Props, type Value, isObject } from "../engine/values";

const ROLE = /(^|:)Role$/;
const GROUP_ROLES = /(^|:)GroupRoles$/;
const OURS = /^(pulumi-nodejs:dynamic\/grouproles:|grouproles:index:)/;

export const plannedOutputs: PreviewPlanner = ({ type, op, inputs, old }) => {
  if (!OURS.test(type)) return undefined;
  const keeps = op === "update" && old ? old.outputs : undefined;
  if (ROLE.test(type)) {
    const kept = (k: string): Value => (keeps && k in keeps ? (keeps[k] ?? null) : UNKNOWN);
    return { ...inputs, roleId: kept("roleId"), inUse: kept("inUse"), userCount: kept("userCount") };
  }
  if (GROUP_ROLES.test(type)) {
    // Evidence of unsettled creates (`unconfirmed`) is settled by the up in ways a plan cannot tell.
    if (keeps?.["unconfirmed"] !== undefined) return undefined;
    const { adoptExisting: _adopt, exclusive, roles, ...rest } = inputs;
    return {
      ...rest,
      ...(exclusive === true ? { exclusive: true } : exclusive === UNKNOWN ? { exclusive: UNKNOWN } : {}),
      roles: plannedEntries(roles, keeps?.["roles"]),
    };
  }
  return undefined;
};

/** Each declared entry as state will hold it: its role kept (same key, or moved with its name) or new. */
function plannedEntries(declared: Value | undefined, held: Value | undefined): Value {
  if (!isObject(declared)) return declared === undefined ? {} : UNKNOWN;
  const before = isObject(held) ? held : {};
  // A key that leaves, by its name: a new key declaring that name keeps its role (provider/group-roles/plan.ts renamedKeys).
  const leaving = new Map<Value, string>();
  for (const [key, e] of Object.entries(before))
    if (!(key in declared) && isObject(e)) leaving.set(e["name"] ?? null, key);
  const out: Props = {};
  for (const [key, entry] of Object.entries(declared)) {
    if (!isObject(entry)) {
      out[key] = UNKNOWN;
      continue;
    }
    let was = Object.hasOwn(before, key) ? before[key] : undefined;
    const from = was === undefined && typeof entry["name"] === "string" ? leaving.get(entry["name"]) : undefined;
    if (from !== undefined) {
      was = before[from];
      leaving.delete(entry["name"] ?? null);
    }
    const kept = (k: string): Value => (isObject(was) && k in was ? (was[k] ?? null) : UNKNOWN);
    out[key] = {
      roleId: kept("roleId"),
      name: entry["name"] ?? null,
      description: entry["description"] ?? "",
      settings: entry["settings"] ?? {},
      inUse: kept("inUse"),
      userCount: kept("userCount"),
      ...(entry["retain"] === true ? { retain: true } : {}),
    };
  }
  return out;
}
