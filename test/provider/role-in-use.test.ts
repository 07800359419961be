import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { provider, providerAgainstEmulator, newDeployment } from "./provider-harness";
import type { EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await providerAgainstEmulator();
});
afterAll(() => h.close());
beforeEach(() => newDeployment(h));

describe("in-use roles are never deleted", () => {
  it("delete is refused with the role's name, id, user count and the way out; nothing is deleted", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 3);
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`role "Agents" (id ${id}) is in use by 3 users`);
    expect(err.message).toContain("unassign its users");
    // The way out that works for a resource already removed from the program: declare it again with
    // retainOnDelete, up, remove it. (`protect` would only refuse the delete again.)
    expect(err.message).toContain("declare it again with the resource option `retainOnDelete: true`");
    expect(err.message).not.toContain("protect");
    expect(await h.listRoles(42)).toHaveLength(1);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
  });

  it("a replacement (group change) of an in-use role fails the diff, so preview shows it", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 1);
    const err = await provider.diff(id, outs, { groupId: 43, name: "Agents" }).catch((e) => e);
    expect(err.message).toContain("is in use by 1 user and cannot be replaced: moving it to group 43 would delete it");
    expect(err.message).toContain("declare another Role resource (a new resource name) in group 43");
    expect(err.message).not.toContain("protect");
    expect(await h.listRoles(42)).toHaveLength(1);
    expect(await h.listRoles(43)).toHaveLength(0);
  });

  it("a role assigned between the check and the delete is still refused by the service", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    // the list says unused; the delete itself meets a 409 from the service
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "status", status: 409 });
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.message).toMatch(/in use/);
  });

  it("once unassigned, the role can be deleted", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 2);
    await expect(provider.delete(id, outs)).rejects.toThrow();
    await h.setUsers(42, outs.roleId, 0);
    await provider.delete(id, outs);
    expect(await h.listRoles(42)).toEqual([]);
  });
});
