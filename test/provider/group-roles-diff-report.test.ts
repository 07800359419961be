/**
 * GroupRoles diff with `exclusive: true`: what the preview reports through the engine's log (the roles
 * the program does not declare, which `up` would remove). No engine runs here, so the log is replaced
 * by a recorder; the e2e suite (test/e2e/group-roles-exclusive.test.ts) reads the same report from a
 * real preview.
 */
import { describe, expect, it, vi } from "vitest";
import { engineLog } from "../../provider/shared/engine-log";
import { inNewDeployment } from "../../provider/shared/deployment-ledger";
import {
  createdIn,
  emulatorPerFile,
  groupRoles,
  inputs,
  oneDeploymentGroupRoles,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";

vi.mock("../../provider/shared/engine-log", () => ({ engineLog: vi.fn(async () => undefined) }));

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

describe("diff: the exclusive preview's report", () => {
  it("names the roles made by hand that up would remove, and says nothing when there are none", async () => {
    const { outs } = await createdIn(h, { a: { name: "A" } }, { exclusive: true });
    const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/grouproles:GroupRoles::cat";
    const same = { ...inputs({ a: { name: "A" } }, { exclusive: true }), __structure: { urn, dependsOn: [] } };
    vi.mocked(engineLog).mockClear();
    expect((await groupRoles.diff("42", stateOf(outs), same)).changes).toBe(false);
    expect(vi.mocked(engineLog)).not.toHaveBeenCalled();

    const [hand] = await h.create(42, [{ name: "By hand" }]);
    // One deployment: Check registers the resource (and its URN), under which Diff reports.
    await inNewDeployment(async () => {
      await oneDeploymentGroupRoles.check(stateOf(outs), same);
      vi.mocked(engineLog).mockClear();
      expect((await oneDeploymentGroupRoles.diff("42", stateOf(outs), same)).changes).toBe(true);
    });
    expect(vi.mocked(engineLog).mock.calls).toEqual([
      [
        "info",
        `GroupRoles of group 42 (exclusive): 1 role the program does not declare would be removed:\n` +
          `  "By hand" (roleId ${hand!.roleId}, no users)`,
        // Under the resource, not the stack (a team's trial read it under the stack).
        urn,
      ],
    ]);
  });
});
