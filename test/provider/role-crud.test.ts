import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/role/inputs";
import { changedProperties } from "../../provider/role/provider";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

const support = {
  groupId: 42,
  name: "Support",
  description: "First line",
  settings: { viewVideo: true, remoteAssist: false },
};

describe("Role provider CRUD against the emulator", () => {
  it("creates a role and returns outputs read back from the service", async () => {
    const { id, outs } = await provider.create({ ...support, __provider: "x" });
    expect(id).toMatch(/^42\/\d+$/);
    expect(outs).toEqual({ ...support, roleId: Number(id.split("/")[1]), inUse: false, userCount: 0 });
    const roles = await h.listRoles(42);
    expect(roles).toEqual([
      { roleId: outs.roleId, name: "Support", inUse: false, description: "First line", userCount: 0 },
    ]);
    expect((await h.details(42, outs.roleId)).settings).toEqual(support.settings);
    const counts = (await h.requests()).counts;
    expect(counts["POST /api/v0/groups/:groupId/roles"]).toBe(1);
  });

  it("reads a role, including inUse and userCount from the list", async () => {
    const { id } = await provider.create({ ...support });
    await h.setUsers(42, Number(id.split("/")[1]), 3);
    const r = await provider.read(id, { ...support });
    expect(r.id).toBe(id);
    expect(r.props).toMatchObject({
      name: "Support",
      inUse: true,
      userCount: 3,
      settings: { viewVideo: true, remoteAssist: false },
    });
    expect(r.inputs).toBeUndefined();
  });

  it("renames and changes settings with one PUT, then reads back", async () => {
    const { id, outs } = await provider.create({ ...support });
    await h.clearRequests();
    const news = {
      ...support,
      name: "Support Tier 1",
      settings: { viewVideo: false, remoteAssist: false, inviteGuest: true },
    };
    expect((await provider.diff(id, outs, news)).changes).toBe(true);
    await provider.update(id, outs, news);
    expect(await h.details(42, outs.roleId)).toMatchObject({ name: "Support Tier 1", settings: news.settings });
    const log = await h.requests();
    expect(log.counts["PUT /api/v0/groups/:groupId/roles"]).toBe(1);
    const put = log.entries.find((e) => e.method === "PUT")!;
    expect(JSON.parse(put.body)).toEqual([
      { roleId: outs.roleId, name: "Support Tier 1", description: "First line", settings: news.settings },
    ]);
  });

  it("a setting removed from the program is reset (sent as null)", async () => {
    const { id, outs } = await provider.create({ ...support });
    const news = { ...support, settings: { viewVideo: true } };
    await provider.update(id, outs, news);
    expect((await h.details(42, outs.roleId)).settings).toEqual({ viewVideo: true });
    const put = (await h.requests()).entries.find((e) => e.method === "PUT")!;
    const [sent] = JSON.parse(put.body) as Array<{ settings: object }>;
    expect(sent.settings).toEqual({ viewVideo: true, remoteAssist: null });
  });

  it("diff ignores settings key order; its one request is the group's credential check", async () => {
    const { id, outs } = await provider.create({ ...support });
    await h.clearRequests();
    const reordered = { ...support, settings: { remoteAssist: false, viewVideo: true } };
    expect(await provider.diff(id, outs, reordered)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      diffs: [],
    });
    expect(await provider.diff(id, outs, { ...support, description: "First line" })).toMatchObject({ changes: false });
    // The group's credential check, one list shared by both diffs of this deployment.
    expect((await h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
  });

  it("diff reports each kind of change, and a groupId change as a replacement", async () => {
    const { id, outs } = await provider.create({ ...support });
    expect(changedProperties(outs, { ...support, name: "X" })).toEqual(["name"]);
    expect(changedProperties(outs, { ...support, description: undefined })).toEqual(["description"]);
    expect(changedProperties(outs, { ...support, settings: { viewVideo: true } })).toEqual(["settings"]);
    // no description and an empty one are the same
    const { description: _omitted, ...undescribed } = support;
    const described = { ...undescribed, description: "" };
    expect(changedProperties({ ...outs, description: undefined }, described)).toEqual([]);
    expect(changedProperties({ ...outs, description: "" }, undescribed)).toEqual([]);
    const moved = await provider.diff(id, outs, { ...support, groupId: 43 });
    // `diffs`: the changed inputs, which `replaceOnChanges` is matched against.
    expect(moved).toEqual({ changes: true, replaces: ["groupId"], deleteBeforeReplace: false, diffs: ["groupId"] });
  });

  it("adding a setting is a change, and the update applies it in the service", async () => {
    const { id, outs } = await provider.create({ ...support });
    const added = { ...support, settings: { ...support.settings, inviteGuest: true } };
    expect(changedProperties(outs, added)).toEqual(["settings"]);
    // deleteBeforeReplace: should `replaceOnChanges` make it a replacement, the name stays, so the new
    // role can only be made once the old one is gone.
    expect(await provider.diff(id, outs, added)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: true,
      diffs: ["settings"],
    });
    // a setting added to a role that had none
    expect(changedProperties({ ...outs, settings: undefined }, added)).toEqual(["settings"]);
    await provider.update(id, outs, added);
    expect((await h.details(42, outs.roleId)).settings).toEqual(added.settings);
  });

  it("diff treats unknown values (preview) as changes without failing", async () => {
    const { id, outs } = await provider.create({ ...support });
    const unknown = UNKNOWN;
    expect(await provider.diff(id, outs, { ...support, name: unknown })).toMatchObject({ changes: true, replaces: [] });
    expect(await provider.diff(id, outs, { ...support, groupId: unknown })).toMatchObject({
      changes: true,
      replaces: ["groupId"],
    });
    expect(await provider.diff(id, outs, { ...support, settings: unknown })).toMatchObject({ changes: true });
  });

  it("deletes an unused role; a role already gone is success", async () => {
    const { id, outs } = await provider.create({ ...support });
    await provider.delete(id, outs);
    expect(await h.listRoles(42)).toEqual([]);
    await h.clearRequests();
    await provider.delete(id, outs);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
  });

  it("refresh sees an out-of-band change and an out-of-band delete", async () => {
    const { id, outs } = await provider.create({ ...support });
    await h.api("PUT", "/groups/42/roles", [
      { roleId: outs.roleId, name: "Hand edited", settings: { viewVideo: false, remoteAssist: false } },
    ]);
    const drifted = await provider.read(id, outs);
    expect(drifted.props).toMatchObject({ name: "Hand edited", settings: { viewVideo: false, remoteAssist: false } });
    expect(changedProperties(drifted.props!, support)).toEqual(["name", "settings"]);
    await h.api("POST", "/groups/42/delete-roles", [outs.roleId]);
    expect(await provider.read(id, outs)).toEqual({ id: "" });
  });

  it("reads by ID alone for Role.get and import: outputs with every setting, inputs declaring none", async () => {
    const [made] = (
      await h.api("POST", "/groups/42/roles", [
        { name: "Manual", description: "by hand", settings: { viewVideo: true } },
      ])
    ).json as Array<{ roleId: number }>;
    const r = await provider.read(`42/${made.roleId}`, { __provider: "x" });
    // The inputs are what `pulumi import` writes into the program: it then manages only the settings it lists.
    expect(r.inputs).toEqual({ groupId: 42, name: "Manual", description: "by hand" });
    expect(r.props).toMatchObject({ roleId: made.roleId, inUse: false, userCount: 0, settings: { viewVideo: true } });
  });

  it("rejects a malformed ID clearly", async () => {
    await expect(provider.read("42-7", {})).rejects.toThrow(/invalid Role ID "42-7": expected "<groupId>\/<roleId>"/);
  });

  it("update of a role deleted out of band says to refresh", async () => {
    const { id, outs } = await provider.create({ ...support });
    await h.api("POST", "/groups/42/delete-roles", [outs.roleId]);
    await expect(provider.update(id, outs, { ...support, name: "New" })).rejects.toThrow(
      /answered 404.*If the role was deleted in the service, `pulumi refresh` drops it/,
    );
  });

  it("a duplicate name fails create with the service's reason and the role named", async () => {
    await provider.create({ ...support });
    await expect(provider.create({ ...support })).rejects.toThrow(/creating role "Support" in group 42: .*409/);
    expect(await h.listRoles(42)).toHaveLength(1);
  });
});

