// TEST INFRASTRUCTURE (simulation): a stack described as JSON, and a history of what teams do to it.
//
// A program is the `Role`s and `GroupRoles` of the spec program (test/e2e/programs/roles-spec), the
// test program whose resources come from the stack config: the simulation runs it as an inline program
// through the engine stand-in, so every step goes through the real Node SDK, the real dynamic-provider
// host and the stand-in's scheduling. Groups are named by index (0 or 1); a run maps them to groups of
// the emulator. Every deploy step carries its whole program, so a history stays valid when the
// shrinker drops steps.

export type GroupIx = 0 | 1;
export type Settings = Record<string, boolean>;

export interface RoleDecl {
  /** Pulumi resource name. */
  res: string;
  group: GroupIx;
  name: string;
  description?: string;
  settings?: Settings;
  retainOnDelete?: boolean;
  /** Resources declared before this one, by resource name. */
  dependsOn?: string[];
  /** Former resource names (`aliases: [{ name }]`). */
  aliases?: string[];
  /** The resource options `deleteBeforeReplace` and `replaceOnChanges`. */
  deleteBeforeReplace?: boolean;
  replaceOnChanges?: string[];
}

export interface EntryDecl {
  name: string;
  description?: string;
  settings?: Settings;
  retain?: boolean;
}

export interface CatalogueDecl {
  res: string;
  group: GroupIx;
  roles: Record<string, EntryDecl>;
  adoptExisting?: boolean;
  exclusive?: boolean;
  dependsOn?: string[];
  deleteBeforeReplace?: boolean;
  replaceOnChanges?: string[];
}

/**
 * A test resource whose create and update take `ms` (the spec program's `slow`), declared before
 * every other: what depends on it registers late in an `up`, at once in a preview (no creates).
 */
export interface SlowDecl {
  res: string;
  ms: number;
}

export interface Program {
  roles: RoleDecl[];
  catalogues: CatalogueDecl[];
  /** Slow test resources, declared first; `dependsOn` may name them. */
  slow?: SlowDecl[];
  /** Registers the catalogues before the Roles (the spec program's `order: catalogues-first`). */
  cataloguesFirst?: boolean;
  /**
   * Every `groupId` given as an Output (`pulumi.output(n)`): the program then cannot check the order an
   * exclusive catalogue needs (sdk/group-order.ts), and only the providers' own refusals apply.
   */
  groupIdsAsOutputs?: boolean;
}

