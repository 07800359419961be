/**
 * The record of a create whose reply was lost and whose group could not be listed: the Role under
 * `<groupId>/unconfirmed` (see role-lost-reply for how it is made). Each of diff, read, update and
 * delete settles it by the name that create sent, against the emulator: the role it made is adopted or
 * deleted, never duplicated, and a role of another name or of this deployment is never taken.
 */
import { describe, expect, it } from "vitest";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

const ID = "42/unconfirmed";
/** The partial-create record as the engine keeps it: the inputs of the create that was never confirmed. */
const record = { groupId: 42, name: "Support" };
const made = async (name: string) =>
  ((await h.api("POST", "/groups/42/roles", [{ name }])).json as Array<{ roleId: number }>)[0].roleId;
const names = async () => (await h.listRoles(42)).map((r) => r.name);
const LIST = "/api/v0/groups/42/roles";

describe("diff: replaced by a create that adopts what the lost create made", () => {
  it("the diff plans a replacement, and the replacement's create adopts the role instead of making another", async () => {
    await made("Other");
    const roleId = await made("Support"); // what the lost create made
    await h.clearRequests();
    expect(await provider.diff(ID, record, { ...record })).toEqual({
      changes: true,
      replaces: ["roleId"],
      deleteBeforeReplace: false,
    });
    const { id } = await provider.create({ ...record });
    expect(id).toBe(`42/${roleId}`);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBeUndefined();
    // The old record's delete then leaves the adopted role alone.
    await provider.delete(ID, record);
    expect(await names()).toEqual(["Other", "Support"]);
  });
});

describe("read (refresh)", () => {
  it("finds the role the create made, by its name, under its real ID", async () => {
    await made("Other");
    const roleId = await made("Support");
    const r = await provider.read(ID, record);
    expect(r.id).toBe(`42/${roleId}`);
    expect(r.props).toMatchObject({ roleId, name: "Support" });
  });

  it("drops the record when no role of that name exists", async () => {
    await made("Other");
    expect(await provider.read(ID, record)).toEqual({ id: "" });
  });

  it("fails, naming the record, when the group cannot be listed", async () => {
    await made("Support");
    await h.fault({ method: "GET", path: LIST, action: "status", status: 403 });
    const err = await provider.read(ID, record).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('reading role "Support" (create unconfirmed): ');
  });
});

describe("update", () => {
  it("is refused with the two ways out", async () => {
    const err = (await provider
      .update(ID, record, { ...record, description: "d" })
      .catch((e: unknown) => e)) as Error & {
      code: string;
    };
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.message).toContain(`updating role "Support" (id ${ID}): its create was never confirmed; `);
    expect(err.message).toContain(
      "run `pulumi up` without ignoreChanges on it (the create is settled by a replacement)",
    );
    expect(err.message).toContain("or `pulumi refresh`");
  });
});

describe("delete", () => {
  it("deletes the role the create made, and only that one", async () => {
    const other = await made("Other");
    await made("Support");
    await provider.delete(ID, record);
    expect((await h.listRoles(42)).map((r) => [r.roleId, r.name])).toEqual([[other, "Other"]]);
  });

  it("deletes nothing when no role of that name exists", async () => {
    await made("Other");
    await provider.delete(ID, record);
    expect(await names()).toEqual(["Other"]);
    expect((await h.requests()).counts["POST /api/v0/groups/:groupId/delete-roles"]).toBeUndefined();
  });

  it("leaves a role of that name that a create of this deployment made", async () => {
    await made("Other");
    await provider.create({ ...record }); // the replacement, as a new role (the lost create made none)
    await provider.delete(ID, record);
    expect(await names()).toEqual(["Other", "Support"]);
  });

  it("fails, naming the record, when the group cannot be listed: the role may exist", async () => {
    await made("Support");
    await h.fault({ method: "GET", path: LIST, action: "status", status: 403 });
    const err = await provider.delete(ID, record).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('deleting role "Support" (create unconfirmed): ');
    expect(await names()).toEqual(["Support"]);
  });
});
