/**
 * Roles that move between resources of one program in one `up` (DESIGN invariant 8): an entry moved
 * from one GroupRoles to another, a Role replaced by a GroupRoles entry and back. Whatever order the
 * resources register in, and however slow the delete of the resource that lets the role go, the role
 * keeps its ID, the service still holds it, and the next preview is a no-op. Checked through the
 * service (its list and request log), through the engine stand-in and the real provider host.
 */
import { describe, expect, it } from "vitest";
import { runMixed, specStackPerFile, typePrefix, type GroupRolesSpec, type RoleSpec, type Stack } from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

type Entries = GroupRolesSpec["args"]["roles"];
const cat = (name: string, roles: Entries, extra: Partial<GroupRolesSpec["args"]> = {}): GroupRolesSpec => ({
  name,
  args: { groupId: 42, roles, ...extra },
});
const role = (name: string, roleName: string, opts?: Record<string, unknown>): RoleSpec => ({
  name,
  args: { groupId: 42, name: roleName },
  ...(opts ? { opts } : {}),
});
const CATALOGUES_FIRST = { "roles-spec:order": "catalogues-first" };

const up = async (cats: GroupRolesSpec[], roles: RoleSpec[] = [], config: Record<string, string> = {}) => {
  const r = await runMixed(s, "up", cats, roles, config);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};
/** Name to roleId, as the service lists the group. */
const held = async () => Object.fromEntries((await s.h.listRoles(42)).map((r) => [r.name, r.roleId]));
type Outputs = { resources: Array<{ type: string; urn: string; outputs: Record<string, unknown> }> };
/** The roles a GroupRoles' state holds: key to roleId. */
const stateOf = (r: Outputs, name: string) => {
  const res = r.resources.find((x) => x.type.endsWith("GroupRoles") && x.urn.endsWith(`::${name}`));
  const roles = (res?.outputs["roles"] ?? {}) as Record<string, { roleId: number }>;
  return Object.fromEntries(Object.entries(roles).map(([k, v]) => [k, v.roleId]));
};
/** The stack after `up(cats)` from empty: made once per file and name, then restored (see harness `baseline`). */
const start = (name: string, cats: GroupRolesSpec[], roles: RoleSpec[] = []) =>
  s.baseline(name, async () => void (await up(cats, roles)));
