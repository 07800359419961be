import { describe, expect, it } from "vitest";
import { pointProviderAt, provider, providerSuite } from "./provider-harness";
import { waitFor } from "../support/wait";

const h = providerSuite();

const role = { groupId: 42, name: "Support", settings: { viewVideo: true } };
const createPath = "/api/v0/groups/42/roles";

describe("a lost create reply never makes a duplicate", () => {
  it("adopts the role when the change was applied but the connection dropped", async () => {
    await h.fault({ method: "POST", path: createPath, action: "drop-after" });
    const { id, outs } = await provider.create({ ...role });
    const roles = await h.listRoles(42);
    expect(roles).toHaveLength(1);
    expect(id).toBe(`42/${roles[0].roleId}`);
    expect(outs.roleId).toBe(roles[0].roleId);
    expect(await h.details(42, roles[0].roleId)).toMatchObject({ name: "Support", settings: { viewVideo: true } });
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBe(1);
  });

  it("adopts the role with the sent name, not another role listed before or after it", async () => {
    await h.api("POST", "/groups/42/roles", [{ name: "Early", settings: { inviteGuest: true } }]);
    await h.fault({ method: "POST", path: createPath, action: "drop-after" });
    // The list that follows the lost reply is slow, so a role made by hand meanwhile is listed after ours.
    await h.fault({ method: "GET", path: createPath, action: "latency", latencyMs: 1500 });
    const creating = provider.create({ ...role });
    const dropped = async () => (await h.requests()).entries.some((e) => e.method === "POST" && e.status === 0);
    await waitFor(dropped, "the dropped create");
    await h.api("POST", "/groups/42/roles", [{ name: "Late", settings: { remoteAssist: true } }]);
    const { id } = await creating;
    const roles = await h.listRoles(42);
    expect(roles.map((r) => r.name)).toEqual(["Early", "Support", "Late"]);
    expect(id).toBe(`42/${roles[1].roleId}`);
    expect((await h.details(42, roles[0].roleId)).settings).toEqual({ inviteGuest: true });
    expect((await h.details(42, roles[1].roleId)).settings).toEqual({ viewVideo: true });
    expect((await h.details(42, roles[2].roleId)).settings).toEqual({ remoteAssist: true });
  });

  it("a create whose confirming list is short (it leaves the new role out) is confirmed by the role's details", async () => {
    // Found by the simulation (docs/simulation.md, a Role create): every list lost its last item, the
    // create was said to have made nothing, and the role it had made was orphaned.
    await h.fault({ method: "GET", path: createPath, action: "wrong-shape", times: 0 });
    const { id, outs } = await provider.create({ ...role });
    await h.admin("DELETE", "/faults");
    const roles = await h.listRoles(42);
    expect(roles).toHaveLength(1);
    expect(id).toBe(`42/${roles[0].roleId}`);
    expect(outs.name).toBe("Support");
  });

  it("a lost reply whose first confirming list is short is settled by a second list (history 57625)", async () => {
    // Found by the simulation (docs/simulation.md): the create was applied, its reply dropped, and the
    // list after it lost its last item (the new role): "nothing was created" was said, the role orphaned.
    await h.api("POST", "/groups/42/roles", [{ name: "Early" }]);
    await h.fault({ method: "POST", path: createPath, action: "drop-after" });
    await h.fault({ method: "GET", path: createPath, action: "wrong-shape" });
    const { id } = await provider.create({ ...role });
    const roles = await h.listRoles(42);
    expect(roles.map((r) => r.name)).toEqual(["Early", "Support"]);
    expect(id).toBe(`42/${roles[1].roleId}`);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBe(2);
  });

  it("a create answered but whose confirming lists all fail is kept as unconfirmed, never said to have made nothing", async () => {
    // Found by the simulation (docs/simulation.md, a Role create): lists answering 429 every time left
    // the role made orphaned, and the next up refused its name.
    await h.fault({ method: "GET", path: createPath, action: "status", status: 429, times: 0 });
    const err = (await provider.create({ ...role }).catch((e: unknown) => e)) as { id?: string; message: string };
    await h.admin("DELETE", "/faults");
    expect(err.id).toBe("42/unconfirmed");
    expect(await h.listRoles(42)).toHaveLength(1);
  });

  it("adopts when the reply is malformed or of the wrong shape", async () => {
    await h.fault({ method: "POST", path: createPath, action: "malformed-json" });
    await provider.create({ ...role });
    await h.fault({ method: "POST", path: createPath, action: "wrong-shape" });
    await provider.create({ ...role, name: "Sales" });
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Support", "Sales"]);
  });

  it("fails naming the role when nothing was created, and a re-run then creates it once", async () => {
    await h.fault({ method: "POST", path: createPath, action: "drop-before" });
    const err = await provider.create({ ...role }).catch((e) => e);
    expect(err.message).toContain('creating role "Support" in group 42: no reply');
    expect(err.message).toContain('holds no role named "Support", so nothing was created');
    expect(await h.listRoles(42)).toEqual([]);
    await provider.create({ ...role });
    expect(await h.listRoles(42)).toHaveLength(1);
  });

  it("a 503 on create is not retried blindly: the group is checked instead", async () => {
    await h.fault({ method: "POST", path: createPath, action: "status", status: 503 });
    await expect(provider.create({ ...role })).rejects.toThrow(/nothing was created/);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBe(1);
  });

  it("when the group cannot be listed after a lost reply, the create is kept as unconfirmed, saying both", async () => {
    await h.fault({ method: "POST", path: createPath, action: "drop-after" });
    await h.fault({ method: "GET", path: createPath, action: "status", status: 403, times: 0 });
    const err = await provider.create({ ...role, __provider: "serialized" }).catch((e) => e);
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.message).toContain('creating role "Support" in group 42: no reply (');
    expect(err.message).toContain("and listing the group to find out whether it was created failed too (");
    expect(err.message).toContain("the next `pulumi up` adopts it if it was created, or creates it");
    // Pulumi's partial-create record: an id, and properties that carry the provider.
    expect(err.id).toBe("42/unconfirmed");
    expect(err.properties).toMatchObject({ groupId: 42, name: "Support", __provider: "serialized" });
  });

  it("a refusal is not a lost reply: the service's reason is given and the group is not searched", async () => {
    await h.fault({ method: "POST", path: createPath, action: "status", status: 400 });
    const err = await provider.create({ ...role }).catch((e) => e);
    expect(err.code).toBe("ERR_VALIDATION");
    expect(err.message).toContain(`creating role "Support" in group 42: POST ${createPath}: service answered 400`);
    expect(err.message).not.toContain("no reply");
    expect((await h.requests()).counts["GET /api/v0/groups/:groupId/roles"]).toBeUndefined();
  });

  it("a create that could not connect is not a lost reply either", async () => {
    const down = { "grouproles:baseUrl": "http://127.0.0.1:9", "grouproles:accessToken": h.emu.token };
    await provider.configure({ config: { get: (k: string) => down[k as keyof typeof down] } });
    try {
      const err = await provider.create({ ...role }).catch((e) => e);
      expect(err.code).toBe("ERR_CONNECTION");
      expect(err.message).toContain('creating role "Support" in group 42: ');
      expect(err.message).not.toContain("no reply");
    } finally {
      await pointProviderAt(h);
    }
  });

  it("a create refused with 429 is retried after Retry-After and succeeds once", async () => {
    await h.fault({ method: "POST", path: createPath, action: "status", status: 429, retryAfter: "0" });
    await provider.create({ ...role });
    expect(await h.listRoles(42)).toHaveLength(1);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBe(2);
  });
});

describe("a lost delete reply: settled by the role's own read", () => {
  const deletePath = "/api/v0/groups/42/delete-roles";

  it("applied but unanswered on every attempt: done, the role is gone", async () => {
    const { id, outs } = await provider.create({ ...role });
    await h.fault({ method: "POST", path: deletePath, action: "drop-after", times: 0 });
    await provider.delete(id, outs);
    await h.admin("DELETE", "/faults");
    expect((await h.listRoles(42)).map((r) => r.roleId)).not.toContain(outs.roleId);
  });

  it("dropped before the service acted: the delete fails naming the role, which is still there", async () => {
    const { id, outs } = await provider.create({ ...role });
    await h.fault({ method: "POST", path: deletePath, action: "drop-before", times: 0 });
    const err = (await provider.delete(id, outs).catch((e: unknown) => e)) as Error;
    await h.admin("DELETE", "/faults");
    expect(err.message).toContain(`deleting role "Support" (id ${id})`);
    expect((await h.listRoles(42)).map((r) => r.roleId)).toContain(outs.roleId);
  });
});
