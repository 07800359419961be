// TEST INFRASTRUCTURE (simulation): random histories. A history is a function of its seed: a random
// starting program, then what teams do to a stack, one step at a time (a change of the program applied
// with preview and up, hand edits and user assignments in the service, a token rotation, a refresh, a
// destroy), with the engine's `--parallel`, the batch size and the faults of each operation drawn too.

import {
  type CatalogueDecl,
  FAULT_KINDS,
  type FaultSpec,
  type GroupIx,
  type History,
  type Program,
  type RoleDecl,
  type Route,
  type Step,
} from "./model";
import { Rng } from "./rng";

export interface GenerateOptions {
  /** Steps after the starting program: a number in [minSteps, maxSteps]. @default 3, 7 */
  minSteps?: number;
  maxSteps?: number;
  /** Probability that an `up` runs with faults. @default 0.35 */
  faultRate?: number;
}

const WORDS = ["Support", "Billing", "Sales", "Ops", "Triage", "Audit", "Guests", "Agents", "Leads", "Docs"];
const SETTING_KEYS = ["viewVideo", "remoteAssist", "inviteGuest"] as const;

type Changed = { program: Program; change: string } | undefined;

class Gen {
  private n = 0;
  constructor(readonly rng: Rng) {}

  fresh(prefix: string): string {
    return `${prefix}${++this.n}`;
  }
  name(): string {
    return `${this.rng.pick(WORDS)} ${++this.n}`;
  }
  group(p: Program): GroupIx {
    // Mostly one group, so that resources meet; sometimes the second.
    const used = new Set([...p.roles.map((r) => r.group), ...p.catalogues.map((c) => c.group)]);
    if (used.size === 0) return 0;
    return this.rng.chance(0.8) ? this.rng.pick([...used]) : this.rng.chance(0.5) ? 0 : 1;
  }
  description(): string | undefined {
    return this.rng.chance(0.5) ? `about ${this.rng.pick(WORDS).toLowerCase()} ${this.rng.int(100)}` : undefined;
  }
  settings(): Record<string, boolean> | undefined {
    if (this.rng.chance(0.5)) return undefined;
    const out: Record<string, boolean> = {};
    for (const k of SETTING_KEYS) if (this.rng.chance(0.4)) out[k] = this.rng.chance(0.5);
    return Object.keys(out).length ? out : undefined;
  }
  /** One Role or GroupRoles of the program, drawn at random (one draw), or undefined when it has none. */
  anyResource(p: Program): RoleDecl | CatalogueDecl | undefined {
    const all = [...p.roles, ...p.catalogues];
    return all.length ? this.rng.pick(all) : undefined;
  }
  resources(p: Program): string[] {
    return [...p.roles.map((r) => r.res), ...p.catalogues.map((c) => c.res)];
  }

  role(p: Program): RoleDecl {
    const r: RoleDecl = { res: this.fresh("r"), group: this.group(p), name: this.name() };
    const description = this.description();
    if (description) r.description = description;
    const settings = this.settings();
    if (settings) r.settings = settings;
    if (this.rng.chance(0.2)) r.retainOnDelete = true;
    const others = this.resources(p);
    if (others.length && this.rng.chance(0.2)) r.dependsOn = [this.rng.pick(others)];
    return r;
  }

  entry(): CatalogueDecl["roles"][string] {
    const e: CatalogueDecl["roles"][string] = { name: this.name() };
    const description = this.description();
    if (description) e.description = description;
    const settings = this.settings();
    if (settings) e.settings = settings;
    if (this.rng.chance(0.15)) e.retain = true;
    return e;
  }

  catalogue(p: Program): CatalogueDecl {
    const group = this.group(p);
    const roles: CatalogueDecl["roles"] = {};
    for (let i = 0, n = 1 + this.rng.int(3); i < n; i++) roles[this.fresh("k")] = this.entry();
    const c: CatalogueDecl = { res: this.fresh("c"), group, roles };
    if (this.rng.chance(0.3)) c.adoptExisting = true;
    if (this.rng.chance(0.25) && !p.catalogues.some((x) => x.group === group && x.exclusive)) c.exclusive = true;
    const others = this.resources(p);
    if (others.length && this.rng.chance(0.15)) c.dependsOn = [this.rng.pick(others)];
    return c;
  }

