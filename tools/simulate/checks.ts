// TEST INFRASTRUCTURE (simulation): what must hold after every operation, read from the service (the
// emulator's store and request log) and the stack's state, never from what the test sent. Each check
// returns violations as `kind: message`; docs/simulation.md lists them with the invariants they guard.

import type { EngineResult, StateResource } from "../engine";
import type { GroupIx, Program } from "./model";
import { GROUPS, type OpRecord, type Service, type ServiceRole } from "./lane";

export interface Violation {
  kind: string;
  message: string;
}
const v = (kind: string, message: string): Violation => ({ kind, message });

/** A role as one resource of the state records it. */
export interface StateRole {
  /** `Role r1` or `GroupRoles c1.k2`. */
  holder: string;
  /** The resource's name (for a catalogue: the catalogue), and the entry key. */
  res: string;
  key?: string;
  group: GroupIx;
  /** Undefined: an unconfirmed create (the name sent is known, not the role). */
  roleId?: number;
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
  inUse?: boolean;
  userCount?: number;
  /** Forgotten, not deleted, when it leaves the program. */
  retain: boolean;
  /** The old half of a replacement, still to be deleted. */
  pendingDelete: boolean;
}

const groupIx = (groupId: unknown): GroupIx | undefined =>
  groupId === GROUPS[0] ? 0 : groupId === GROUPS[1] ? 1 : undefined;
/** The resource name at the end of a URN. */
export const resName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** Every role the state records, Role resources and catalogue entries alike. */
export function stateRoles(resources: readonly StateResource[]): StateRole[] {
  const out: StateRole[] = [];
  for (const r of resources) {
    const o = r.outputs as Record<string, unknown>;
    const group = groupIx(o.groupId ?? (r.inputs as Record<string, unknown>).groupId);
    if (group === undefined) continue;
    if (r.type.endsWith(":Role")) {
      const id = String(r.id ?? "");
      const roleId = /^\d+\/(\d+)$/.exec(id)?.[1];
      out.push({
        holder: `Role ${resName(r.urn)}`,
        res: resName(r.urn),
        group,
        ...(roleId ? { roleId: Number(roleId) } : {}),
        name: String(o.name ?? (r.inputs as Record<string, unknown>).name),
        ...(typeof o.description === "string" ? { description: o.description } : {}),
        ...(o.settings && typeof o.settings === "object" ? { settings: o.settings as Record<string, boolean> } : {}),
        ...(typeof o.inUse === "boolean" ? { inUse: o.inUse } : {}),
        ...(typeof o.userCount === "number" ? { userCount: o.userCount } : {}),
        retain: r.retainOnDelete === true,
        pendingDelete: r.delete === true,
      });
    } else if (r.type.endsWith(":GroupRoles")) {
      const roles = (o.roles ?? {}) as Record<string, Record<string, unknown>>;
      for (const [key, e] of Object.entries(roles)) {
        out.push({
          holder: `GroupRoles ${resName(r.urn)}.${key}`,
          res: resName(r.urn),
          key,
          group,
          roleId: e.roleId as number,
          name: String(e.name),
          description: String(e.description ?? ""),
          settings: (e.settings ?? {}) as Record<string, boolean>,
          inUse: e.inUse as boolean,
          userCount: e.userCount as number,
          retain: e.retain === true,
          pendingDelete: r.delete === true,
        });
      }
      for (const [key, name] of Object.entries((o.unconfirmed ?? {}) as Record<string, string>))
        out.push({
          holder: `GroupRoles ${resName(r.urn)}.${key} (unconfirmed)`,
          res: resName(r.urn),
          key,
          group,
          name,
          retain: false,
          pendingDelete: r.delete === true,
        });
    }
  }
  return out;
}

const byId = (s: Service) =>
  new Map(s.flatMap((roles, g) => roles.map((r) => [r.roleId, { ...r, group: g as GroupIx }])));

/**
 * A documented limit (docs/design/invariants.md, "What no preview can know"; history 57272): a role an
 * `up --target`/`--exclude` moved while its giver, removed from the program, was left out stays in the
 * giver's record (`lingering`, history 10670); an `up` that then runs the giver's delete while leaving the
 * receiver out (`leftOut`) deletes the role, which no call of that run names the receiver of, and the
 * receiver records it until a refresh drops it (the next `up` then makes it anew). True when `roleId` is
 * such a role.
 */
