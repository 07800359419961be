/**
 * Roles and names that move between resources of one program in one `up`, where the outcome could
 * depend on the engine's schedule, as a matrix: both registration orders at `--parallel` 1, 2 and the
 * default (the moves that cannot: ./group-roles-moves.test.ts). Through the engine stand-in, which
 * schedules as the Go engine does (one registration's Check and Diff at a time, `--parallel` workers,
 * the SDK's one-at-a-time registrations at `--parallel 1`). The rule (docs/design/engine-order.md): a
 * move keeps the role's ID when the resource that takes it registers first; in the other order the
 * preview refuses it, naming the `dependsOn` that reverses the order. Outcomes are read from the
 * service (its list and request log) and the state. The rules themselves (which registration decides,
 * what waits for what) are pinned at the provider level, where every interleaving costs nothing
 * (test/provider/group-roles-diff-moves.test.ts, registration-order, deployment-ledger, role-renames).
 */
import { describe, expect, it } from "vitest";
import {
  catalogueSpec,
  roleSpec,
  runMixed,
  specStackPerFile,
  startFrom,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

type Entries = GroupRolesSpec["args"]["roles"];
const cat = catalogueSpec;
const role = roleSpec;
const CATALOGUES_FIRST = { "roles-spec:order": "catalogues-first" };
/** `--parallel` 1, 2 and the default (undefined: 4 per CPU, as the CLI). */
const PARALLELS = [1, 2, undefined] as const;

const up = async (cats: GroupRolesSpec[], roles: RoleSpec[] = [], config: Record<string, string> = {}) => {
  const r = await runMixed(s, "up", cats, roles, config);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};
/** Name to roleId, as the service lists the group. */
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
type Outputs = { resources: Array<{ type: string; urn: string; id?: string; outputs: Record<string, unknown> }> };
/** The roles a GroupRoles' state holds: key to roleId. */
const stateOf = (r: Outputs, name: string) => {
  const res = r.resources.find((x) => x.type.endsWith("GroupRoles") && x.urn.endsWith(`::${name}`));
  const roles = (res?.outputs["roles"] ?? {}) as Record<string, { roleId: number }>;
  return Object.fromEntries(Object.entries(roles).map(([k, v]) => [k, v.roleId]));
};
/** The stack after `up(cats, roles)` from empty: made once per file and name, then restored (`startFrom`). */
const start = (name: string, cats: GroupRolesSpec[], roles: RoleSpec[] = []) => startFrom(s, name, cats, roles);
const deletes = async () => (await s.h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"] ?? 0;
/**
 * The next run of the same program plans nothing and sends only one list per group it declares (the
 * credential check, which an exclusive catalogue's own list is too).
 */
const expectSettled = async (cats: GroupRolesSpec[], roles: RoleSpec[] = []) => {
  await s.h.clearRequests();
  const preview = await runMixed(s, "preview", cats, roles);
  expect(preview.ok, preview.errors.join("\n")).toBe(true);
  expect(preview.planText).toBe("");
  const groups = new Set([...cats, ...roles].map((r) => r.args.groupId)).size;
  expect((await s.h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": groups });
};
/** A preview refused, its error naming `parts`, nothing written. */
const expectRefused = async (
  cats: GroupRolesSpec[],
  roles: RoleSpec[],
  parts: string[],
  config: Record<string, string> = {},
) => {
  await s.h.clearRequests();
  const preview = await runMixed(s, "preview", cats, roles, config);
  expect(preview.ok).toBe(false);
  for (const part of parts) expect(preview.errors.join("\n")).toContain(part);
  expect((await s.h.requests()).entries.filter((e) => e.method !== "GET")).toEqual([]);
  return preview;
};

describe.each(PARALLELS)("moves whose outcome could depend on the schedule, --parallel %s", (parallel) => {
  it("an entry moved to a catalogue with adoptExisting: kept when the receiver registers first, else refused", async () => {
    const one = (roles: Entries, opts?: Record<string, unknown>) => cat("one", roles, {}, opts);
    const two = (roles: Entries) => cat("two", roles, { adoptExisting: true });
    await start("one {a, b}, two {c}", [one({ a: { name: "A" }, b: { name: "B" } }), two({ c: { name: "C" } })]);
    const before = await held();
    s.parallel = parallel;
    // Nothing orders the giver's update after the receiver's takeover: refused whichever registers first
    // (the real engine may register either first; each side's message names the `dependsOn`).
    const giverFirst = [one({ b: { name: "B" } }), two({ c: { name: "C" }, a: { name: "A" } })];
    await expectRefused(giverFirst, [], ['role "A"', "the resource option `dependsOn`"]);
    // The receiver first (declared first, and the giver depends on it, as the refusal says).
    const receiverFirst = [
      two({ c: { name: "C" }, a: { name: "A" } }),
      one({ b: { name: "B" } }, { dependsOn: ["two"] }),
    ];
    await s.h.clearRequests();
    const moved = await up(receiverFirst);
    expect(await held()).toEqual(before);
    expect(await deletes()).toBe(0);
    expect(stateOf(moved, "two")).toEqual({ c: before.C, a: before.A });
    expect(stateOf(moved, "one")).toEqual({ b: before.B });
    await expectSettled(receiverFirst);
  });

  it("two catalogues each giving an entry to a third: every ID kept when the receiver registers first", async () => {
    const giver = (name: string, roles: Entries, opts?: Record<string, unknown>) => cat(name, roles, {}, opts);
    const receiver = (roles: Entries) => cat("third", roles, { adoptExisting: true });
    await start("g1 {a, x}, g2 {b, y}, third {c}", [
      giver("g1", { a: { name: "A" }, x: { name: "X" } }),
      giver("g2", { b: { name: "B" }, y: { name: "Y" } }),
      receiver({ c: { name: "C" } }),
    ]);
    const before = await held();
    s.parallel = parallel;
    const taken = receiver({ c: { name: "C" }, a: { name: "A" }, b: { name: "B" } });
    const givers = [giver("g1", { x: { name: "X" } }), giver("g2", { y: { name: "Y" } })];
    // Refused whichever registers first; when the receiver comes last, one refusal names both givers
    // (fixing one and re-running would only reveal the other): provider/shared/registration-order.ts.
    const refused = await expectRefused([...givers, taken], [], ["the resource option `dependsOn`"]);
    expect(refused.errors.join("\n")).toMatch(/role "[AB]"/);
    const ordered = [taken, ...givers.map((g) => ({ ...g, opts: { dependsOn: ["third"] } }))];
    await s.h.clearRequests();
    const r = await up(ordered);
    expect(await held()).toEqual(before);
    expect(await deletes()).toBe(0);
    expect(stateOf(r, "third")).toEqual({ c: before.C, a: before.A, b: before.B });
    await expectSettled(ordered);
  });

  it("a name one Role gives up and another takes: applied when the taker has the freer in its dependsOn", async () => {
    const alpha = (name: string, opts?: Record<string, unknown>) => role("alpha", name, opts);
    const beta = (name: string, opts?: Record<string, unknown>) => role("beta", name, opts);
    await start("alpha Alpha, beta Beta", [], [alpha("Alpha"), beta("Beta")]);
    const before = await held();
    s.parallel = parallel;
    // alpha takes "Beta", which beta gives up: alpha first would meet the name still held.
    // Refused whichever registers first: alpha's own Diff sees "Beta" held and beta not in its dependsOn.
    await expectRefused([], [alpha("Beta"), beta("Gamma")], ['renaming role "Alpha" to "Beta"', "`dependsOn`"]);
    const ordered = [beta("Gamma"), alpha("Beta", { dependsOn: ["beta"] })];
    await up([], ordered);
    expect(await held()).toEqual({ Beta: before.Alpha, Gamma: before.Beta });
    await expectSettled([], ordered);
  });

  it("an exclusive catalogue beside a Role of its group: the Role's role stays when the Role registers first", async () => {
    const standalone = role("standalone", "Standalone");
    const exclusive = (opts?: Record<string, unknown>) =>
      cat("catalogue", { a: { name: "A" } }, { exclusive: true }, opts);
    await start("catalogue {a}, Role Standalone", [cat("catalogue", { a: { name: "A" } })], [standalone]);
    const before = await held();
    s.parallel = parallel;
    // The catalogue first cannot see the Role keep its role: refused, naming the dependsOn (in the
    // program, sdk/group-order.ts), and so is the catalogue declared after it that does not depend on it.
    await expectRefused([exclusive()], [standalone], ["is declared after GroupRoles 'catalogue'"], CATALOGUES_FIRST);
    await expectRefused([exclusive()], [standalone], ["but does not depend on Role 'standalone'"]);
    await s.h.clearRequests();
    await up([exclusive({ dependsOn: ["standalone"] })], [standalone]);
    expect(await held()).toEqual(before);
    expect(await deletes()).toBe(0);
    await expectSettled([exclusive({ dependsOn: ["standalone"] })], [standalone]);
  });
});
