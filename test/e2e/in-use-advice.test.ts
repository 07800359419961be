/**
 * The advice of an in-use refusal, followed as a user would, through the engine stand-in: moving an
 * in-use role to another group, and removing an in-use role from the program.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  catalogueSpec,
  rolePlan,
  runMixed,
  runSpec,
  specProgram,
  stackFor,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
beforeAll(async () => {
  s = await stackFor(specProgram, "roles-spec");
});
afterAll(() => s?.close());
beforeEach(() => s.fresh());

const agents = (groupId: number, opts?: Record<string, unknown>, name = "agents"): RoleSpec => ({
  name,
  args: { groupId, name: "Agents", settings: { viewVideo: true } },
  ...(opts ? { opts } : {}),
});
const up = async (roles: RoleSpec[]) => {
  const r = await runSpec(s, "up", roles);
  expect(r.ok, r.errors.join("\n")).toBe(true);
  return r;
};

describe("moving an in-use role to another group", () => {
  it("is refused in the preview; the advice (retainOnDelete on the old, a new resource) applies", async () => {
    await up([agents(42)]);
    const [held] = await s.h.listRoles(42);
    await s.h.setUsers(42, held!.roleId, 2);

    const preview = await runSpec(s, "preview", [agents(43)]);
    expect(preview.ok).toBe(false);
    const message = preview.errors.join("\n");
    expect(message).toContain(`role "Agents" (id 42/${held!.roleId}) is in use by 2 users and cannot be replaced`);
    expect(message).not.toContain("protect");
    // The refusal is read once, under its resource: the dynamic-provider host prints every failed call to
    // stderr, which Pulumi shows under the stack (issue 53: each refusal twice), and never frames of the
    // package's sources as if it had crashed (issue 43).
    const hostOutput = `${preview.providerHost.stdout}\n${preview.providerHost.stderr}`;
    // The engine's diagnostics (the real CLI shows the host's stderr among them, under the stack) and the
    // stand-in's host stderr; not the CLI's own display of them.
    const shown = [preview.providerHost.stderr, ...preview.diagnostics.map((d) => d.message)].join("\n");
    expect(shown.split("cannot be replaced: moving it to group 43").length - 1).toBe(1);
    expect(hostOutput).not.toContain("RoleInUseError");
    expect(hostOutput).not.toMatch(/^\s+at /m);
    // The advice that used to be given does not work: retainOnDelete still fails the preview.
    expect((await runSpec(s, "preview", [agents(43, { retainOnDelete: true })])).ok).toBe(false);

    // Step 1: keep the old resource as it is, with retainOnDelete; declare a new one in group 43.
    await up([agents(42, { retainOnDelete: true }), agents(43, undefined, "agents-43")]);
    // Step 2: remove the old resource: Pulumi forgets it, the service keeps it with its users.
    const forget = await up([agents(43, undefined, "agents-43")]);
    expect(rolePlan(forget)).toEqual(["- delete agents [retain]"]);
    expect(await s.h.listRoles(42)).toEqual([{ ...held!, inUse: true, userCount: 2 }]);
    expect((await s.h.listRoles(43)).map((r) => r.name)).toEqual(["Agents"]);
  });

  it("once its users are unassigned, the move is a replacement", async () => {
    await up([agents(42)]);
    const [held] = await s.h.listRoles(42);
    await s.h.setUsers(42, held!.roleId, 1);
    expect((await runSpec(s, "preview", [agents(43)])).ok).toBe(false);
    await s.h.setUsers(42, held!.roleId, 0);
    const moved = await up([agents(43)]);
    expect(rolePlan(moved)).toEqual(["+- replace agents [groupId]"]);
    expect(await s.h.listRoles(42)).toEqual([]);
    expect((await s.h.listRoles(43)).map((r) => r.name)).toEqual(["Agents"]);
  });
});

describe("removing an in-use role from the program", () => {
  it("fails the up; declaring it again with retainOnDelete, up, then removing it keeps the role", async () => {
    await up([agents(42), { name: "other", args: { groupId: 42, name: "Other" } }]);
    const held = (await s.h.listRoles(42)).find((r) => r.name === "Agents");
    await s.h.setUsers(42, held!.roleId, 3);
    const removed = await runSpec(s, "up", [{ name: "other", args: { groupId: 42, name: "Other" } }]);
    expect(removed.ok).toBe(false);
    // The before-delete hook's refusal (docs/delete-hooks.md), in the up as in its preview.
    expect(removed.errors.join("\n")).toContain(
      "put the resource back with the `retainOnDelete: true` option, run `pulumi up`, then remove it",
    );

    await up([agents(42, { retainOnDelete: true }), { name: "other", args: { groupId: 42, name: "Other" } }]);
    await up([{ name: "other", args: { groupId: 42, name: "Other" } }]);
    expect((await s.h.listRoles(42)).find((r) => r.roleId === held!.roleId)).toMatchObject({
      name: "Agents",
      userCount: 3,
    });
  });
});

describe("a GroupRoles entry whose key and name change together while users hold its role", () => {
  it("is refused, saying it takes two changes; the two changes keep the role and its users", async () => {
    const team = (roles: Record<string, { name: string }>) => [catalogueSpec("team", roles)];
    const first = await runMixed(s, "up", team({ a: { name: "Agents" } }));
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const [held] = await s.h.listRoles(42);
    await s.h.setUsers(42, held!.roleId, 2);

    const both = await runMixed(s, "preview", team({ a2: { name: "Agents 2" } }));
    expect(both.ok).toBe(false);
    const message = both.errors.join("\n");
    expect(message).toContain("1 role removed from `roles` is in use");
    expect(message).toContain(
      'If you renamed a key and changed its name in the same change (new entries here: a2 ("Agents 2")), that ' +
        "reads as a removal plus a new role: do it in two changes",
    );
    // The advice, followed: the key first (same name, same role), then the name.
    const key = await runMixed(s, "up", team({ a2: { name: "Agents" } }));
    expect(key.ok, key.errors.join("\n")).toBe(true);
    const name = await runMixed(s, "up", team({ a2: { name: "Agents 2" } }));
    expect(name.ok, name.errors.join("\n")).toBe(true);
    expect(await s.h.listRoles(42)).toEqual([{ ...held!, name: "Agents 2", inUse: true, userCount: 2 }]);
  });
});

describe("an in-use role moved between catalogues without the dependsOn a move needs", () => {
  it("is refused naming that dependsOn, in either declaration order; following it keeps the role and its users", async () => {
    const one = (roles: Record<string, { name: string }>, opts?: Record<string, unknown>) =>
      catalogueSpec("one", roles, {}, opts);
    const two = (roles: Record<string, { name: string }>) => catalogueSpec("two", roles, { adoptExisting: true });
    const first = await runMixed(s, "up", [
      one({ a: { name: "Agents" }, b: { name: "Billing" } }),
      two({ c: { name: "C" } }),
    ]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const held = (await s.h.listRoles(42)).find((r) => r.name === "Agents")!;
    await s.h.setUsers(42, held.roleId, 2);

    const moved = [one({ b: { name: "Billing" } }), two({ c: { name: "C" }, a: { name: "Agents" } })];
    for (const declared of [moved, [...moved].reverse()]) {
      const preview = await runMixed(s, "preview", declared, []);
      expect(preview.ok).toBe(false);
      expect(preview.errors.join("\n")).toMatch(/`dependsOn`/);
    }
    // The advice: the catalogue that lets the role go depends on the one that takes it.
    const withOrder = [
      catalogueSpec("two", { c: { name: "C" }, a: { name: "Agents" } }, { adoptExisting: true }),
      catalogueSpec("one", { b: { name: "Billing" } }, {}, { dependsOn: ["two"] }),
    ];
    const applied = await runMixed(s, "up", withOrder, []);
    expect(applied.ok, applied.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).find((r) => r.name === "Agents")).toMatchObject({
      roleId: held.roleId,
      userCount: 2,
    });
  });
});