  initial(): Program {
    const p: Program = { roles: [], catalogues: [] };
    for (let i = 0, n = 1 + this.rng.int(3); i < n; i++) p.roles.push(this.role(p));
    for (let i = 0, n = this.rng.int(3); i < n; i++) p.catalogues.push(this.catalogue(p));
    if (this.rng.chance(0.3)) p.cataloguesFirst = true;
    return p;
  }

  /** Every declared role as (where, name): Roles and catalogue entries. */
  private declared(p: Program): Array<{ group: GroupIx; name: string }> {
    return [
      ...p.roles.map((r) => ({ group: r.group, name: r.name })),
      ...p.catalogues.flatMap((c) => Object.values(c.roles).map((e) => ({ group: c.group, name: e.name }))),
    ];
  }

  /** One change a team makes to the program; undefined when it does not apply to this program. */
  change(p0: Program): Changed {
    const p = structuredClone(p0);
    const rng = this.rng;
    const cats = p.catalogues;
    const withEntries = cats.filter((c) => Object.keys(c.roles).length > 0);
    const kind = rng.weighted<string>([
      ["add role", 8],
      ["add entry", 8],
      ["add catalogue", 3],
      // Removals often enough that some meet roles users hold (the "users" step), whole catalogues too.
      ["remove role", 8],
      ["remove entry", 6],
      ["remove catalogue", 4],
      ["rename role", 6],
      ["rename entry", 6],
      ["rename onto a removed name", 3],
      ["swap entry names", 4],
      ["rotate entry names", 2],
      ["swap role names", 2],
      ["rename key", 4],
      ["move entry", 6],
      ["move role to entry", 4],
      ["change groupId", 3],
      ["toggle retain", 4],
      ["toggle exclusive", 3],
      ["toggle adoptExisting", 2],
      ["edit description or settings", 5],
      ["reorder", 3],
      ["rename resource with alias", 2],
      ["add dependsOn", 2],
      ["add a slow resource before", 3],
      ["remove a slow resource", 1],
      ["toggle deleteBeforeReplace", 2],
      ["toggle replaceOnChanges", 2],
    ]);
    switch (kind) {
      case "add role": {
        const r = this.role(p);
        p.roles.splice(rng.int(p.roles.length + 1), 0, r);
        return { program: p, change: `add Role ${r.res} "${r.name}"` };
      }
      case "add entry": {
        if (!cats.length) return undefined;
        const c = rng.pick(cats);
        const key = this.fresh("k");
        c.roles[key] = this.entry();
        return { program: p, change: `add ${c.res}.${key} "${c.roles[key]!.name}"` };
      }
      case "add catalogue": {
        const c = this.catalogue(p);
        cats.splice(rng.int(cats.length + 1), 0, c);
        return { program: p, change: `add GroupRoles ${c.res}` };
      }
      case "remove role": {
        if (!p.roles.length) return undefined;
        const [r] = p.roles.splice(rng.int(p.roles.length), 1);
        return { program: p, change: `remove Role ${r!.res} "${r!.name}"` };
      }
      case "remove entry": {
        if (!withEntries.length) return undefined;
        const c = rng.pick(withEntries);
        const key = rng.pick(Object.keys(c.roles));
        const name = c.roles[key]!.name;
        delete c.roles[key];
        return { program: p, change: `remove ${c.res}.${key} "${name}"` };
      }
      case "remove catalogue": {
        if (!cats.length) return undefined;
        const [c] = cats.splice(rng.int(cats.length), 1);
        return { program: p, change: `remove GroupRoles ${c!.res}` };
      }
      case "rename role": {
        if (!p.roles.length) return undefined;
        const r = rng.pick(p.roles);
        const from = r.name;
        r.name = this.name();
        return { program: p, change: `rename Role ${r.res} "${from}" -> "${r.name}"` };
      }
      case "rename entry": {
        if (!withEntries.length) return undefined;
        const c = rng.pick(withEntries);
        const key = rng.pick(Object.keys(c.roles));
        const from = c.roles[key]!.name;
        c.roles[key]!.name = this.name();
        return { program: p, change: `rename ${c.res}.${key} "${from}" -> "${c.roles[key]!.name}"` };
      }
      case "rename onto a removed name": {
        // Within one catalogue (one up) or between Roles (documented: two steps).
        if (withEntries.some((c) => Object.keys(c.roles).length >= 2) && rng.chance(0.6)) {
          const c = rng.pick(withEntries.filter((x) => Object.keys(x.roles).length >= 2));
          const [a, b] = rng.shuffle(Object.keys(c.roles));
          const name = c.roles[b!]!.name;
          delete c.roles[b!];
          c.roles[a!]!.name = name;
          return { program: p, change: `remove ${c.res}.${b}, rename ${c.res}.${a} onto its name "${name}"` };
        }
        const pairs = p.roles.flatMap((a) => p.roles.filter((b) => b !== a && b.group === a.group).map((b) => [a, b]));
        if (!pairs.length) return undefined;
        const [a, b] = rng.pick(pairs) as [RoleDecl, RoleDecl];
        p.roles = p.roles.filter((x) => x !== b);
        a.name = b.name;
        return { program: p, change: `remove Role ${b.res}, rename Role ${a.res} onto its name "${b.name}"` };
      }
      case "swap entry names":
      case "rotate entry names": {
        const n = kind === "swap entry names" ? 2 : 3;
        const big = cats.filter((c) => Object.keys(c.roles).length >= n);
        if (!big.length) return undefined;
        const c = rng.pick(big);
        const keys = rng.shuffle(Object.keys(c.roles)).slice(0, n);
        const names = keys.map((k) => c.roles[k]!.name);
        keys.forEach((k, i) => {
          c.roles[k]!.name = names[(i + 1) % n]!;
        });
        return { program: p, change: `${kind} of ${c.res} ${keys.join(",")}` };
      }
      case "swap role names": {
        const pairs = p.roles.flatMap((a) => p.roles.filter((b) => b !== a && b.group === a.group).map((b) => [a, b]));
        if (!pairs.length) return undefined;
        const [a, b] = rng.pick(pairs) as [RoleDecl, RoleDecl];
        [a.name, b.name] = [b.name, a.name];
        return { program: p, change: `swap names of Roles ${a.res} and ${b.res}` };
      }
      case "rename key": {
        if (!withEntries.length) return undefined;
        const c = rng.pick(withEntries);
        const key = rng.pick(Object.keys(c.roles));
        const to = this.fresh("k");
        const roles: CatalogueDecl["roles"] = {};
        for (const [k, e] of Object.entries(c.roles)) roles[k === key ? to : k] = e;
        c.roles = roles;
        return { program: p, change: `rename key ${c.res}.${key} -> ${to}` };
      }
      case "move entry": {
        const pairs = withEntries.flatMap((a) => cats.filter((b) => b !== a && b.group === a.group).map((b) => [a, b]));
        if (!pairs.length) return undefined;
        const [from, to] = rng.pick(pairs) as [CatalogueDecl, CatalogueDecl];
        const key = rng.pick(Object.keys(from.roles));
        const entry = from.roles[key]!;
        delete from.roles[key];
        const newKey = rng.chance(0.5) ? key : this.fresh("k");
        to.roles[newKey] = entry;
        if (rng.chance(0.75)) to.adoptExisting = true;
        // The documented way: the receiver registers first and the giver depends on it.
        const ordered = rng.chance(0.6);
        if (ordered) {
          p.catalogues = [to, ...cats.filter((c) => c !== to)];
          from.dependsOn = [...new Set([...(from.dependsOn ?? []), to.res])];
        }
        return {
          program: p,
          change: `move ${from.res}.${key} "${entry.name}" to ${to.res}.${newKey}${to.adoptExisting ? " (adoptExisting)" : ""}${ordered ? `, ${from.res} dependsOn ${to.res}` : ""}`,
        };
      }
      case "move role to entry": {
        const pairs = p.roles.flatMap((r) => cats.filter((c) => c.group === r.group).map((c) => [r, c]));
        if (!pairs.length) return undefined;
        const [r, c] = rng.pick(pairs) as [RoleDecl, CatalogueDecl];
        p.roles = p.roles.filter((x) => x !== r);
        const key = this.fresh("k");
        c.roles[key] = {
          name: r.name,
          ...(r.description !== undefined ? { description: r.description } : {}),
          ...(r.settings ? { settings: r.settings } : {}),
        };
        if (rng.chance(0.75)) c.adoptExisting = true;
        return {
          program: p,
          change: `move Role ${r.res} "${r.name}" to ${c.res}.${key}${c.adoptExisting ? " (adoptExisting)" : ""}`,
        };
      }
      case "change groupId": {
        const x = this.anyResource(p);
        if (!x) return undefined;
        x.group = x.group === 0 ? 1 : 0;
        if ("exclusive" in x && x.exclusive && cats.some((c) => c !== x && c.group === x.group && c.exclusive))
          delete x.exclusive;
        return { program: p, change: `groupId of ${x.res} -> g${x.group}` };
      }
      case "toggle retain": {
        if (withEntries.length && rng.chance(0.6)) {
          const c = rng.pick(withEntries);
          const key = rng.pick(Object.keys(c.roles));
          const e = c.roles[key]!;
          if (e.retain) delete e.retain;
          else e.retain = true;
          return { program: p, change: `${c.res}.${key} retain ${e.retain === true}` };
        }
        if (!p.roles.length) return undefined;
        const r = rng.pick(p.roles);
        if (r.retainOnDelete) delete r.retainOnDelete;
        else r.retainOnDelete = true;
        return { program: p, change: `Role ${r.res} retainOnDelete ${r.retainOnDelete === true}` };
      }
      case "toggle exclusive": {
        if (!cats.length) return undefined;
        const c = rng.pick(cats);
        if (c.exclusive) delete c.exclusive;
        else if (cats.some((x) => x !== c && x.group === c.group && x.exclusive)) return undefined;
        else c.exclusive = true;
        return { program: p, change: `${c.res} exclusive ${c.exclusive === true}` };
      }
      case "toggle adoptExisting": {
        if (!cats.length) return undefined;
        const c = rng.pick(cats);
        if (c.adoptExisting) delete c.adoptExisting;
        else c.adoptExisting = true;
        return { program: p, change: `${c.res} adoptExisting ${c.adoptExisting === true}` };
      }
      case "edit description or settings": {
        const targets: Array<{ label: string; x: { description?: string; settings?: Record<string, boolean> } }> = [
          ...p.roles.map((r) => ({ label: `Role ${r.res}`, x: r })),
          ...cats.flatMap((c) => Object.entries(c.roles).map(([k, e]) => ({ label: `${c.res}.${k}`, x: e }))),
        ];
        if (!targets.length) return undefined;
        const { label, x } = rng.pick(targets);
        if (rng.chance(0.5)) {
          const d = this.description();
          if (d === undefined) delete x.description;
          else x.description = d;
          return { program: p, change: `${label} description` };
        }
        const s = this.settings();
        if (s === undefined) delete x.settings;
        else x.settings = s;
        return { program: p, change: `${label} settings` };
      }
      case "reorder": {
        p.roles = rng.shuffle(p.roles);
        p.catalogues = rng.shuffle(cats);
        if (rng.chance(0.5)) {
          if (p.cataloguesFirst) delete p.cataloguesFirst;
          else p.cataloguesFirst = true;
        }
        return { program: p, change: "registration order" };
      }
      case "rename resource with alias": {
        if (!p.roles.length) return undefined;
        const r = rng.pick(p.roles);
        const from = r.res;
        r.aliases = [...(r.aliases ?? []), from];
        r.res = this.fresh("r");
        for (const x of [...p.roles, ...cats])
          if (x.dependsOn) x.dependsOn = x.dependsOn.map((d) => (d === from ? r.res : d));
        return { program: p, change: `Role resource ${from} -> ${r.res} (aliases)` };
      }
      case "add a slow resource before": {
        // A database, say, that takes its time to create: what depends on it registers late in the `up`.
        const x = this.anyResource(p);
        if (!x) return undefined;
        const slow = { res: this.fresh("s"), ms: rng.pick([200, 800, 1500]) };
        p.slow = [...(p.slow ?? []), slow];
        x.dependsOn = [...(x.dependsOn ?? []), slow.res];
        return { program: p, change: `${x.res} dependsOn a new slow resource ${slow.res} (${slow.ms} ms)` };
      }
      case "remove a slow resource": {
        if (!p.slow?.length) return undefined;
        const [gone] = p.slow.splice(rng.int(p.slow.length), 1);
        for (const x of [...p.roles, ...cats])
          if (x.dependsOn) x.dependsOn = x.dependsOn.filter((d) => d !== gone!.res);
        return { program: p, change: `remove slow resource ${gone!.res}` };
      }
      case "toggle deleteBeforeReplace": {
        const x = this.anyResource(p);
        if (!x) return undefined;
        if (x.deleteBeforeReplace) delete x.deleteBeforeReplace;
        else x.deleteBeforeReplace = true;
        return { program: p, change: `${x.res} deleteBeforeReplace ${x.deleteBeforeReplace === true}` };
      }
      case "toggle replaceOnChanges": {
        const x = this.anyResource(p);
        if (!x) return undefined;
        if (x.replaceOnChanges) delete x.replaceOnChanges;
        else x.replaceOnChanges = [rng.pick("roles" in x ? ["roles", "*"] : ["name", "settings", "*"])];
        return { program: p, change: `${x.res} replaceOnChanges ${x.replaceOnChanges?.join(",") ?? "none"}` };
      }
      case "add dependsOn": {
        const all = [...p.roles, ...cats];
        if (all.length < 2) return undefined;
        const [a, b] = rng.shuffle(all) as [RoleDecl | CatalogueDecl, RoleDecl | CatalogueDecl];
        a.dependsOn = [...new Set([...(a.dependsOn ?? []), b.res])];
        return { program: p, change: `${a.res} dependsOn ${b.res}` };
      }
    }
    return undefined;
  }

