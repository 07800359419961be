/**
 * The simulator's delete check on its own (tools/simulate/checks.ts `deletes`), on records built by hand:
 * which deletes an `up` may make. A checker that passes what it should refuse hides product bugs; one
 * that refuses what the engine rightly does sends a session after a bug that is not there.
 */
import { describe, expect, it } from "vitest";
import type { EngineResult, StateResource } from "../../tools/engine";
import { deletes } from "../../tools/simulate/checks";
import type { OpRecord, ServiceRole } from "../../tools/simulate/lane";
import type { Program } from "../../tools/simulate/model";

const ROLE = "pulumi-nodejs:dynamic/grouproles:Role";
const role = (roleId: number, name: string): ServiceRole => ({
  roleId,
  name,
  description: "",
  settings: {},
  userCount: 0,
});
const roleState = (res: string, roleId: number, name: string, pendingDelete = false): StateResource =>
  ({
    urn: `urn:pulumi:sim::roles-spec::${ROLE}::${res}`,
    type: ROLE,
    id: `101/${roleId}`,
    inputs: { groupId: 101, name },
    outputs: { groupId: 101, roleId, name },
    ...(pendingDelete ? { delete: true } : {}),
  }) as unknown as StateResource;

/** An `up` with no replacement in its plan, which deleted role 3. */
function upDeleting3(preState: StateResource[]): OpRecord {
  return {
    operation: "up",
    result: { plan: [] } as unknown as EngineResult,
    pre: [[role(3, "Billing 20"), role(9, "Sales 4")], []],
    post: [[role(9, "Sales 4")], []],
    preState,
    postState: [roleState("r3", 9, "Sales 4")],
    stateText: "",
    requests: [],
    faults: [],
    engineMs: 0,
    partial: false,
  };
}
const keepsR3: Program = { roles: [{ res: "r3", group: 0, name: "Sales 4" }], catalogues: [] };

describe("the simulator's delete check", () => {
  it("lets an up end a replacement an earlier, failed up began (its old record pending deletion)", () => {
    // History 52322: `up --replace r3` made the new role 9 and failed before deleting role 3; the next
    // `up`, with no `--replace`, deletes it.
    const op = upDeleting3([roleState("r3", 9, "Sales 4"), roleState("r3", 3, "Billing 20", true)]);
    expect(deletes(op, keepsR3, new Set(), new Set())).toEqual([]);
  });

  it("refuses an up that deletes the role of a Role the program keeps and nothing replaced", () => {
    const op = upDeleting3([roleState("r3", 3, "Billing 20")]);
    expect(deletes(op, keepsR3, new Set(), new Set())).toEqual([
      expect.objectContaining({
        kind: "unwanted-delete",
        message: 'role 3 "Billing 20" of group 101 of Role r3 was deleted, but the program keeps Role r3 in its group',
      }),
    ]);
  });
});