export function deletedByLeftOutMove(
  op: OpRecord,
  roleId: number,
  lingering: ReadonlySet<string>,
  leftOut: ReadonlySet<string>,
): boolean {
  const holders = stateRoles(op.preState).filter((s) => s.roleId === roleId);
  return holders.some((g) => lingering.has(g.res) && holders.some((r) => r.res !== g.res && leftOut.has(r.res)));
}

/**
 * State says what the service holds: every role a resource records exists with the recorded name,
 * description, declared settings and users (roles edited by hand since the last refresh excepted:
 * drift is the state's to learn at refresh), and no role is recorded twice. One exception to the
 * last: after a failed operation, a resource the program removed may still record a role another
 * resource took over (a move): the engine runs deletes after every other step and skips them once a
 * step failed (deployment_executor.go `performPostSteps`, step_executor.go `cancelDueToError`), so
 * the removed resource's record outlives the failure (or a `--target` that leaves it out); the next
 * `up` drops it without deleting the role (checked then, as after every operation).
 */
export function stateMatchesService(
  op: OpRecord,
  drifted: ReadonlySet<number>,
  program?: Program,
  lingering: ReadonlySet<string> = new Set(),
  leftOut: ReadonlySet<string> = new Set(),
): Violation[] {
  const out: Violation[] = [];
  const service = byId(op.post);
  const declared = new Set([...(program?.roles ?? []), ...(program?.catalogues ?? [])].map((r) => r.res));
  // Under `--target`/`--exclude` the engine keeps a removed resource it does not run, deletes included
  // (step_generator.go: untargeted deletes are not generated), so its record outlives the change, until
  // the next full `up` drops it without deleting the role another resource took over (found by the
  // simulation: `up --target` of a catalogue adopting a removed Role's role): `lingering` holds those
  // resources.
  const leftByFailure = (res: string) =>
    program !== undefined && !declared.has(res) && (!op.result.ok || op.partial || lingering.has(res));
  // A GroupRoles delete that fails part-way (arrays of maxBatchSize) leaves the resource in state with
  // every entry: Pulumi's Delete has no partial result (docs/group-roles.md); the next run drops the
  // ones gone. So after a failed operation, a catalogue being deleted may record roles already deleted.
  const deletedPartWay = (s: StateRole) =>
    !op.result.ok && s.key !== undefined && (program === undefined || !declared.has(s.res));
  // A `Role` or `GroupRoles` the program removed whose record outlives the operation (a failure skips
  // its delete or its forgetting with retainOnDelete: performPostSteps; `--target`/`--exclude` leaves it
  // out) may record a role that an exclusive catalogue of its group removed as undeclared, which is what
  // the program asks; the next full run drops the record (histories 6384 and 10005, kept in
  // test/simulation/simulation.test.ts; for a removed catalogue left out by `--target`,
  // test/simulation/checks.test.ts). Whether the removal was wanted is the `deletes` check's to say.
  // So may a resource that a `--target`/`--exclude` up left out while its program no longer declares that
  // role (its group or name changed: the step that would apply the change did not run, and Pulumi keeps
  // its old state), which the next full run replaces or renames (found by the simulation: `up --exclude`
  // of a Role moved to another group beside a new exclusive catalogue of its old group).
  const declaresIt = (s: StateRole) =>
    program?.roles.some((r) => r.res === s.res && r.group === s.group && r.name === s.name) ||
    program?.catalogues.some(
      (c) => c.res === s.res && c.group === s.group && Object.values(c.roles).some((e) => e.name === s.name),
    );
  const removedByExclusive = (s: StateRole) =>
    (leftByFailure(s.res) || (leftOut.has(s.res) && !declaresIt(s))) &&
    (program?.catalogues.some((c) => c.group === s.group && c.exclusive) ?? false);
  // The old half of a replacement whose delete failed (a fault, or its before-delete hook could not read
  // the group): after the failed `up` the engine keeps it pending deletion (`delete: true`) with the roles
  // it recorded before the replacement's create took them over and changed them, until the next `up`
  // deletes it (found by the simulation: `up --replace` of an adopting catalogue, the hook's list dropped).
  const staleHalf = (s: StateRole) => s.pendingDelete && !op.result.ok;
  // An entry the program moved out of a catalogue it keeps, to a resource that took the role over, while the
  // operation failed before the giver's update ran: like a removed resource's, the giver's record outlives
  // the failure, and the next `up` drops it without deleting the role (found by the simulation: an entry
  // moved to an adopting catalogue registered first, another catalogue's list failing in that `up`).
  const entryLeftByFailure = (s: StateRole) => {
    if (op.result.ok || s.key === undefined || program === undefined) return false;
    const c = program.catalogues.find((x) => x.res === s.res);
    return c !== undefined && !(s.key in c.roles) && !Object.values(c.roles).some((e) => e.name === s.name);
  };
  const stale = (s: StateRole) => staleHalf(s) || entryLeftByFailure(s);
  // A resource a `--target`/`--exclude` up left out keeps its record of a role another resource of that
  // up took over (a move whose giver did not run) until it runs again (history 10670): the role as it was
  // before the taker applied its own declaration (a description, settings), so only the taker's record
  // is held to the service's fields.
  const lagging = (res: string) => leftByFailure(res) || leftOut.has(res);
  const recorded = stateRoles(op.postState);
  const takenOverFrom = (s: StateRole) =>
    lagging(s.res) && recorded.some((o) => o.roleId === s.roleId && o.res !== s.res && !lagging(o.res));
  const seen = new Map<number, { holder: string; res: string; stale: boolean }>();
  for (const s of recorded) {
    if (s.roleId === undefined) continue;
    const other = seen.get(s.roleId);
    if (other && !lagging(other.res) && !lagging(s.res) && !other.stale && !stale(s))
      out.push(v("recorded-twice", `role ${s.roleId} is recorded by ${other.holder} and by ${s.holder}`));
    seen.set(s.roleId, { holder: s.holder, res: s.res, stale: stale(s) });
    if (drifted.has(s.roleId) || staleHalf(s)) continue;
    const r = service.get(s.roleId);
    if (!r || r.group !== s.group) {
      if (!r && (deletedPartWay(s) || removedByExclusive(s))) continue;
      if (!r && s.roleId !== undefined && deletedByLeftOutMove(op, s.roleId, lingering, leftOut)) continue;
      out.push(v("state-lies", `${s.holder} records role ${s.roleId} "${s.name}", which the service does not hold`));
      continue;
    }
    if (takenOverFrom(s)) continue;
    const diffs: string[] = [];
    if (r.name !== s.name) diffs.push(`name "${s.name}" (service "${r.name}")`);
    if (s.description !== undefined && r.description !== s.description)
      diffs.push(`description "${s.description}" (service "${r.description}")`);
    for (const [k, val] of Object.entries(s.settings ?? {}))
      if (r.settings[k] !== val) diffs.push(`settings.${k} ${val} (service ${r.settings[k]})`);
    if (s.userCount !== undefined && s.userCount !== r.userCount)
      diffs.push(`userCount ${s.userCount} (service ${r.userCount})`);
    if (s.inUse !== undefined && s.inUse !== r.userCount > 0) diffs.push(`inUse ${s.inUse} (service ${r.userCount})`);
    if (diffs.length) out.push(v("state-lies", `${s.holder}, role ${s.roleId}: state says ${diffs.join(", ")}`));
  }
  return out;
}

