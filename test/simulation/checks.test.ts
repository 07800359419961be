/**
 * The simulator's delete check on its own (tools/simulate/checks.ts `deletes`), on records built by hand:
 * which deletes an `up` may make. A checker that passes what it should refuse hides product bugs; one
 * that refuses what the engine rightly does sends a session after a bug that is not there.
 */
import { describe, expect, it } from "vitest";
import type { EngineResult, StateResource } from "../../tools/engine";
import { deletes, stateMatchesService } from "../../tools/simulate/checks";
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

const CATALOGUE = "pulumi-nodejs:dynamic/grouproles:GroupRoles";
/** Catalogue `res`'s record of its entry `key`, role `roleId` named `name`. */
const catalogueState = (res: string, key: string, roleId: number, name: string): StateResource =>
  ({
    urn: `urn:pulumi:sim::roles-spec::${CATALOGUE}::${res}`,
    type: CATALOGUE,
    id: res,
    inputs: { groupId: 101 },
    outputs: { groupId: 101, roles: { [key]: { roleId, name, description: "", settings: {} } } },
  }) as unknown as StateResource;

/** An `up` with no replacement in its plan, which deleted role 3. */
function upDeleting3(preState: StateResource[]): OpRecord {
  return {
    operation: "up",
    result: { ok: true, plan: [] } as unknown as EngineResult,
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
    // Found by the simulation (docs/simulation.md): `up --replace r3` made the new role 9 and failed before
    // deleting role 3; the next `up`, with no `--replace`, deletes it.
    const op = upDeleting3([roleState("r3", 9, "Sales 4"), roleState("r3", 3, "Billing 20", true)]);
    expect(deletes(op, keepsR3, new Set(), new Set())).toEqual([]);
  });

  it("lets the delete of an unconfirmed create's record, first under deleteBeforeReplace, delete the role it made", () => {
    // Found by the simulation (docs/simulation.md): a create whose confirming lists all failed left
    // `101/unconfirmed`; the next `up`, with `deleteBeforeReplace`, deletes that record (and role 3) first.
    const unconfirmed = { ...roleState("r3", 0, "Billing 20"), id: "101/unconfirmed" } as StateResource;
    const dbr: Program = {
      roles: [{ res: "r3", group: 0, name: "Billing 20", deleteBeforeReplace: true }],
      catalogues: [],
    };
    expect(deletes(upDeleting3([unconfirmed]), dbr, new Set(), new Set())).toEqual([]);
    // Without it the replacement's create adopts the role first: a delete of it is unwanted.
    const adopting: Program = { roles: [{ res: "r3", group: 0, name: "Billing 20" }], catalogues: [] };
    expect(deletes(upDeleting3([unconfirmed]), adopting, new Set(), new Set()).map((x) => x.kind)).toEqual([
      "unwanted-delete",
    ]);
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

describe("the simulator's checks of a move whose giver and receiver ran in different ups", () => {
  /** Catalogue c11, which took role 4 "Ops 12" over from Role r5 in an `up --target c11`. */
  const c11 = catalogueState("c11", "k13", 4, "Ops 12");
  /** The next up: r5's delete ran and deleted role 4; c11 ran or not. */
  const upDeleting4: OpRecord = {
    ...upDeleting3([roleState("r5", 4, "Ops 12"), c11]),
    pre: [[role(4, "Ops 12")], []],
    post: [[], []],
    postState: [c11],
    partial: true,
  };
  const program: Program = { roles: [], catalogues: [{ res: "c11", group: 0, roles: { k13: { name: "Ops 12" } } }] };

  it("lets the lingering giver's delete remove the role while the receiver is left out (history 57272)", () => {
    // Found by the simulation (docs/simulation.md): `up --target c11` moved r5's role into c11, r5 removed
    // from the program kept its record; the next up, `--exclude c11`, ran r5's delete. Documented as what no
    // preview can know (docs/design/invariants.md).
    const [lingering, leftOut] = [new Set(["r5"]), new Set(["c11"])];
    expect(deletes(upDeleting4, program, new Set(), new Set(), lingering, leftOut)).toEqual([]);
    expect(stateMatchesService(upDeleting4, new Set(), program, lingering, leftOut)).toEqual([]);
  });

  it("refuses it when the receiver ran, or when the giver was not left behind by an earlier up", () => {
    for (const [lingering, leftOut] of [
      [new Set(["r5"]), new Set<string>()],
      [new Set<string>(), new Set(["c11"])],
    ]) {
      expect(deletes(upDeleting4, program, new Set(), new Set(), lingering, leftOut).map((x) => x.kind)).toEqual([
        "unwanted-delete",
      ]);
      expect(stateMatchesService(upDeleting4, new Set(), program, lingering, leftOut).map((x) => x.kind)).toContain(
        "state-lies",
      );
    }
  });
});

describe("the simulator's state check of a left-out giver whose role was taken over", () => {
  /** Role r3's record of role 1 "Billing 4" with the description it gave it, before c16 took the role over. */
  const r3 = {
    ...roleState("r3", 1, "Billing 4"),
    outputs: { groupId: 101, roleId: 1, name: "Billing 4", description: "about docs 93" },
  } as StateResource;
  /** `up --target c16`: c16 adopted "Billing 4" and wrote its own declaration, no description. */
  const upTakingOver = (postState: StateResource[]): OpRecord => ({
    ...upDeleting3([r3]),
    pre: [[{ ...role(1, "Billing 4"), description: "about docs 93" }], []],
    post: [[role(1, "Billing 4")], []],
    postState,
  });
  const program: Program = { roles: [], catalogues: [{ res: "c16", group: 0, roles: { k19: { name: "Billing 4" } } }] };

  it("lets the giver keep the description it recorded while the taker records the service's (history 58918)", () => {
    // Found by the simulation (docs/simulation.md): r3, removed from the program, left out by `--target c16`
    // (history 10670's documented lag), records the role as it gave it.
    const op = upTakingOver([r3, catalogueState("c16", "k19", 1, "Billing 4")]);
    expect(stateMatchesService(op, new Set(), program, new Set(["r3"]))).toEqual([]);
  });

  it("refuses that record when the giver ran, or when no resource took the role over", () => {
    expect(
      stateMatchesService(upTakingOver([r3, catalogueState("c16", "k19", 1, "Billing 4")]), new Set(), program).map(
        (x) => x.kind,
      ),
    ).toEqual(["state-lies", "recorded-twice"]);
    expect(stateMatchesService(upTakingOver([r3]), new Set(), program, new Set(["r3"]))).toEqual([
      expect.objectContaining({ kind: "state-lies", message: expect.stringContaining('description "about docs 93"') }),
    ]);
  });
});

describe("the simulator's state check", () => {
  /** Catalogue c11's record of its entry k5 (role 22 "Ops 6"), which the service no longer holds. */
  const c11 = catalogueState("c11", "k5", 22, "Ops 6");
  const upTargeting = (exclusive: boolean): [OpRecord, Program] => [
    {
      ...upDeleting3([c11]),
      pre: [[role(22, "Ops 6")], []],
      post: [[role(30, "Leads 15")], []],
      postState: [c11],
      partial: true,
    },
    { roles: [], catalogues: [{ res: "c16", group: 0, roles: { k14: { name: "Leads 15" } }, exclusive }] },
  ];

  it("lets a removed catalogue a --target up left out record a role an exclusive catalogue removed", () => {
    // Found by the simulation (docs/simulation.md): `up --target c16` of a new exclusive catalogue, c11
    // removed from the program.
    const [op, program] = upTargeting(true);
    expect(stateMatchesService(op, new Set(), program)).toEqual([]);
  });

  it("refuses the same record when no exclusive catalogue could have removed the role", () => {
    const [op, program] = upTargeting(false);
    expect(stateMatchesService(op, new Set(), program)).toEqual([
      expect.objectContaining({
        kind: "state-lies",
        message: 'GroupRoles c11.k5 records role 22 "Ops 6", which the service does not hold',
      }),
    ]);
  });

  /**
   * Role r3 replaced: its new record holds role 9 "Sales 4", its old one (pending deletion when `old` says
   * so) the same role as it was before the replacement renamed it, "Sales 3"; the operation failed or not.
   */
  const replacedR3 = (ok: boolean, old: { pendingDelete: boolean }): OpRecord => ({
    ...upDeleting3([]),
    result: { ok, plan: [] } as unknown as EngineResult,
    pre: [[role(9, "Sales 3")], []],
    post: [[role(9, "Sales 4")], []],
    postState: [roleState("r3", 9, "Sales 4"), roleState("r3", 9, "Sales 3", old.pendingDelete)],
  });

  it("lets the old half of a replacement whose delete failed record the role as it was", () => {
    // Found by the simulation (docs/simulation.md): `up --replace` of a catalogue adopting its roles, the
    // old half's delete refused by its hook (its list of the group dropped): the engine keeps it pending
    // deletion until the next `up`.
    expect(stateMatchesService(replacedR3(false, { pendingDelete: true }), new Set(), keepsR3)).toEqual([]);
  });

  it("refuses that record after an up that succeeded, or one not pending deletion", () => {
    for (const op of [replacedR3(true, { pendingDelete: true }), replacedR3(false, { pendingDelete: false })])
      expect(stateMatchesService(op, new Set(), keepsR3).map((x) => x.kind)).toEqual(["recorded-twice", "state-lies"]);
  });

  /** Catalogues c7 and c19 both recording role 7 "Billing 16" under k15, after an `up` that failed or not. */
  const movedEntry = (ok: boolean, giverKeeps: boolean): [OpRecord, Program] => {
    const catalogue = (res: string) => catalogueState(res, "k15", 7, "Billing 16");
    return [
      {
        ...upDeleting3([]),
        result: { ok, plan: [] } as unknown as EngineResult,
        pre: [[role(7, "Billing 16")], []],
        post: [[role(7, "Billing 16")], []],
        postState: [catalogue("c7"), catalogue("c19")],
      },
      {
        roles: [],
        catalogues: [
          { res: "c7", group: 0, roles: { k15: { name: "Billing 16" } } },
          { res: "c19", group: 0, roles: giverKeeps ? { k15: { name: "Billing 16" } } : { k17: { name: "Sales 18" } } },
        ],
      },
    ];
  };

  it("lets a catalogue the program keeps record an entry it moved away, after an up that failed before its update", () => {
    // Found by the simulation (docs/simulation.md): c7 took role 7 over, then another resource's failure
    // stopped the up before c19's update dropped the entry.
    const [op, program] = movedEntry(false, false);
    expect(stateMatchesService(op, new Set(), program)).toEqual([]);
  });

  it("refuses the two records after an up that succeeded, or while the giver still declares the entry", () => {
    for (const [op, program] of [movedEntry(true, false), movedEntry(false, true)])
      expect(stateMatchesService(op, new Set(), program).map((x) => x.kind)).toEqual(["recorded-twice"]);
  });

  /** Role r1's record of role 683 "Leads 2" in group 101, which an exclusive catalogue c8 removed. */
  const excludedR1 = (declared: { group: 0 | 1; name: string }): [OpRecord, Program] => [
    {
      ...upDeleting3([roleState("r1", 683, "Leads 2")]),
      pre: [[role(683, "Leads 2")], []],
      post: [[], []],
      postState: [roleState("r1", 683, "Leads 2")],
    },
    {
      roles: [{ res: "r1", ...declared }],
      catalogues: [{ res: "c8", group: 0, roles: { k4: { name: "Audit 5" } }, exclusive: true }],
    },
  ];

  it("lets a Role an --exclude up left out record a role an exclusive catalogue removed, once its program moved it", () => {
    // Found by the simulation (docs/simulation.md): `up --exclude r1` while the program moves r1 to group
    // 102: Pulumi keeps r1's old record; the exclusive c8 removes the role of group 101 that nothing
    // declares any more.
    const [op, program] = excludedR1({ group: 1, name: "Leads 2" });
    expect(stateMatchesService(op, new Set(), program, new Set(), new Set(["r1"]))).toEqual([]);
  });

  it("refuses that record while the program still declares the role in its group", () => {
    const [op, program] = excludedR1({ group: 0, name: "Leads 2" });
    expect(stateMatchesService(op, new Set(), program, new Set(), new Set(["r1"]))).toEqual([
      expect.objectContaining({ kind: "state-lies" }),
    ]);
  });
});
