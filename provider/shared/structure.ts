/**
 * The program's structure as a resource's `__structure` input carries it (../../sdk/structure.ts):
 * its URN, the resources its `dependsOn` reaches (with what those of this package declare), and its
 * `deleteBeforeReplace` option. The same in the preview and the `up`, whatever the schedule: the only
 * facts about other resources a decision may rest on (docs/design/engine-order.md). Read tolerantly:
 * anything unknown in the preview, or absent (a provider called without the SDK), counts as nothing
 * known, which only ever makes a decision stricter.
 */
import { isUnknown } from "./fields";

/** What a resource in `dependsOn` declares: for a `Role` or `GroupRoles` of this package. */
export interface DependencyDeclaration {
  /** A `Role` or `GroupRoles` of this package (the SDK sends what it declares), not any other resource. */
  declares?: true;
  groupId?: number;
  names: readonly string[];
  roleIds: readonly number[];
}

export interface Structure {
  urn?: string;
  /** By URN: every resource this one's `dependsOn` reaches, each registered and stepped before it. */
  dependsOn: ReadonlyMap<string, DependencyDeclaration>;
  /** The `deleteBeforeReplace` option when the program sets it (it overrides the provider's Diff). */
  deleteBeforeReplace?: boolean;
}

export const NO_STRUCTURE: Structure = { dependsOn: new Map() };

const known = <T>(v: unknown, is: (x: unknown) => x is T): T | undefined => (!isUnknown(v) && is(v) ? v : undefined);
const isString = (x: unknown): x is string => typeof x === "string";
const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x);
const list = <T>(v: unknown, is: (x: unknown) => x is T): T[] => (Array.isArray(v) ? v.filter(is) : []);

/** The structure a resource's inputs carry. */
export function structureOf(inputs: Record<string, unknown> | undefined): Structure {
  const s = inputs?.__structure;
  if (!s || typeof s !== "object" || Array.isArray(s)) return NO_STRUCTURE;
  const { urn, dependsOn, deleteBeforeReplace } = s as Record<string, unknown>;
  const deps = new Map<string, DependencyDeclaration>();
  for (const d of Array.isArray(dependsOn) ? dependsOn : []) {
    if (!d || typeof d !== "object") continue;
    const dep = d as Record<string, unknown>;
    const depUrn = known(dep.urn, isString);
    if (depUrn === undefined) continue;
    const groupId = known(dep.groupId, isNumber);
    deps.set(depUrn, {
      ...("names" in dep ? { declares: true as const } : {}),
      ...(groupId === undefined ? {} : { groupId }),
      names: list(dep.names, isString),
      roleIds: list(dep.roleIds, isNumber),
    });
  }
  const self = known(urn, isString);
  return {
    ...(self === undefined ? {} : { urn: self }),
    dependsOn: deps,
    ...(typeof deleteBeforeReplace === "boolean" ? { deleteBeforeReplace } : {}),
  };
}

/** A resource's name in the program: the last part of its URN (`urn:pulumi:dev::p::type::ops-cat` → `ops-cat`). */
export const urnName = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The name the program gives the resource whose inputs these are, when the SDK sent its URN: the name
 * every message that names this resource to others leads with (issue 43: a refusal named a catalogue
 * by its roles and a Role by its service name where the program calls them `ops-cat` and `role-a`).
 */
export function programName(inputs: Record<string, unknown> | undefined): string | undefined {
  const urn = structureOf(inputs).urn;
  return urn === undefined ? undefined : urnName(urn);
}

/**
 * The `Role`s and `GroupRoles` in `dependsOn` that do not run in this deployment (`registered` says which
 * did): the engine registers every dependency before this resource, except those `--target` leaves out
 * or `--exclude` names (step_generator.go `NewUntargetedSameStep`), which send the provider nothing. What
 * they declare is the program's; what their state records (a group or name this change moves away
 * from) no provider call of this deployment shows.
 */
export function absentDependencies(structure: Structure, registered: (urn: string) => boolean): string[] {
  return [...structure.dependsOn].filter(([urn, d]) => d.declares && !registered(urn)).map(([urn]) => urnName(urn));
}

/** The resources in `dependsOn` that declare, in `groupId`, a role by this ID or name. */
export function dependencyDeclaring(
  structure: Structure,
  groupId: number,
  role: { roleId?: number; name?: string },
): string | undefined {
  for (const [urn, d] of structure.dependsOn) {
    if (d.groupId !== groupId) continue;
    if (
      (role.roleId !== undefined && d.roleIds.includes(role.roleId)) ||
      (role.name !== undefined && d.names.includes(role.name))
    )
      return urn;
  }
  return undefined;
}
