/**
 * Creates that ended half-way, through the engine stand-in: Pulumi keeps them in state as partial
 * creates (the provider's init error, with `__provider`), and the next `up` finishes the job with no
 * hand work, no duplicate and no guess.
 */
import { describe, expect } from "vitest";
import {
  isGroupRolesType,
  rolePlan,
  runSpec,
  kindTests,
  SDK_KINDS,
  specStackPerFile,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;

const support: RoleSpec = {
  name: "support",
  args: { groupId: 42, name: "Support", description: "First line", settings: { viewVideo: true } },
};
const LIST = { method: "GET", path: "/api/v0/groups/42/roles" };
const roleState = (r: {
  resources: Array<{ type: string; id?: string; outputs: Record<string, unknown>; initErrors?: string[] }>;
}) => r.resources.filter((x) => isGroupRolesType(x.type, "Role"));

// With the dynamic resources and with the resource plugin's: each scenario with one kind (the kinds taking turns), both
// where the kinds differ; through the real CLI every scenario with both (`kindTests`).
describe.each(SDK_KINDS)("partial creates, %s resources", (sdk) => {
  specStackPerFile((stack) => (s = stack), sdk);
  const { once, both } = kindTests(sdk);

  both(
    "a lost create reply while the group cannot be listed: kept as unconfirmed, then adopted, exactly one role",
    async () => {
      await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-after" });
      await s.h.fault({ ...LIST, action: "status", status: 503, times: 0 });
      const first = await runSpec(s, "up", [support]);
      expect(first.ok).toBe(false);
      expect(first.errors.join("\n")).toContain('creating role "Support" in group 42: no reply');
      expect(first.errors.join("\n")).toContain("the next `pulumi up` adopts it if it was created");
      const kept = roleState(first);
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ id: "42/unconfirmed", initErrors: [expect.stringContaining("no reply")] });
      // The record carries the serialized provider, so refresh or destroy of it can load the provider.
      if (sdk === "dynamic")
        expect(kept[0]!.outputs["__provider"]).toEqual(expect.stringContaining("pulumi-grouproles/provider"));
      await s.h.admin("DELETE", "/faults");

      expect(rolePlan(await runSpec(s, "preview", [support]))).toEqual(["+- replace support"]);
      const second = await runSpec(s, "up", [support]);
      expect(second.ok, second.errors.join("\n")).toBe(true);
      const roles = await s.h.listRoles(42);
      expect(roles.map((r) => r.name)).toEqual(["Support"]);
      expect(roleState(second).map((r) => r.id)).toEqual([`42/${roles[0]!.roleId}`]);
      expect(
        (await s.h.requests()).entries.filter((e) => e.method === "POST" && e.route.endsWith("/roles")),
      ).toHaveLength(1);
      expect(rolePlan(await runSpec(s, "preview", [support]))).toEqual([]);
    },
  );

  once("an unconfirmed create that made nothing is created by the next up", async () => {
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-before" });
    // drop-before is retried as safe; make every attempt fail, and the list too.
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "status", status: 502, times: 0 });
    await s.h.fault({ ...LIST, action: "status", status: 503, times: 0 });
    const first = await runSpec(s, "up", [support]);
    expect(first.ok).toBe(false);
    expect(roleState(first).map((r) => r.id)).toEqual(["42/unconfirmed"]);
    expect(await s.h.listRoles(42).catch(() => [])).toEqual([]);
    await s.h.admin("DELETE", "/faults");
    const second = await runSpec(s, "up", [support]);
    expect(second.ok, second.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).map((r) => r.name)).toEqual(["Support"]);
  });

  once("an unconfirmed create renamed in the program before the next up: the role is adopted and renamed", async () => {
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-after" });
    await s.h.fault({ ...LIST, action: "status", status: 503, times: 0 });
    expect((await runSpec(s, "up", [support])).ok).toBe(false);
    await s.h.admin("DELETE", "/faults");
    const renamed = { ...support, args: { ...support.args, name: "Support Tier 1" } };
    const second = await runSpec(s, "up", [renamed]);
    expect(second.ok, second.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).map((r) => r.name)).toEqual(["Support Tier 1"]);
  });

  once("destroy of an unconfirmed record deletes the role its create made", async () => {
    await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "drop-after" });
    await s.h.fault({ ...LIST, action: "status", status: 503, times: 0 });
    expect((await runSpec(s, "up", [support])).ok).toBe(false);
    await s.h.admin("DELETE", "/faults");
    const destroyed = await runSpec(s, "destroy", []);
    expect(destroyed.ok, destroyed.errors.join("\n")).toBe(true);
    expect(await s.h.listRoles(42)).toEqual([]);
  });

  both(
    "created, but reading it back failed: kept with its real id; the next up finishes it with an update",
    async () => {
      // A reply that says the role is in use (the vendor's example reply) needs the list for its userCount.
      await s.h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "override", fields: { inUse: true } });
      // The credential check's list and the one that confirms the create's ID answer; every later one fails.
      await s.h.fault({ ...LIST, action: "status", status: 503, times: 0, skip: 2 });
      const first = await runSpec(s, "up", [support]);
      expect(first.ok).toBe(false);
      const [kept] = roleState(first);
      const [made] = await (async () => {
        await s.h.admin("DELETE", "/faults");
        return s.h.listRoles(42);
      })();
      expect(kept).toMatchObject({
        id: `42/${made!.roleId}`,
        initErrors: [expect.stringContaining("reading it back failed")],
      });
      if (sdk === "dynamic")
        expect(kept!.outputs["__provider"]).toEqual(expect.stringContaining("pulumi-grouproles/provider"));

      const second = await runSpec(s, "up", [support]);
      expect(second.ok, second.errors.join("\n")).toBe(true);
      expect(rolePlan(second)).toEqual(["~ update support"]);
      expect(roleState(second)[0]).not.toHaveProperty("initErrors");
      expect((await s.h.listRoles(42)).map((r) => r.roleId)).toEqual([made!.roleId]);
      const refreshed = await runSpec(s, "refresh", []);
      expect(rolePlan(refreshed)).toEqual([]);
    },
  );
});
