/** Refreshing many roles reads each role's details but shares the group's list (single flight). */
import { describe, expect, it } from "vitest";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();

describe("refresh of many roles", () => {
  it("N concurrent reads cost N detail GETs and one list", async () => {
    const n = 12;
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        provider.create({ groupId: 42, name: `R${i}`, settings: { viewVideo: i % 2 === 0 } }),
      ),
    );
    await h.setUsers(42, made[3].outs.roleId, 4);
    await h.clearRequests();
    const read = await Promise.all(made.map((m) => provider.read(m.id, m.outs)));
    read.forEach((r, i) => {
      expect(r.id).toBe(made[i].id);
      expect(r.props).toMatchObject({
        name: `R${i}`,
        settings: { viewVideo: i % 2 === 0 },
        userCount: i === 3 ? 4 : 0,
      });
    });
    const log = await h.requests();
    expect(log.counts["GET /api/v0/groups/:groupId/roles/:roleId"]).toBe(n);
    expect(log.counts["GET /api/v0/groups/:groupId/roles"]).toBe(1);
    expect(log.total).toBe(n + 1);
  });

  it("a role deleted by hand drops out of a batch refresh; the others read normally", async () => {
    const made = await Promise.all(["a", "b", "c"].map((name) => provider.create({ groupId: 42, name })));
    await h.api("POST", "/groups/42/delete-roles", [made[1].outs.roleId]);
    const read = await Promise.all(made.map((m) => provider.read(m.id, m.outs)));
    expect(read.map((r) => r.id)).toEqual([made[0].id, "", made[2].id]);
  });
});
