/**
 * Adoption (provider/role/adoption.ts): the role a create made although its reply was lost (found by
 * one list, or kept unconfirmed); the role an unconfirmed create of an earlier run made; and the
 * `import` option.
 * Against the real emulator: what was adopted, made or kept is read back from the service.
 */
import { describe, expect, it } from "vitest";
import { HeadersTimeoutError } from "../../client/timeout-errors";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { adoptAfterLostReply } from "../../provider/role/adoption";
import type { RoleInputs } from "../../provider/role/inputs";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

const role = { groupId: 42, name: "Support", settings: { viewVideo: true } };
const rolesPath = "/api/v0/groups/42/roles";
const listRoute = "GET /api/v0/groups/:groupId/roles";
const createRoute = "POST /api/v0/groups/:groupId/roles";
const lists = async () => (await h.requests()).counts[listRoute] ?? 0;

describe("a create that timed out: settled by one list, never by watching the clock", () => {
  const timedOut = () => new HeadersTimeoutError(100, {});
  const what = 'creating role "Support" in group 42';

  it("adopts the role with the sent name when the list shows it", async () => {
    await h.create(42, [{ name: "Early" }]);
    const [support] = await h.create(42, [{ name: "Support", settings: { viewVideo: true } }]);
    await h.clearRequests();
    const adopted = await adoptAfterLostReply(role as RoleInputs, timedOut(), what, undefined);
    expect(adopted).toEqual({ roleId: support!.roleId, name: "Support", inUse: false });
    expect(await lists()).toBe(1);
  });

  it("not there yet: kept in state as an unconfirmed create (the service may still apply it), one list sent", async () => {
    await h.create(42, [{ name: "Early" }]);
    await h.clearRequests();
    const err = (await adoptAfterLostReply(role as RoleInputs, timedOut(), what, "provider-ref").catch(
      (e) => e,
    )) as Error & { code?: string; id?: string; reasons?: string[]; properties?: unknown };
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err.id).toBe("42/unconfirmed");
    // The record holds the inputs and no role: unused, no users, no ID.
    expect(err.properties).toEqual({ ...role, roleId: 0, inUse: false, userCount: 0, __provider: "provider-ref" });
    expect(err.message).toBe(
      `${what}: no reply (timed out after 100 ms waiting for the reply headers), and the group holds no role named ` +
        '"Support" yet; the service may still create it. Pulumi keeps the role in state as unconfirmed; the next ' +
        "`pulumi up` adopts it if it was created, or creates it.",
    );
    expect(err.reasons).toEqual([err.message]);
    expect(await lists()).toBe(1);
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Early"]);
  });
});

describe("a lost reply that made nothing, or whose group cannot be listed", () => {
  it("nothing made: the message says so and what to do", async () => {
    await h.fault({ method: "POST", path: rolesPath, action: "drop-before" });
    const err = (await provider.create({ ...role }).catch((e) => e)) as Error;
    expect(err.message).toMatch(/holds no role named "Support", so nothing was created\. Run `pulumi up` again\.$/);
  });

  it("group not listable: the unconfirmed record holds no role, unused, and one reason, the message", async () => {
    await h.fault({ method: "POST", path: rolesPath, action: "drop-after" });
    await h.fault({ method: "GET", path: rolesPath, action: "status", status: 403, times: 0 });
    const err = (await provider.create({ ...role, __provider: "p" }).catch((e) => e)) as Error & {
      properties: Record<string, unknown>;
      reasons: string[];
    };
    await h.admin("DELETE", "/faults");
    expect(err.properties).toMatchObject({ groupId: 42, name: "Support", roleId: 0, inUse: false, userCount: 0 });
    expect(err.reasons).toEqual([err.message]);
  });
});

