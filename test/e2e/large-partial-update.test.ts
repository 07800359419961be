/**
 * A large update that fails part-way keeps its partial state: the provider's init error carries the
 * properties of every entry (1000 roles here: a trailer of about 180 KB, over what Node's HTTP/2 can
 * receive), and the engine stand-in, like Pulumi's Go engine, reads them (tools/engine/large-trailers.js)
 * and records what the service now holds. Outcomes are read from the service's list.
 */
import { describe, expect, it } from "vitest";
import { isGroupRolesType, runMixed, specStackPerFile, type GroupRolesSpec, type Stack } from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

const N = 1000;
const catalogue = (description: string): GroupRolesSpec => ({
  name: "catalogue",
  args: {
    groupId: 42,
    roles: Object.fromEntries(
      Array.from({ length: N }, (_, i) => [`role${i}`, { name: `Role number ${i}`, description }]),
    ),
  },
});
type Entry = { roleId: number; name: string; description: string };
const stateEntries = (r: { resources: Array<{ type: string; outputs: Record<string, unknown> }> }) =>
  Object.values(
    (r.resources.find((x) => isGroupRolesType(x.type, "GroupRoles"))?.outputs["roles"] ?? {}) as Record<string, Entry>,
  );

describe("a 1000-role update that fails part-way", () => {
  it("keeps the partial state: state holds what the service holds, half updated", async () => {
    const first = await runMixed(s, "up", [catalogue("before")]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    // Five PUTs of 100 roles go through; the sixth and every retry fail.
    await s.h.fault({
      method: "PUT",
      path: "/api/v0/groups/42/roles",
      action: "status",
      status: 503,
      times: 0,
      skip: 5,
    });
    const failed = await runMixed(s, "up", [catalogue("after, with a longer description than before")]);
    expect(failed.ok).toBe(false);
    // The provider's own error, not a transport failure that lost its partial state.
    expect(failed.errors.join("\n")).toContain("Before it, 0 deleted, 500 updated and 0 created");
    const service = new Map((await s.h.listRoles(42)).map((r) => [r.roleId, r.description]));
    expect([...service.values()].filter((d) => d.startsWith("after")).length).toBe(500);
    const kept = stateEntries(failed);
    expect(kept).toHaveLength(N);
    // Every entry as the service holds it: the 500 updated ones with their new description.
    expect(kept.filter((e) => e.description !== service.get(e.roleId))).toEqual([]);
  }, 120_000);
});
