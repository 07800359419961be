import { describe, expect, it } from "vitest";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

describe("in-use roles are never deleted", () => {
  it("delete is refused with the role's name, id, user count and the way out; nothing is deleted", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 3);
    // An `up` (the program runs: a Check of this deployment) whose program no longer declares the role.
    await provider.check({}, { groupId: 42, name: "Other" });
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

  it("in a destroy (no Check in the deployment) the way out is a destroy's, and the message says what else went", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    const other = await provider.create({ groupId: 42, name: "Other" });
    await h.setUsers(42, outs.roleId, 3);
    await provider.delete(other.id, other.outs);
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(
      `role "Agents" (id ${id}) is in use by 3 users and cannot be deleted; it was not deleted`,
    );
    expect(err.message).toContain(
      "give its resource the option `retainOnDelete: true` and run `pulumi destroy --run-program` again",
    );
    // Called as the dynamic-provider host calls it, with no URN: the message says where the URN is.
    expect(err.message).toContain(
      "`pulumi state delete '<URN>'`, with the URN of the resource this error is listed under",
    );
    expect(err.message).not.toContain("declare it again");
    expect(err.message).toContain(
      `This destroy deleted 1 role so far: "Other" (the Role of group 42, id ${other.id}).`,
    );
    expect(err.message).toContain(
      "run the same `pulumi destroy` again (with `--run-program` if you gave it): it deletes only what is left",
    );
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Agents"]);
  });

  it("a list that says a role is in use but not by how many counts one user, never zero", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 3);
    // userCount is optional in the service's documentation: left out, or null
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "override", fields: { userCount: null } });
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ inUse: true, userCount: 1 });
  });

  it("a replacement (group change) of an in-use role fails the diff, so preview shows it", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 1);
    await provider.check(outs, { groupId: 43, name: "Agents" }); // the engine checks before it diffs
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
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`role "Agents" (id ${id}) is in use by users and cannot be deleted`);
  });

  it("a delete refused for another reason says so, not that the role is in use", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "status", status: 403 });
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.code).toBe("ERR_FORBIDDEN");
    expect(err.message).toContain(`deleting role "Agents" (id ${id}): `);
    expect(err.message).not.toContain("in use");
  });

  it("a role deleted by hand after the check is success: nothing left to delete", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "status", status: 404 });
    await provider.delete(id, outs);
  });

  it("when the in-use check cannot be made, delete and replace fail naming it, and nothing changes", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 403, times: 0 });
    const del = await provider.delete(id, outs).catch((e) => e);
    expect(del.message).toContain(`deleting role "Agents" (id ${id}): checking whether it is in use: `);
    const moved = await provider.diff(id, outs, { groupId: 43, name: "Agents" }).catch((e) => e);
    expect(moved.message).toContain(`replacing role "Agents" (id ${id}): checking whether it is in use: `);
    await h.admin("DELETE", "/faults");
    expect(await h.listRoles(42)).toHaveLength(1);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
  });

  it("an in-use role missing from a truncated list is looked up again and still refused", async () => {
    await provider.create({ groupId: 42, name: "First" });
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.setUsers(42, outs.roleId, 2);
    // the list loses its last item (this role) once; its details and a second list show it
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape" });
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(`role "Agents" (id ${id}) is in use by 2 users`);
  });

  it("a role that has details but stays missing from the list fails the delete, saying so", async () => {
    await provider.create({ groupId: 42, name: "First" });
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape", times: 0 });
    const err = await provider.delete(id, outs).catch((e) => e);
    expect(err.code).toBe("ERR_UNEXPECTED_REPLY");
    const said = `role ${outs.roleId} has details but is missing from the list of group 42`;
    expect(err.message).toContain(`GET /api/v0/groups/42/roles: ${said}`);
    await h.admin("DELETE", "/faults");
    expect(await h.listRoles(42)).toHaveLength(2);
  });

  it("a group the service says it no longer knows: the role is gone, nothing to delete", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    const gone = { method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 404 };
    await h.fault({ ...gone, code: "group_not_found" });
    await provider.delete(id, outs);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
  });

  it("a 404 on the group's list that does not say the group is gone fails the delete, naming the URL", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 404 });
    const err = (await provider.delete(id, outs).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_NOT_FOUND");
    expect(err.message).toContain(`GET ${h.emu.baseUrl}/api/v0/groups/42/roles answered 404`);
    expect(err.message).toContain("Check grouproles:baseUrl");
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
    expect(await h.listRoles(42)).toEqual([expect.objectContaining({ roleId: outs.roleId })]);
  });

  it("a role missing from a truncated list whose details then fail is not taken for gone", async () => {
    await provider.create({ groupId: 42, name: "First" });
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    // the list loses its last item (this role), and its details answer 403
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape" });
    await h.fault({ method: "GET", path: `/api/v0/groups/42/roles/${outs.roleId}`, action: "status", status: 403 });
    await expect(provider.delete(id, outs)).rejects.toThrow(/ERR_FORBIDDEN|403/);
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["First", "Agents"]);
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