/**
 * No orphan: every role of the service is recorded by a resource, or is one the stack does not manage
 * (made by hand, or forgotten with retain), or is the role an unconfirmed create may have made.
 */
export function noOrphans(op: OpRecord, unmanaged: ReadonlySet<number>): Violation[] {
  const roles = stateRoles(op.postState);
  const ids = new Set(roles.map((r) => r.roleId));
  const unconfirmed = new Set(roles.filter((r) => r.roleId === undefined).map((r) => `${r.group}\u0000${r.name}`));
  const out: Violation[] = [];
  op.post.forEach((list, g) => {
    for (const r of list)
      if (!ids.has(r.roleId) && !unmanaged.has(r.roleId) && !unconfirmed.has(`${g}\u0000${r.name}`))
        out.push(
          v(
            "orphan",
            `role ${r.roleId} "${r.name}" of group ${GROUPS[g]} is in the service but in no resource's state`,
          ),
        );
  });
  return out;
}

/** Roles that left the state with retain (forgotten, not deleted) and are still in the service. */
export function released(op: OpRecord): number[] {
  const after = new Set(stateRoles(op.postState).map((r) => r.roleId));
  const service = byId(op.post);
  return stateRoles(op.preState)
    .filter((r) => r.retain && r.roleId !== undefined && !after.has(r.roleId) && service.has(r.roleId))
    .map((r) => r.roleId as number);
}