  /** Faults on the routes of a group the program uses, mostly on the first request that matches. */
  faults(p: Program): FaultSpec[] {
    const groups = [...new Set([...p.roles.map((r) => r.group), ...p.catalogues.map((c) => c.group)])];
    const out: FaultSpec[] = [];
    for (let i = 0, n = 1 + (this.rng.chance(0.3) ? 1 : 0); i < n; i++) {
      const kind = this.rng.weighted(FAULT_KINDS.map((k) => [k, k === "slow" ? 1 : 3] as const));
      const route = this.rng.weighted<Route>([
        ["create", 3],
        ["update", 3],
        ["delete", 2],
        ["list", 4],
        ["details", 1],
      ]);
      const skip = this.rng.weighted([
        [0, 6],
        [1, 3],
        [2, 1],
      ] as const);
      const f: FaultSpec = { kind, group: groups.length ? this.rng.pick(groups) : 0, route, skip };
      if (kind !== "slow" && this.rng.chance(0.15)) f.persistent = true;
      out.push(f);
    }
    return out;
  }

  step(p: Program, faultRate: number): { step: Step; program: Program } {
    const rng = this.rng;
    const kind = rng.weighted<Step["op"]>([
      ["deploy", 62],
      ["hand", 9],
      ["users", 13],
      ["rotate", 3],
      ["refresh", 8],
      ["destroy", 3],
    ]);
    const declared = this.declared(p);
    switch (kind) {
      case "hand": {
        const action = rng.weighted<"rename" | "describe" | "delete" | "create">([
          ["rename", 3],
          ["describe", 2],
          ["delete", 2],
          ["create", 3],
        ]);
        if (action === "create" || !declared.length) {
          // A role made by hand: sometimes with a name the program declares (or will), a conflict to meet.
          const d = declared.length && rng.chance(0.3) ? rng.pick(declared) : undefined;
          return {
            step: { op: "hand", action: "create", group: d?.group ?? this.group(p), name: d?.name ?? this.name() },
            program: p,
          };
        }
        const d = rng.pick(declared);
        const step: Step = { op: "hand", action, group: d.group, name: d.name };
        if (action === "rename") step.to = this.name();
        return { step, program: p };
      }
      case "users": {
        if (!declared.length) break;
        const d = rng.pick(declared);
        return {
          step: { op: "users", group: d.group, name: d.name, count: rng.chance(0.3) ? 0 : 1 + rng.int(3) },
          program: p,
        };
      }
      case "rotate":
        return { step: { op: "rotate" }, program: p };
      case "refresh":
        return { step: { op: "refresh", ...(rng.chance(faultRate) ? { faults: this.faults(p) } : {}) }, program: p };
      case "destroy":
        return {
          step: { op: "destroy", ...(rng.chance(faultRate) ? { faults: this.faults(p) } : {}) },
          program: { roles: [], catalogues: [] },
        };
      default:
        break;
    }
    let program = p;
    const changes: string[] = [];
    for (let i = 0, n = rng.chance(0.3) ? 2 : 1, tries = 0; i < n && tries < 20; tries++) {
      const c = this.change(program);
      if (!c) continue;
      program = c.program;
      changes.push(c.change);
      i++;
    }
    return { step: this.deploy(program, changes.join("; ") || "no change", faultRate), program };
  }