export const FAULT_KINDS = [
  "429",
  "500",
  "503",
  "drop-before",
  "drop-after",
  "slow",
  "wrong-shape",
  "malformed-json",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export const ROUTES = ["list", "details", "create", "update", "delete"] as const;
export type Route = (typeof ROUTES)[number];

/** One emulator fault rule, on one route of one group: the `skip`+1-th matching request, or every one. */
export interface FaultSpec {
  kind: FaultKind;
  group: GroupIx;
  route: Route;
  skip: number;
  /** Every matching request until the operation ends (`times: 0`), not just one. */
  persistent?: boolean;
}

export type Step =
  | {
      op: "deploy";
      /** What the team changed, in words (printed with a failing history). */
      change: string;
      program: Program;
      /** `--parallel`; undefined: the CLI's default (4 per CPU). */
      parallel?: number;
      /** `grouproles:maxBatchSize` for this step's operations. */
      batch?: number;
      /** `up --refresh`. */
      refresh?: boolean;
      /** Faults injected during the `up` (the preview runs without). */
      faults?: FaultSpec[];
      /** After a successful `up`, a preview with `--expect-no-changes`. */
      checkNoChanges?: boolean;
      /** `--target`, `--exclude` and `--replace` of these resources (by name), on the preview and the `up`. */
      target?: string[];
      exclude?: string[];
      replace?: string[];
    }
  | { op: "refresh"; faults?: FaultSpec[] }
  | { op: "destroy"; parallel?: number; faults?: FaultSpec[] }
  /** An edit made in the service by hand, to the role that holds `name` (or a new role for "create"). */
  | { op: "hand"; action: "rename" | "describe" | "delete" | "create"; group: GroupIx; name: string; to?: string }
  /** Users assigned to (count > 0) or unassigned from (0) the role holding `name`. */
  | { op: "users"; group: GroupIx; name: string; count: number }
  /** The stack's token rotated to the other one (both stay valid in the service). */
  | { op: "rotate" };

export interface History {
  seed: number;
  steps: Step[];
}

/** Drops `dependsOn` names that are not declared before the resource (the spec program resolves them in order). */
export function normalize(p: Program): Program {
  const order = [
    ...(p.slow ?? []).map((x) => x.res),
    ...(p.cataloguesFirst
      ? [...p.catalogues.map((c) => c.res), ...p.roles.map((r) => r.res)]
      : [...p.roles.map((r) => r.res), ...p.catalogues.map((c) => c.res)]),
  ];
  const before = (res: string, deps: string[] | undefined) => {
    const at = order.indexOf(res);
    const kept = (deps ?? []).filter((d) => {
      const i = order.indexOf(d);
      return i >= 0 && i < at;
    });
    return kept.length ? [...new Set(kept)] : undefined;
  };
  const strip = <T extends { dependsOn?: string[] }>(x: T, deps: string[] | undefined): T => {
    const { dependsOn: _dependsOn, ...rest } = x;
    return (deps ? { ...rest, dependsOn: deps } : rest) as T;
  };
  return {
    ...(p.cataloguesFirst ? { cataloguesFirst: true } : {}),
    ...(p.groupIdsAsOutputs ? { groupIdsAsOutputs: true } : {}),
    ...(p.slow?.length ? { slow: p.slow } : {}),
    roles: p.roles.map((r) => strip(r, before(r.res, r.dependsOn))),
    catalogues: p.catalogues.map((c) => strip(c, before(c.res, c.dependsOn))),
  };
}

/** The spec program's stack config for this program, with groups mapped to the run's group IDs. */
export function specConfig(p: Program, groups: readonly [number, number]): Record<string, string> {
  const n = normalize(p);
  const opts = (o: Record<string, unknown>) => {
    const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    return Object.keys(kept).length ? { opts: kept } : {};
  };
  const spec = n.roles.map((r) => ({
    name: r.res,
    args: {
      groupId: groups[r.group],
      name: r.name,
      ...(r.description !== undefined ? { description: r.description } : {}),
      ...(r.settings ? { settings: r.settings } : {}),
    },
    ...opts({
      retainOnDelete: r.retainOnDelete || undefined,
      dependsOn: r.dependsOn,
      aliases: r.aliases?.length ? r.aliases.map((name) => ({ name })) : undefined,
      deleteBeforeReplace: r.deleteBeforeReplace || undefined,
      replaceOnChanges: r.replaceOnChanges,
    }),
  }));
  const groupRoles = n.catalogues.map((c) => ({
    name: c.res,
    args: {
      groupId: groups[c.group],
      roles: c.roles,
      ...(c.adoptExisting ? { adoptExisting: true } : {}),
      ...(c.exclusive ? { exclusive: true } : {}),
    },
    ...opts({
      dependsOn: c.dependsOn,
      deleteBeforeReplace: c.deleteBeforeReplace || undefined,
      replaceOnChanges: c.replaceOnChanges,
    }),
  }));
  return {
    "roles-spec:spec": JSON.stringify(spec),
    "roles-spec:groupRoles": JSON.stringify(groupRoles),
    ...(n.cataloguesFirst ? { "roles-spec:order": "catalogues-first" } : {}),
    ...(n.groupIdsAsOutputs ? { "roles-spec:groupIds": "outputs" } : {}),
    ...(n.slow ? { "roles-spec:slow": JSON.stringify(n.slow.map((x) => ({ name: x.res, ms: x.ms }))) } : {}),
  };
}

/** Every (group, name) the program declares, as `group\u0000name`, and what declares it. */
export function declaredNames(p: Program): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (g: GroupIx, name: string, by: string) => {
    const k = `${g}\u0000${name}`;
    out.set(k, [...(out.get(k) ?? []), by]);
  };
  for (const r of p.roles) add(r.group, r.name, `Role ${r.res}`);
  for (const c of p.catalogues) for (const [key, e] of Object.entries(c.roles)) add(c.group, e.name, `${c.res}.${key}`);
  return out;
}

const replacement = (x: { deleteBeforeReplace?: boolean; replaceOnChanges?: string[] }) =>
  `${x.deleteBeforeReplace ? " deleteBeforeReplace" : ""}${x.replaceOnChanges ? ` replaceOnChanges ${x.replaceOnChanges.join(",")}` : ""}`;

/** A one-line summary of a program, for reports. */
export function describeProgram(p: Program): string {
  const roles = p.roles.map(
    (r) =>
      `Role ${r.res}(g${r.group} "${r.name}"${r.retainOnDelete ? " retainOnDelete" : ""}${r.dependsOn ? ` dependsOn ${r.dependsOn.join(",")}` : ""}${r.aliases ? ` aliases ${r.aliases.join(",")}` : ""}${replacement(r)})`,
  );
  const cats = p.catalogues.map(
    (c) =>
      `GroupRoles ${c.res}(g${c.group}${c.exclusive ? " exclusive" : ""}${c.adoptExisting ? " adopt" : ""}${c.dependsOn ? ` dependsOn ${c.dependsOn.join(",")}` : ""}${replacement(c)} {${Object.entries(
        c.roles,
      )
        .map(([k, e]) => `${k}: "${e.name}"${e.retain ? " retain" : ""}`)
        .join(", ")}})`,
  );
  const slow = (p.slow ?? []).map((x) => `Slow ${x.res}(${x.ms} ms)`);
  const all = [...slow, ...(p.cataloguesFirst ? [...cats, ...roles] : [...roles, ...cats])].join("; ") || "(empty)";
  return p.groupIdsAsOutputs ? `${all} (groupIds as Outputs)` : all;
}