/**
 * Deletes: no role users hold is ever gone; an `up` deletes only what the program removed (its
 * resource or entry gone, its resource moved to another group) or, for an exclusive catalogue, a role
 * no resource declares; a role moved to a catalogue with `adoptExisting` keeps its ID (unless it was
 * renamed by hand since the last refresh: the catalogue looks for the name the state knows, finds
 * none, and makes it; the state's drift is the user's to refresh first, history 3641); refresh and
 * preview write nothing; destroy deletes only roles the state recorded; a resource the engine replaces
 * (in this operation, or in an earlier one that failed before its delete) deletes the role it had.
 */
export function deletes(
  op: OpRecord,
  program: Program,
  unmanaged: ReadonlySet<number>,
  drifted: ReadonlySet<number>,
  lingering: ReadonlySet<string> = new Set(),
  leftOut: ReadonlySet<string> = new Set(),
): Violation[] {
  const out: Violation[] = [];
  const after = byId(op.post);
  const before = byId(op.pre);
  const owners = new Map(stateRoles(op.preState).flatMap((s) => (s.roleId === undefined ? [] : [[s.roleId, s]])));
  // A resource the engine replaced (`--replace`, `replaceOnChanges`, a replacing Diff) deletes its old role.
  const replaced = new Set(op.result.plan.filter((s) => s.op === "replace").map((s) => resName(s.urn)));
  /** Entry keys the catalogues had before: a name taken by one of them is a rename onto it, not a move. */
  const preKeys = new Set(
    stateRoles(op.preState).flatMap((s) => (s.key === undefined ? [] : [`${s.res}\u0000${s.key}`])),
  );
  for (const [id, r] of before) {
    if (after.has(id)) continue;
    const what = `role ${id} "${r.name}" of group ${GROUPS[r.group]}`;
    if (r.userCount > 0)
      out.push(v("in-use-deleted", `${what}, held by ${r.userCount} users, was deleted by ${op.operation}`));
    if (op.operation === "preview" || op.operation === "refresh") {
      out.push(v("read-only-wrote", `${what} was deleted by a ${op.operation}`));
      continue;
    }
    const owner = owners.get(id);
    if (op.operation === "destroy") {
      if (!owner) out.push(v("unwanted-delete", `${what} was deleted by destroy but no resource recorded it`));
      continue;
    }
    if (!owner) {
      // A Role's unconfirmed create (its reply lost) under `deleteBeforeReplace`: the engine deletes its
      // record first, and that delete deletes the role the lost create made; the replacement makes it again
      // (docs/role.md; found by the simulation, a create whose confirming lists all answered 503).
      const unconfirmed = stateRoles(op.preState).find(
        (s) => s.roleId === undefined && s.key === undefined && s.group === r.group && s.name === r.name,
      );
      if (unconfirmed && program.roles.some((x) => x.res === unconfirmed.res && x.deleteBeforeReplace)) continue;
      const exclusive = program.catalogues.some((c) => c.group === r.group && c.exclusive);
      if (!unmanaged.has(id) || !exclusive)
        out.push(v("unwanted-delete", `${what}, which no resource recorded, was deleted by up`));
      continue;
    }
    if (deletedByLeftOutMove(op, id, lingering, leftOut)) continue; // documented (see there)
    if (replaced.has(owner.res) || owner.pendingDelete) {
      // Its replacement holds the role now (checked by desiredState), unless it was a move (below). A record
      // pending deletion is the old half of a replacement an earlier, failed `up` made (found by the
      // simulation: `up --replace` failed on a fault after its create; the next `up`, with no `--replace`,
      // ends it).
    } else if (owner.key === undefined) {
      const kept = program.roles.find(
        (x) => (x.res === owner.res || x.aliases?.includes(owner.res)) && x.group === owner.group,
      );
      if (kept)
        out.push(
          v(
            "unwanted-delete",
            `${what} of ${owner.holder} was deleted, but the program keeps Role ${kept.res} in its group`,
          ),
        );
    } else {
      // The key is the entry's identity; a key renamed with its name kept (a key new to the catalogue) is too.
      const c = program.catalogues.find((x) => x.res === owner.res && x.group === owner.group);
      const entry =
        c &&
        (c.roles[owner.key] ??
          Object.entries(c.roles).find(([k, e]) => e.name === owner.name && !preKeys.has(`${c.res}\u0000${k}`))?.[1]);
      if (entry)
        out.push(
          v(
            "unwanted-delete",
            `${what} of ${owner.holder} was deleted, but the program keeps it (${c!.res} declares "${entry.name}")`,
          ),
        );
    }
    // A role moved to a catalogue that adopts: the role keeps its ID (or the preview refuses the move).
    const takers = program.catalogues.flatMap((c) =>
      c.adoptExisting && c.group === r.group
        ? Object.entries(c.roles)
            .filter(([k, e]) => e.name === owner.name && !preKeys.has(`${c.res}\u0000${k}`))
            .map(([k]) => `${c.res}.${k}`)
        : [],
    );
    const now = [...after.values()].find((x) => x.group === r.group && x.name === owner.name);
    if (takers.length && now && op.result.ok && !drifted.has(id))
      out.push(
        v(
          "move-lost-id",
          `${what} moved to ${takers.join(", ")} (adoptExisting) was deleted and made again as ${now.roleId}`,
        ),
      );
  }
  return out;
}