describe("an unconfirmed create of an earlier run, replaced by a create", () => {
  const unconfirmedOlds = { ...role, roleId: 0, inUse: false, userCount: 0 };

  it("adopts the role that create made (the one with the name it sent), creating nothing", async () => {
    const [, support] = await h.create(42, [{ name: "Early" }, { name: "Support", settings: { viewVideo: true } }]);
    await h.clearRequests();
    expect(await provider.diff("42/unconfirmed", unconfirmedOlds, { ...role })).toMatchObject({ replaces: ["roleId"] });
    const { id, outs } = await provider.create({ ...role });
    expect(id).toBe(`42/${support!.roleId}`);
    expect(outs).toMatchObject({ roleId: support!.roleId, name: "Support" });
    expect((await h.requests()).counts[createRoute]).toBeUndefined();
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Early", "Support"]);
  });

  it("creates the role when that create made nothing", async () => {
    await h.create(42, [{ name: "Early" }]);
    await provider.diff("42/unconfirmed", unconfirmedOlds, { ...role });
    const { id } = await provider.create({ ...role });
    const roles = await h.listRoles(42);
    expect(roles.map((r) => r.name)).toEqual(["Early", "Support"]);
    expect(id).toBe(`42/${roles[1]!.roleId}`);
    expect((await h.details(42, roles[1]!.roleId)).settings).toEqual({ viewVideo: true });
  });

  it("moved to another group: creates the role there, never adopting the old group's role", async () => {
    const [old] = await h.create(42, [{ name: "Support" }]);
    await provider.diff("42/unconfirmed", unconfirmedOlds, { ...role, groupId: 43 });
    const { id } = await provider.create({ ...role, groupId: 43 });
    const moved = await h.listRoles(43);
    expect(moved.map((r) => r.name)).toEqual(["Support"]);
    expect(id).toBe(`43/${moved[0]!.roleId}`);
    expect(moved[0]!.roleId).not.toBe(old!.roleId);
    expect((await h.listRoles(42)).map((r) => r.roleId)).toEqual([old!.roleId]);
  });
});

describe("the import option", () => {
  it("a refused read is reported as it is, not as a missing role", async () => {
    const [made] = await h.create(42, [{ name: "Support", settings: { viewVideo: true } }]);
    await h.fault({ method: "GET", path: `${rolesPath}/${made!.roleId}`, action: "status", status: 403, times: 0 });
    const err = (await provider.create({ ...role, importId: `42/${made!.roleId}` }).catch((e) => e)) as Error & {
      code?: string;
    };
    await h.admin("DELETE", "/faults");
    expect(err.code).toBe("ERR_FORBIDDEN");
    expect(err.message).toContain(`importing role 42/${made!.roleId}`);
    expect(err.message).not.toContain("has no role with id");
  });

  it("in the preview (the create's Check): a missing ID or another name fails already; a match says what it takes over", async () => {
    const [made] = await h.create(42, [{ name: "Support", settings: { viewVideo: true } }]);
    resetDeploymentLedger();
    await h.clearRequests();
    const missing = await provider.check({}, { ...role, importId: "42/999999" });
    expect(missing.failures).toEqual([
      { property: "importId", reason: "importing role 42/999999: group 42 has no role with id 999999" },
    ]);
    const renamed = await provider.check({}, { ...role, name: "Other", importId: `42/${made!.roleId}` });
    expect(renamed.failures.map((f) => f.reason)).toEqual([
      `importing role 42/${made!.roleId}: inputs to import do not match the existing role: name ("Support" in the ` +
        "service). Change the program to match the role, import, then change it.",
    ]);
    expect((await provider.check({}, { ...role, importId: `42/${made!.roleId}` })).failures).toEqual([]);
    // One list for the three Checks (the one a create's Check takes anyway), no write.
    expect((await h.requests()).counts).toEqual({ [listRoute]: 1 });
  });

  it("a mismatch names every differing input and the way through", async () => {
    const [made] = await h.create(42, [{ name: "Support", description: "by hand", settings: { viewVideo: false } }]);
    const err = (await provider
      .create({ ...role, description: "ours", importId: `42/${made!.roleId}` })
      .catch((e) => e)) as Error;
    expect(err.message).toContain(
      `importing role 42/${made!.roleId}: inputs to import do not match the existing role: description, ` +
        "settings.viewVideo (sent true, service has false). Change the program to match the role, import, then change it.",
    );
  });

  it("the delete of the resource the role was imported from (a rename) leaves the role alone", async () => {
    const { id, outs } = await provider.create({ ...role });
    resetDeploymentLedger(); // a later deployment: the old resource goes, a new one imports its role
    await provider.create({ ...role, importId: id });
    await provider.delete(id, outs);
    expect((await h.listRoles(42)).map((r) => `42/${r.roleId}`)).toEqual([id]);
  });
});