  deploy(program: Program, change: string, faultRate: number): Step {
    orderExclusive(program);
    const rng = this.rng;
    const parallel = rng.pick([1, 2, 3, 8, undefined]);
    const step: Step = { op: "deploy", change, program };
    if (parallel !== undefined) step.parallel = parallel;
    if (rng.chance(0.25)) step.batch = 1 + rng.int(2);
    if (rng.chance(0.1)) step.refresh = true;
    if (rng.chance(faultRate)) step.faults = this.faults(program);
    if (rng.chance(0.5)) step.checkNoChanges = true;
    // Engine flags teams use: `--target` of a few resources, `--exclude` of one, `--replace` of one.
    const names = [...program.roles, ...program.catalogues].map((x) => x.res);
    const flag = names.length
      ? rng.weighted<string>([
          ["none", 82],
          ["target", 9],
          ["exclude", 4],
          ["replace", 5],
        ])
      : "none";
    if (flag === "target") step.target = rng.shuffle(names).slice(0, 1 + rng.int(Math.min(2, names.length)));
    else if (flag === "exclude") step.exclude = [rng.pick(names)];
    else if (flag === "replace") step.replace = [rng.pick(names)];
    return step;
  }
}

/**
 * Most exclusive catalogues get what the package requires of them (sdk/group-order.ts): `dependsOn` on
 * every resource of their group declared before them. One in four (by its name, so no draw of the seed
 * changes) is left as generated, and a resource declared after one is left too: those previews are
 * refused, naming `dependsOn`. Changes the program in place, so that later changes keep it.
 */
export function orderExclusive(p: Program): void {
  const order = p.cataloguesFirst ? [...p.catalogues, ...p.roles] : [...p.roles, ...p.catalogues];
  for (const c of p.catalogues) {
    if (!c.exclusive || Number(c.res.slice(1)) % 4 === 0) continue;
    const before = order.slice(0, order.indexOf(c)).filter((x) => x.group === c.group);
    if (before.length) c.dependsOn = [...new Set([...(c.dependsOn ?? []), ...before.map((x) => x.res)])];
  }
}

/** The history of seed `seed`. */
export function generateHistory(seed: number, o: GenerateOptions = {}): History {
  const rng = new Rng(seed);
  const g = new Gen(rng);
  const faultRate = o.faultRate ?? 0.35;
  const min = o.minSteps ?? 3;
  const max = Math.max(min, o.maxSteps ?? 7);
  let program = g.initial();
  const steps: Step[] = [g.deploy(program, "starting program", faultRate)];
  for (let i = 0, n = min + rng.int(max - min + 1); i < n; i++) {
    const next = g.step(program, faultRate);
    steps.push(next.step);
    program = next.program;
  }
  return { seed, steps };
}