/** Write requests (creates, updates, deletes) the service accepted during the operation. */
export function writes(op: OpRecord): number {
  return op.requests.filter(
    (e) =>
      (e.method === "POST" || e.method === "PUT") &&
      (e.route.endsWith("/roles") || e.route.endsWith("/delete-roles")) &&
      e.status >= 200 &&
      e.status < 300,
  ).length;
}

/** A preview or a refresh sends no write request at all (whatever its answer). */
export function readOnly(op: OpRecord): Violation[] {
  const sent = op.requests.filter(
    (e) =>
      (e.method === "POST" || e.method === "PUT") && (e.route.endsWith("/roles") || e.route.endsWith("/delete-roles")),
  );
  return sent.length
    ? [v("read-only-wrote", `${op.operation} sent ${sent.map((e) => `${e.method} ${e.path}`).join(", ")}`)]
    : [];
}

/** No credential in the state file, the outputs, the errors or the logs of an operation. */
export function noCredentials(op: OpRecord, tokens: readonly string[]): Violation[] {
  const r: EngineResult = op.result;
  const places: Array<[string, string]> = [
    ["the state file", op.stateText],
    ["the outputs", JSON.stringify(r.outputs)],
    ["the errors", r.errors.join("\n")],
    ["the diagnostics", JSON.stringify(r.diagnostics)],
    ["the program's output", r.stdout + r.stderr],
    ["the provider's output", r.providerHost.stdout + r.providerHost.stderr],
  ];
  return places.flatMap(([where, text]) =>
    tokens
      .filter((t) => text.includes(t))
      .map(() => v("credential-leak", `a token is in ${where} after ${op.operation}`)),
  );
}

/**
 * After a successful `up`, the service and the state hold what the program declares (roles edited by
 * hand since the last refresh excepted: a plain `up` compares the program with the state).
 */