const deletes = async () => (await s.h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"] ?? 0;
/** The next run of the same program plans nothing and sends nothing. */
const expectSettled = async (cats: GroupRolesSpec[], roles: RoleSpec[] = [], config: Record<string, string> = {}) => {
  await s.h.clearRequests();
  const preview = await runMixed(s, "preview", cats, roles, config);
  expect(preview.ok, preview.errors.join("\n")).toBe(true);
  expect(preview.planText).toBe("");
  expect((await s.h.requests()).total).toBe(0);
};

describe("a role moved between resources of one program keeps its ID and is never deleted", () => {
  it("an entry moved to a catalogue with adoptExisting, in either order, while the delete is slow and retried", async () => {
    const one = (roles: Entries) => cat("one", roles);
    const two = (roles: Entries) => cat("two", roles, { adoptExisting: true });
    for (const first of ["two", "one"]) {
      await start("one {a, b}, two {c} adopting", [
        one({ a: { name: "A" }, b: { name: "B" } }),
        two({ c: { name: "C" } }),
      ]);
      const before = await held();
      // Two 503s on delete-roles: the old catalogue's delete is retried, the window the race needed.
      await s.h.fault({
        method: "POST",
        path: "/api/v0/groups/42/delete-roles",
        action: "status",
        status: 503,
        times: 2,
      });
      const pair = [two({ c: { name: "C" }, a: { name: "A" } }), one({ b: { name: "B" } })];
      const next = first === "two" ? pair : pair.reverse();
      await s.h.clearRequests();
      const moved = await up(next);
      expect(await held()).toEqual(before);
      expect(await deletes()).toBe(0);
      expect(stateOf(moved, "two")).toEqual({ c: before.C, a: before.A });
      expect(stateOf(moved, "one")).toEqual({ b: before.B });
      await expectSettled(next);
    }
  });

  it("an entry moved to a catalogue without adoptExisting: the preview fails in either order and says what works", async () => {
    await start("one {a}, two {c}", [cat("one", { a: { name: "A" } }), cat("two", { c: { name: "C" } })]);
    const before = await held();
    // Registration order follows input serialization, not the program's order: both are tried.
    for (const order of [
      [cat("two", { c: { name: "C" }, a: { name: "A" } }), cat("one", {})],
      [cat("one", {}), cat("two", { c: { name: "C" }, a: { name: "A" } })],
    ]) {
      await s.h.clearRequests();
      const preview = await runMixed(s, "preview", order);
      expect(preview.ok).toBe(false);
      const message = preview.errors.join("\n");
      expect(message).toContain(`roles.a: "A" is held by roleId ${before.A}`);
      expect(message).toContain("`adoptExisting: true` on this resource");
      // The preview's one list of the group (credentials and names), and no write.
      expect((await s.h.requests()).entries.map((e) => e.method)).toEqual(["GET"]);
    }
    expect(await held()).toEqual(before);
  });

  it("a move whose receiver fails (refused, or a bad entry) deletes nothing: the role stays with its sender", async () => {
    for (const receiver of [
      cat("two", { c: { name: "C" }, a: { name: "A" } }), // no adoptExisting: refused
      cat("two", { c: { name: "C" }, a: { name: "A" }, bad: { name: "x".repeat(71) } }, { adoptExisting: true }),
    ]) {
      await start("one {a, b}, two {c}", [
        cat("one", { a: { name: "A" }, b: { name: "B" } }),
        cat("two", { c: { name: "C" } }),
      ]);
      const before = await held();
      await s.h.clearRequests();
      // `up` without a preview first (--skip-preview): the steps run, and one of them fails.
      const r = await runMixed(s, "up", [cat("one", { b: { name: "B" } }), receiver]);
      expect(r.ok).toBe(false);
      expect(await held()).toEqual(before);
      expect(await deletes()).toBe(0);
      expect(stateOf(r, "one")).toEqual({ a: before.A, b: before.B });
      expect(stateOf(r, "two")).toEqual({ c: before.C });
    }
  });

  it("a role users hold, moved in either order: moved whole, or refused in the preview; never in two states", async () => {
    for (const first of ["two", "one"]) {
      await start("one {a, b}, two {c}", [
        cat("one", { a: { name: "A" }, b: { name: "B" } }),
        cat("two", { c: { name: "C" } }),
      ]);
      const before = await held();
      await s.h.setUsers(42, before.A!, 2);
      const pair = [
        cat("two", { c: { name: "C" }, a: { name: "A" } }, { adoptExisting: true }),
        cat("one", { b: { name: "B" } }),
      ];
      const next = first === "two" ? pair : pair.reverse();
      const preview = await runMixed(s, "preview", next);
      const r = await runMixed(s, "up", next);
      expect(r.ok, r.errors.join("\n")).toBe(preview.ok);
      if (!preview.ok) expect(preview.errors.join("\n")).toContain('roles.a: "A" (roleId');
      expect(await held()).toEqual(before);
      const holders = ["one", "two"].filter((name) => Object.values(stateOf(r, name)).includes(before.A!));
      expect(holders).toEqual([r.ok ? "two" : "one"]);
    }
  });

  it("a receiver that registers only after a slow Role it depends on still gets the moved role", async () => {
    await up([cat("one", { m: { name: "Mover" }, k: { name: "Keep" } })]);
    const before = await held();
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "latency", latencyMs: 1500 });
    const next = [
      cat("one", { k: { name: "Keep" } }),
      { ...cat("two", { m: { name: "Mover" } }, { adoptExisting: true }), opts: { dependsOn: ["slow"] } },
    ];
    await s.h.clearRequests();
    const r = await up(next, [role("slow", "Slow")]);
    expect((await held()).Mover).toBe(before.Mover);
    expect(await deletes()).toBe(0);
    expect(stateOf(r, "two")).toEqual({ m: before.Mover });
  });

  it("two catalogues exchanging entries: one up, no wait on each other, every ID kept", async () => {
    await up([cat("one", { x: { name: "X" } }), cat("two", { y: { name: "Y" } })]);
    const before = await held();
    const swapped = [
      cat("one", { y: { name: "Y" } }, { adoptExisting: true }),
      cat("two", { x: { name: "X" } }, { adoptExisting: true }),
    ];
    const started = Date.now();
    const r = await up(swapped);
    expect(Date.now() - started).toBeLessThan(30_000); // not the 120 s bound of a wait on each other
    expect(await held()).toEqual(before);
    expect(stateOf(r, "one")).toEqual({ y: before.Y });
    expect(stateOf(r, "two")).toEqual({ x: before.X });
  });

  it("a move whose receiver fails after the sender let go keeps the role in the receiver's state", async () => {
    await start("one {m, k}, two {c}", [
      cat("one", { m: { name: "Mover" }, k: { name: "Keep" } }),
      cat("two", { c: { name: "C" } }),
    ]);
    const before = await held();
    // The receiver's PUT (converging the role it takes over) is refused.
    await s.h.fault({ method: "PUT", path: "/api/v0/groups/42/roles", action: "status", status: 422 });
    const next = [
      cat("one", { k: { name: "Keep" } }),
      cat("two", { c: { name: "C" }, m: { name: "Mover", description: "moved" } }, { adoptExisting: true }),
    ];
    const r = await runMixed(s, "up", next);
    expect(r.ok).toBe(false);
    expect(await held()).toEqual(before);
    const holders = ["one", "two"].filter((name) => Object.values(stateOf(r, name)).includes(before.Mover!));
    expect(holders).toHaveLength(1);
    await s.h.admin("DELETE", "/faults");
    const again = await up(next);
    expect(stateOf(again, "two")).toEqual({ c: before.C, m: before.Mover });
    expect(await held()).toEqual(before);
  });

  it("a move out of a catalogue that is replaced (groupId changed) keeps the role", async () => {
    await start("one {m, k}, two {c}", [
      cat("one", { m: { name: "Mover" }, k: { name: "Keep" } }),
      cat("two", { c: { name: "C" } }),
    ]);
    const before = await held();
    const next = [
      cat("one", { k: { name: "Keep" } }, { groupId: 43 }),
      cat("two", { c: { name: "C" }, m: { name: "Mover" } }, { adoptExisting: true }),
    ];
    const r = await up(next);
    expect((await held()).Mover).toBe(before.Mover);
    expect(stateOf(r, "two")).toEqual({ c: before.C, m: before.Mover });
  });

  it("from Role to GroupRoles without the retainOnDelete step: the Role's delete leaves the adopted role", async () => {
    await up([], [role("support", "Support"), role("billing", "Billing")]);
    const before = await held();
    await s.h.clearRequests();
    const migrated = await up(
      [cat("catalogue", { support: { name: "Support" } }, { adoptExisting: true })],
      [role("billing", "Billing")],
    );
    expect(migrated.planText).toMatch(new RegExp(`- delete\\s+${typePrefix(s.sdk)}Role support`));
    expect(await held()).toEqual(before);
    expect(await deletes()).toBe(0);
    expect(stateOf(migrated, "catalogue")).toEqual({ support: before.Support });
  });

  it("from a GroupRoles entry to a Role of the same name, in either registration order", async () => {
    for (const order of [{}, CATALOGUES_FIRST]) {
      await s.fresh();
      await up([cat("catalogue", { a: { name: "A" }, b: { name: "B" } })], [], order);
      const before = await held();
      await s.h.clearRequests();
      const next = [cat("catalogue", { b: { name: "B" } })];
      const moved = await up(next, [role("a", "A")], order);
      expect(await held()).toEqual(before);
      expect(await deletes()).toBe(0);
      const roleState = moved.resources.find((x) => x.urn.endsWith("Role::a"));
      expect(roleState?.id).toBe(`42/${before.A}`);
      await expectSettled(next, [role("a", "A")], order);
    }
  });
});
