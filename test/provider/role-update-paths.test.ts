/**
 * Role update (provider/role/update.ts) against the emulator, past the happy path of role-crud: settings
 * declared for the first time or dropped altogether, and what each failure says (the role, its ID, and
 * the way out).
 */
import { describe, expect, it } from "vitest";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

const LIST = "/api/v0/groups/42/roles";
const puts = async () =>
  (await h.requests()).entries
    .filter((e) => e.method === "PUT")
    .map((e) => JSON.parse(e.body) as Array<Record<string, unknown>>);

describe("settings the update sends", () => {
  it("settings declared for the first time on a role made without any are applied", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Plain" });
    const news = { groupId: 42, name: "Plain", settings: { viewVideo: true } };
    await provider.update(id, outs, news);
    expect((await h.details(42, outs.roleId)).settings).toEqual({ viewVideo: true });
  });

  it("leaving settings out resets every key the program declared", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Set", settings: { viewVideo: true } });
    await provider.update(id, outs, { groupId: 42, name: "Set" });
    expect((await h.details(42, outs.roleId)).settings).toEqual({});
  });
});

describe("what the update reads and sends", () => {
  /** The requests the update sent before its PUT, as `METHOD route`. */
  const beforePut = async () => {
    const log = (await h.requests()).entries.map((e) => `${e.method} ${e.route}`);
    return log.slice(0, log.indexOf("PUT /api/v0/groups/:groupId/roles"));
  };

  it("a change without settings reads nothing first and sends none; a settings change reads the role once and sends the whole map", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old", settings: { viewVideo: true } });
    await h.api("PUT", "/groups/42/roles", [{ roleId: outs.roleId, name: "Old", settings: { chat: true } }]);
    resetDeploymentLedger();
    await h.clearRequests();
    const renamed = await provider.update(id, outs, { groupId: 42, name: "New", settings: { viewVideo: true } });
    expect(await beforePut()).not.toContain("GET /api/v0/groups/:groupId/roles/:roleId");
    expect((await puts())[0]![0]).not.toHaveProperty("settings");

    resetDeploymentLedger();
    await h.clearRequests();
    await provider.update(id, renamed.outs, { groupId: 42, name: "New", settings: { viewVideo: false } });
    expect(await beforePut()).toContain("GET /api/v0/groups/:groupId/roles/:roleId");
    // The key set by hand is kept: the map is sent in full, read first.
    expect((await puts())[0]![0]!.settings).toEqual({ viewVideo: false, chat: true });
    expect((await h.details(42, outs.roleId)).settings).toEqual({ viewVideo: false, chat: true });
  });

  it("an update whose every reply was lost is done when the role reads back as sent", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    resetDeploymentLedger();
    await h.fault({ method: "PUT", path: LIST, action: "drop-after", times: 0 });
    const result = await provider.update(id, outs, { groupId: 42, name: "New" });
    await h.admin("DELETE", "/faults");
    expect(result.outs).toMatchObject({ roleId: outs.roleId, name: "New" });
    expect((await h.details(42, outs.roleId)).name).toBe("New");
  });

  it("an update whose connection dropped before the service acted fails, the role unchanged", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    resetDeploymentLedger();
    await h.fault({ method: "PUT", path: LIST, action: "drop-before", times: 0 });
    const err = await provider.update(id, outs, { groupId: 42, name: "New" }).catch((e: unknown) => e);
    await h.admin("DELETE", "/faults");
    // The connection's own error, not a read-back's "accepted the update but did not apply".
    expect(err).toMatchObject({ code: "ERR_CONNECTION" });
    expect((err as Error).message).toContain(`updating role "New" (id ${id}): `);
    expect((await h.details(42, outs.roleId)).name).toBe("Old");
  });

  it("a clear refusal is never taken as applied, even when the role already reads as sent", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    // The service already holds the new name (changed by hand); the state still says "Old".
    await h.api("PUT", "/groups/42/roles", [{ roleId: outs.roleId, name: "New" }]);
    resetDeploymentLedger();
    await h.fault({ method: "PUT", path: LIST, action: "status", status: 403, times: 0 });
    const err = (await provider.update(id, outs, { groupId: 42, name: "New" }).catch((e: unknown) => e)) as Error & {
      code?: string;
    };
    await h.admin("DELETE", "/faults");
    expect(err.code).toBe("ERR_FORBIDDEN");
  });
});

