/**
 * The plugin's sign of an import (provider/plugin/imports.ts): a Read by ID alone, then a Check of the
 * same URN, claims the roles read in the deployment's ledger; a `get` (never checked) and a refresh
 * (a Read with state) claim nothing; the Read holds back a catalogue waiting for the deployment to
 * go quiet. The end-to-end outcome (the role survives its old resource's delete) is in
 * test/e2e/renames.test.ts; these pin each rule on its own.
 */
import { describe, expect, it } from "vitest";
import { claimIfImported, readNoting } from "../../provider/plugin/imports";
import { deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";

const none = { state: {}, inputs: {} };
const role = async () => ({ id: "42/7", props: { groupId: 42, roleId: 7, name: "Y" } });

describe("a plugin import", () => {
  it("a Read by ID alone then a Check of the same URN claims the role", async () => {
    await inNewDeployment(async () => {
      await readNoting("urn:z", none, role);
      expect(deploymentLedger().creates.isClaimed(42, 7)).toBe(false);
      claimIfImported("urn:other");
      expect(deploymentLedger().creates.isClaimed(42, 7)).toBe(false);
      claimIfImported("urn:z");
      expect(deploymentLedger().creates.isClaimed(42, 7)).toBe(true);
    });
  });

  it("a GroupRoles import claims every entry's role", async () => {
    await inNewDeployment(async () => {
      const catalogue = async () => ({
        id: "43",
        props: { groupId: 43, roles: { a: { roleId: 1 }, b: { roleId: 2 } } },
      });
      await readNoting("urn:team", none, catalogue);
      claimIfImported("urn:team");
      expect([1, 2, 3].map((id) => deploymentLedger().creates.isClaimed(43, id))).toEqual([true, true, false]);
    });
  });

  it("a get (no Check follows), a refresh (state given) and a role not found claim nothing", async () => {
    await inNewDeployment(async () => {
      await readNoting("urn:get", none, role);
      await readNoting("urn:refresh", { state: { groupId: 42, name: "Y" }, inputs: {} }, role);
      claimIfImported("urn:refresh");
      await readNoting("urn:gone", none, async () => ({ id: "" }));
      claimIfImported("urn:gone");
      expect(deploymentLedger().creates.isClaimed(42, 7)).toBe(false);
    });
    // Another deployment does not see this one's reads.
    await inNewDeployment(async () => {
      claimIfImported("urn:get");
      expect(deploymentLedger().creates.isClaimed(42, 7)).toBe(false);
    });
  });
});