export function desiredState(op: OpRecord, program: Program, drifted: ReadonlySet<number>): Violation[] {
  const out: Violation[] = [];
  const roles = stateRoles(op.postState);
  const find = (g: GroupIx, name: string): ServiceRole | undefined => op.post[g].find((r) => r.name === name);
  const check = (
    label: string,
    g: GroupIx,
    d: { name: string; description?: string; settings?: Record<string, boolean> },
    s: StateRole | undefined,
  ) => {
    if (s?.roleId !== undefined && drifted.has(s.roleId)) return;
    if (!s) return out.push(v("not-converged", `${label} "${d.name}" is not in the state after a successful up`));
    if (s.name !== d.name) out.push(v("not-converged", `${label}: state name "${s.name}", program "${d.name}"`));
    const r = find(g, d.name);
    if (!r)
      return out.push(v("not-converged", `${label}: the service holds no role "${d.name}" after a successful up`));
    if (s.roleId !== r.roleId)
      out.push(v("not-converged", `${label}: state role ${s.roleId}, service holds "${d.name}" as ${r.roleId}`));
    if (r.description !== (d.description ?? ""))
      out.push(
        v("not-converged", `${label}: service description "${r.description}", program "${d.description ?? ""}"`),
      );
    for (const [k, val] of Object.entries(d.settings ?? {}))
      if (r.settings[k] !== val)
        out.push(v("not-converged", `${label}: service settings.${k} ${r.settings[k]}, program ${val}`));
  };
  for (const r of program.roles)
    check(
      `Role ${r.res}`,
      r.group,
      r,
      roles.find((s) => s.key === undefined && s.res === r.res && !s.pendingDelete),
    );
  for (const c of program.catalogues)
    for (const [key, e] of Object.entries(c.roles))
      check(
        `${c.res}.${key}`,
        c.group,
        e,
        roles.find((s) => s.res === c.res && s.key === key && !s.pendingDelete),
      );
  return out;
}

/** Refusals the docs name (README "What a preview cannot predict", docs/role.md, docs/group-roles.md). */
export const DOCUMENTED: ReadonlyArray<readonly [string, RegExp]> = [
  ["in use", /\bis in use\b|\bare in use\b|is held by \d+ users?/],
  ["in use (delete hook)", /would delete (a role|\d+ roles) that users hold/],
  [
    "retained out of an exclusive catalogue",
    /marked `retain: true` (is|are) removed from `roles`, but this GroupRoles/,
  ],
  ["order (dependsOn)", /`dependsOn`/],
  ["two steps", /two steps/],
  ["name held", /is held by (role|roleId)/],
  ["protected", /protected/],
  ["gone (refresh)", /no longer has this role/],
];

/**
 * Why a fault-free `up` may fail after a green preview: only what no preview can know
 * (docs/design/invariants.md "What no preview can know"). In the simulation nothing happens between a
 * deploy's preview and its `up`, and its programs keep the delete hooks on, so nothing: every such
 * failure is a violation, `dependsOn` advice included (before 2026-11-28 any refusal naming `dependsOn`
 * counted as documented) and, since 2026-12-01, a `Role` or `GroupRoles` removed from the program while
 * users hold a role (the before-delete hook refuses it in the preview: docs/delete-hooks.md).
 */
export const NO_PREVIEW_CAN_KNOW: ReadonlyArray<readonly [string, RegExp]> = [];

/** The entry of {@link NO_PREVIEW_CAN_KNOW} an `up`'s errors are, if any. */
export function unknowableInPreview(errors: readonly string[]): string | undefined {
  const text = errors.join("\n");
  return NO_PREVIEW_CAN_KNOW.find(([, re]) => re.test(text))?.[0];
}

/** The documented refusal an error is, if it is one. */
export function documented(errors: readonly string[]): string | undefined {
  const text = errors.join("\n");
  return DOCUMENTED.find(([, re]) => re.test(text))?.[0];
}

/** Errors that are not a refusal with a message but a crash (a bug, whatever the input). */
const CRASH =
  /TypeError|ReferenceError|Cannot read propert|is not a function|is not iterable|Maximum call stack|Unexpected token|\bundefined\b is/;

export function noCrash(op: OpRecord): Violation[] {
  const text = op.result.errors.join("\n");
  return CRASH.test(text) ? [v("crash", `${op.operation} failed with an internal error: ${text.slice(0, 400)}`)] : [];
}
