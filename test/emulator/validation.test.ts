import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH_ITEMS } from "../../emulator/service-rules";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness({ groups: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
});
afterAll(() => h.emu.close());

const del = (g: number): string => `${h.emu.baseUrl}/api/v0/groups/${g}/delete-roles`;

describe("roles API: validation and errors", () => {
  it("rejects a whole create batch for one bad item, naming the item's index", async () => {
    const items = [{ name: "ok1" }, { name: "ok2" }, { name: "ok3" }, { name: "x".repeat(71) }];
    const r = await http("POST", h.rolesUrl(1), { body: items });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      code: "validation_failed",
      message: "[3].name: must be at most 70 characters (UTF-16 code units)",
      index: 3,
    });
    expect(await h.list(1)).toEqual([]);
  });

  it.each([
    ["empty name", { name: "" }, "[0].name"],
    ["blank name", { name: "   " }, "[0].name: must not be blank"],
    ["missing name", { description: "x" }, "[0].name"],
    [
      "long description",
      { name: "d", description: "d".repeat(256) },
      "[0].description: must be at most 255 characters",
    ],
    ["non-boolean setting", { name: "s", settings: { viewVideo: "yes" } }, "[0].settings.viewVideo"],
    ["settings not an object", { name: "s", settings: [true] }, "[0].settings"],
    ["name not a string", { name: 7 }, "[0].name"],
  ])("400 for %s", async (_, item, fragment) => {
    const r = await http("POST", h.rolesUrl(2), { body: [item] });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: "validation_failed", index: 0 });
    expect((r.json as { message: string }).message).toContain(fragment);
  });

  it("accepts a name of exactly 70 characters and a description of 255", async () => {
    const r = await http("POST", h.rolesUrl(2), { body: [{ name: "n".repeat(70), description: "d".repeat(255) }] });
    expect(r.status).toBe(200);
  });

  it("400 malformed_json for broken JSON, and validation_failed for a non-array body", async () => {
    const bad = await http("POST", h.rolesUrl(3), { body: '[{"name":', raw: true });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: "malformed_json" });
    const empty = await http("PUT", h.rolesUrl(3), { body: "", raw: true });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ code: "malformed_json" });
    const obj = await http("POST", h.rolesUrl(3), { body: { name: "x" } });
    expect(obj.status).toBe(400);
    expect(obj.json).toMatchObject({ code: "validation_failed", message: "body: must be a JSON array" });
    const ids = await http("POST", del(3), { body: [1, "2"] });
    expect(ids.status).toBe(400);
    expect(ids.json).toMatchObject({ code: "validation_failed", index: 1 });
  });

  it("409 name_conflict for a name taken in the group or repeated in the request; nothing created", async () => {
    await h.create(4, [{ name: "Taken" }]);
    const taken = await http("POST", h.rolesUrl(4), { body: [{ name: "Fresh" }, { name: "Taken" }] });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "name_conflict", index: 1 });
    expect((taken.json as { message: string }).message).toMatch(/^\[1\]\.name: "Taken"/);
    const twice = await http("POST", h.rolesUrl(4), { body: [{ name: "Dup" }, { name: "Other" }, { name: "Dup" }] });
    expect(twice.status).toBe(409);
    expect(twice.json).toMatchObject({ code: "name_conflict", index: 2 });
    expect((await h.list(4)).map((r) => r.name)).toEqual(["Taken"]);
  });

  it("update: unknown roleId is 404 and changes nothing; a rename onto a taken name is 409", async () => {
    const [a, b] = await h.create(5, [{ name: "A" }, { name: "B" }]);
    const unknown = await http("PUT", h.rolesUrl(5), {
      body: [
        { roleId: a?.roleId, name: "A2" },
        { roleId: 999999, name: "Z" },
      ],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: "not_found", index: 1 });
    const conflict = await http("PUT", h.rolesUrl(5), { body: [{ roleId: a?.roleId, name: "B" }] });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ code: "name_conflict", index: 0 });
    const dup = await http("PUT", h.rolesUrl(5), {
      body: [
        { roleId: b?.roleId, name: "B1" },
        { roleId: b?.roleId, name: "B2" },
      ],
    });
    expect(dup.status).toBe(400);
    const invalid = await http("PUT", h.rolesUrl(5), { body: [{ roleId: a?.roleId, name: "ok" }, { name: "no id" }] });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: "validation_failed", index: 1 });
    expect((await h.list(5)).map((r) => r.name)).toEqual(["A", "B"]);
  });

  it("delete: an in-use role is refused with 409 and nothing of the request is deleted", async () => {
    const [a, b, c] = await h.create(6, [{ name: "free1" }, { name: "busy" }, { name: "free2" }]);
    await http("PUT", h.adminUrl(`/groups/6/roles/${b?.roleId}/users`), { body: { userCount: 2 } });
    const r = await http("POST", del(6), { body: [a?.roleId, b?.roleId, c?.roleId] });
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ code: "role_in_use", index: 1 });
    const msg = (r.json as { message: string }).message;
    expect(msg).toContain('"busy"');
    expect(msg).toContain(`roleId ${b?.roleId}`);
    expect(msg).toContain("2 user");
    expect((await h.list(6)).map((x) => x.roleId)).toEqual([a?.roleId, b?.roleId, c?.roleId]);
  });

  it("delete: an unknown id in a batch is 404 and nothing is deleted", async () => {
    const [a] = await h.create(7, [{ name: "keep" }]);
    const r = await http("POST", del(7), { body: [a?.roleId, 424242] });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: "not_found", index: 1 });
    expect(await h.list(7)).toHaveLength(1);
  });

  it("404 for an unknown role or group, 400 for a malformed group or role id", async () => {
    expect((await http("GET", `${h.rolesUrl(8)}/123456`)).status).toBe(404);
    const group = await http("GET", h.rolesUrl(11));
    expect(group.status).toBe(404);
    expect(group.json).toMatchObject({ code: "group_not_found", message: "group 11 not found" });
    for (const g of ["0", "-1", "1.5", "abc", "01"]) {
      const r = await http("GET", `${h.emu.baseUrl}/api/v0/groups/${g}/roles`);
      expect(r.status, g).toBe(400);
      expect(r.json).toMatchObject({ code: "validation_failed" });
    }
    expect((await http("GET", `${h.rolesUrl(8)}/abc`)).status).toBe(400);
  });

  it("404 for an unknown route, 405 for a wrong method", async () => {
    const r = await http("GET", `${h.emu.baseUrl}/api/v1/groups/1/roles`);
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: "not_found" });
    const m = await http("DELETE", h.rolesUrl(8));
    expect(m.status).toBe(405);
    expect(m.json).toMatchObject({ code: "method_not_allowed" });
  });

  it(`413 payload_too_large above ${MAX_BATCH_ITEMS} items; exactly ${MAX_BATCH_ITEMS} is fine`, async () => {
    const many = (n: number, p: string): Array<{ name: string }> =>
      Array.from({ length: n }, (_, i) => ({ name: `${p}${i}` }));
    const over = await http("POST", h.rolesUrl(9), { body: many(MAX_BATCH_ITEMS + 1, "o") });
    expect(over.status).toBe(413);
    expect(over.json).toMatchObject({ code: "payload_too_large" });
    expect(await h.list(9)).toEqual([]);
    const at = await http("POST", h.rolesUrl(9), { body: many(MAX_BATCH_ITEMS, "a") });
    expect(at.status).toBe(200);
    expect(at.json).toHaveLength(MAX_BATCH_ITEMS);
  });
});
