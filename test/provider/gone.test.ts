/**
 * What counts as gone (provider/shared/gone.ts), against the emulator: a group only when a 404 says
 * `group_not_found`, a role only when the group's list answers without it. Any other 404 proves
 * nothing and fails naming the URL, so a wrong `grouproles:baseUrl` never empties a stack's state.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GroupRolesClient, NotFoundError } from "../../client";
import { confirmRoleGone, isGroupGone, listUnlessGone } from "../../provider/shared/gone";
import { startHarness, type EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
let client: GroupRolesClient;
beforeAll(async () => {
  h = await startHarness();
  client = new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token });
});
afterAll(() => h?.close());
beforeEach(() => h.admin("POST", "/reset"));

const groupGone = () =>
  h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 404, code: "group_not_found" });
const notFound = (path = "/api/v0/groups/42/roles/9") =>
  new NotFoundError("role not found", { status: 404, request: { method: "GET", path } });

describe("listUnlessGone", () => {
  it("answers the list; undefined only when the service says the group is gone", async () => {
    const [made] = await h.create(42, [{ name: "A" }]);
    expect((await listUnlessGone(client, 42, "reading"))?.map((r) => r.roleId)).toEqual([made!.roleId]);
    await groupGone();
    expect(await listUnlessGone(client, 42, "reading")).toBeUndefined();
  });

  it("a 404 without that code (a wrong URL) fails naming the URL, the group and the setting", async () => {
    const wrong = new GroupRolesClient({ baseUrl: `${h.emu.baseUrl}/typo`, accessToken: h.emu.token });
    const err = (await listUnlessGone(wrong, 42, "refreshing").catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(isGroupGone(err)).toBe(false);
    expect(err.message).toContain(`refreshing: GET ${h.emu.baseUrl}/typo/api/v0/groups/42/roles answered 404`);
    expect(err.message).toContain("without saying that group 42 or its role is gone");
    expect(err.message).toContain("Check grouproles:baseUrl");
  });

  it("other errors pass through as they are", async () => {
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 403, times: 0 });
    const err = (await listUnlessGone(client, 42, "reading").catch((e: unknown) => e)) as Error & { status?: number };
    expect(err).not.toBeInstanceOf(NotFoundError);
    expect(err.message).not.toContain("Check grouproles:baseUrl");
  });
});

describe("confirmRoleGone after a 404 on a role", () => {
  it("true when the group's list answers without the role, or the group is gone", async () => {
    await h.create(42, [{ name: "A" }]);
    expect(await confirmRoleGone(client, 42, 999, notFound(), "reading role 999")).toBe(true);
    await groupGone();
    expect(await confirmRoleGone(client, 42, 999, notFound(), "reading role 999")).toBe(true);
  });

  it("fails when the list still holds the role, naming it and the request that answered 404", async () => {
    const [made] = await h.create(42, [{ name: "A" }]);
    const err = (await confirmRoleGone(client, 42, made!.roleId, notFound(), "reading role A").catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toContain(`reading role A (the group's list still holds role ${made!.roleId})`);
    expect(err.message).toContain("GET /api/v0/groups/42/roles/9 answered 404");
  });
});