describe("the update's result and failures", () => {
  it("returns the outputs read back, for the engine to store", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old", description: "d" });
    const result = await provider.update(id, outs, { groupId: 42, name: "New", description: "d" });
    expect(result.outs).toMatchObject({ groupId: 42, roleId: outs.roleId, name: "New", description: "d" });
  });

  it("a 404 names the role and both ways out", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    await h.api("POST", "/groups/42/delete-roles", [outs.roleId]);
    const err = (await provider.update(id, outs, { groupId: 42, name: "New" }).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain(`updating role "New" (id ${id}): the service answered 404 (`);
    expect(err.message).toContain("`pulumi refresh` drops it from state and `pulumi up` then creates it again");
    expect(err.message).toContain("if every request answers 404, check grouproles:baseUrl");
  });

  it("any other refusal keeps its own status, in context, and is not called a 404", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    await h.fault({ method: "PUT", path: LIST, action: "status", status: 403 });
    const err = (await provider.update(id, outs, { groupId: 42, name: "New" }).catch((e: unknown) => e)) as Error & {
      code: string;
    };
    expect(err.code).toBe("ERR_FORBIDDEN");
    expect(err.message).toContain(`updating role "New" (id ${id}): `);
    expect(err.message).not.toContain("404");
    expect((await h.details(42, outs.roleId)).name).toBe("Old");
  });

  it("a read-back that fails after the update was applied says so, as a partial update holding what was sent", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    resetDeploymentLedger(); // the create's list of the group is not reused
    await h.fault({ method: "GET", path: LIST, action: "status", status: 403, times: 0 });
    await h.fault({ method: "GET", path: `${LIST}/${outs.roleId}`, action: "status", status: 403, times: 0 });
    const err = (await provider.update(id, outs, { groupId: 42, name: "New" }).catch((e: unknown) => e)) as Error & {
      id?: string;
      properties?: Record<string, unknown>;
    };
    expect(err.message).toContain(
      `updating role "New" (id ${id}): the update was applied, but reading the role back failed`,
    );
    // Pulumi keeps the resource with these (an init error): the state holds the name the service holds.
    expect(err.id).toBe(id);
    expect(err.properties).toMatchObject({ name: "New", roleId: outs.roleId });
    await h.admin("DELETE", "/faults");
    expect((await h.details(42, outs.roleId)).name).toBe("New");
  });

  it("that partial update keeps the users last known and the provider reference, the new one first", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    const partial = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
      resetDeploymentLedger();
      await h.fault({ method: "GET", path: LIST, action: "status", status: 403, times: 0 });
      await h.fault({ method: "GET", path: `${LIST}/${outs.roleId}`, action: "status", status: 403, times: 0 });
      const err = (await provider.update(id, olds, news).catch((e: unknown) => e)) as { properties?: unknown };
      await h.admin("DELETE", "/faults");
      return err.properties;
    };
    const held = { ...outs, inUse: true, userCount: 3, __provider: "old-ref" };
    expect(await partial(held, { groupId: 42, name: "A", __provider: "new-ref" })).toEqual({
      groupId: 42,
      name: "A",
      roleId: outs.roleId,
      inUse: true,
      userCount: 3,
      __provider: "new-ref",
    });
    expect(await partial({ ...held, name: "A" }, { groupId: 42, name: "B" })).toMatchObject({
      name: "B",
      __provider: "old-ref",
    });
    // A state from before the user counts were kept: not in use, no users.
    const { inUse: _u, userCount: _c, ...bare } = { ...outs, name: "B" };
    expect(await partial(bare, { groupId: 42, name: "C" })).toMatchObject({ name: "C", inUse: false, userCount: 0 });
  });

  it("a service that accepts the update without applying it fails naming what it did not apply", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old", description: "old" });
    resetDeploymentLedger(); // the create's list of the group is not reused
    const stale = { name: "Old", description: "old" };
    await h.fault({ method: "GET", path: LIST, action: "override", fields: stale, times: 0 });
    const err = (await provider
      .update(id, outs, { groupId: 42, name: "New", description: "new" })
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.message).toContain(
      `updating role "New" (id ${id}): the service accepted the update but did not apply ` +
        `name (sent "New", service has "Old"), description`,
    );
  });
});

describe("a rename that cannot complete", () => {
  it("a rename refused for a name held outside the deployment changes nothing, and names the role", async () => {
    const a = await provider.create({ groupId: 42, name: "X", description: "before" });
    await h.api("POST", "/groups/42/roles", [{ name: "Y" }]);
    resetDeploymentLedger();
    await h.clearRequests();
    const err = (await provider
      .update(a.id, a.outs, { groupId: 42, name: "Y", description: "after" })
      .catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(`updating role "Y" (id ${a.id}): the name "Y" is held by role "Y"`);
    // Only the refused writes: nothing is "given back" to a role that never stepped aside.
    expect((await puts()).map(([p]) => p.name)).toContain("Y");
    expect((await puts()).map(([p]) => p.name)).not.toContain("X");
    expect(await h.details(42, a.outs.roleId)).toMatchObject({ name: "X", description: "before" });
  });
});
