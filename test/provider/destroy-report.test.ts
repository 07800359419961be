/**
 * What a failed delete of a destroy reports (provider/shared/deletions.ts), at the provider level: a
 * deployment with no Check is a destroy; the report waits for the deletes already running beside the
 * failed one (the engine runs a wave of independent deletes side by side) so that it lists what they
 * deleted, whenever they end; in an `up` (a Check ran) the error is left as it was.
 */
import { describe, expect, it } from "vitest";
import * as groupRoles from "../../provider/group-roles";
import { deploymentLedger } from "../../provider/shared/deployment-ledger";
import { destroyReport } from "../../provider/shared/deletions";
import { inputs, stateOf } from "./group-roles-harness";
import { provider, providerSuite } from "./provider-harness";
import { rejection } from "../support/rejection";

const h = providerSuite();

async function catalogueAndHeldRole() {
  const { outs } = await groupRoles.create(inputs({ a: { name: "A" }, b: { name: "B" } }));
  const role = await provider.create({ groupId: 42, name: "Y" });
  await h.setUsers(42, role.outs.roleId, 1);
  return { catalogue: stateOf(outs), role };
}

describe("a failed delete of a destroy", () => {
  it("waits for the deletes running beside it, then lists what they deleted", async () => {
    const { catalogue, role } = await catalogueAndHeldRole();
    // The catalogue's delete request answers late: it is still running when the Role's delete fails
    // (in use: the Role sends no delete request). The report must not depend on that: it waits.
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "latency", latencyMs: 800 });
    const both = [groupRoles.delete("42", catalogue), rejection(provider.delete(role.id, role.outs))] as const;
    const [, err] = await Promise.all(both);
    expect(err.code).toBe("ERR_ROLE_IN_USE");
    expect(err.message).toContain(
      `role "Y" (id ${role.id}) is in use by 1 user and cannot be deleted; it was not deleted.`,
    );
    expect(err.message).toContain(
      'This destroy deleted 2 roles so far: "A" and "B" (the GroupRoles of group 42 declaring "A", "B").',
    );
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Y"]);
  });

  it("in an up (a Check ran in the deployment) the error is the up's: no destroy report", async () => {
    const { role } = await catalogueAndHeldRole();
    await provider.check({}, { groupId: 42, name: "Other" });
    expect(deploymentLedger().run.operation).toBe("up");
    const err = await rejection(provider.delete(role.id, role.outs));
    expect(err.message).toContain("declare it again with the resource option `retainOnDelete: true`");
    expect(err.message).not.toContain("This destroy");
  });

  it("the report: none deleted; many names shortened; each resource named", () => {
    expect(destroyReport([])).toMatch(/^This destroy deleted no role so far\. The resource whose delete failed/);
    const many = Array.from({ length: 7 }, (_, i) => `R${i}`);
    expect(destroyReport([{ by: "the GroupRoles of group 7", groupId: 7, names: many }])).toMatch(
      /^This destroy deleted 7 roles so far: "R0", "R1", "R2", "R3", "R4" and 2 more \(the GroupRoles of group 7\)\./,
    );
  });
});