describe("import option (carried as importId, since the engine cannot import dynamic resources)", () => {
  it("adopts a hand-made role that matches the program, without creating anything", async () => {
    const [made] = (
      await h.api("POST", "/groups/42/roles", [
        { name: "Manual", description: "by hand", settings: { viewVideo: true, inviteGuest: false } },
      ])
    ).json as Array<{ roleId: number }>;
    await h.clearRequests();
    const { id, outs } = await provider.create({
      groupId: 42,
      name: "Manual",
      description: "by hand",
      settings: { viewVideo: true },
      importId: `42/${made.roleId}`,
    });
    expect(id).toBe(`42/${made.roleId}`);
    expect(outs).toMatchObject({ roleId: made.roleId, name: "Manual", settings: { viewVideo: true } });
    const counts = (await h.requests()).counts;
    expect(counts["POST /api/v0/groups/:groupId/roles"]).toBeUndefined();
    expect(await h.listRoles(42)).toHaveLength(1);
    // keeping the import option afterwards is no change
    expect(
      await provider.diff(id, outs, {
        groupId: 42,
        name: "Manual",
        description: "by hand",
        settings: { viewVideo: true },
        importId: id,
      }),
    ).toMatchObject({ changes: false });
  });

  it("refuses to import when the program differs from the role, changing nothing", async () => {
    const [made] = (await h.api("POST", "/groups/42/roles", [{ name: "Manual", settings: { viewVideo: false } }]))
      .json as Array<{ roleId: number }>;
    const err = await provider
      .create({ groupId: 42, name: "Manual", settings: { viewVideo: true }, importId: `42/${made.roleId}` })
      .catch((e) => e);
    expect(err.message).toContain(`importing role 42/${made.roleId}: inputs to import do not match`);
    expect(err.message).toContain("settings.viewVideo");
    expect((await h.details(42, made.roleId)).settings).toEqual({ viewVideo: false });
  });

  it("fails clearly for a role that does not exist, and check refuses a malformed or mismatched ID", async () => {
    await expect(provider.create({ groupId: 42, name: "X", importId: "42/999999" })).rejects.toThrow(
      "group 42 has no role with id 999999",
    );
    expect((await provider.check({}, { groupId: 42, name: "X", importId: "abc" })).failures).toEqual([
      { property: "import", reason: 'import must be a Role ID "<groupId>/<roleId>", got string "abc"' },
    ]);
    expect((await provider.check({}, { groupId: 42, name: "X", importId: "43/1" })).failures[0].reason).toContain(
      "is in group 43, but groupId is 42",
    );
  });
});
