/**
 * What a registration declares, as data (provider/shared/intent.ts), and the two builders that make it
 * (provider/role/declaration.ts, provider/group-roles/declaration.ts): which refusals each declaration
 * meets, on which input and with which words, what `record` leaves for the registrations after it (read
 * back through the ledger's view, as the resources read it), and the step each registration's create
 * finds. No service: every case here is decided before a request (those that need one are in the
 * provider suites).
 */
import { describe, expect, it } from "vitest";
import type { Plan } from "../../provider/group-roles/plan-types";
import {
  declareCatalogue,
  declareNewCatalogue,
  decideRemovals,
  releaseReplaced,
  wantInNewGroup,
} from "../../provider/group-roles/declaration";
import type { GroupRolesInputs, GroupRolesState } from "../../provider/group-roles/types";
import { declareKeptRole, declareNewRole, releaseReplacedRole } from "../../provider/role/declaration";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";
import { UNKNOWN } from "../../provider/shared/fields";
import { type Intent, record, refusalsOf } from "../../provider/shared/intent";
import type { Structure } from "../../provider/shared/structure";
import { heldEntry } from "../support/entry-state";

const structure = (urn: string, dependsOn: string[] = [], deleteBeforeReplace?: boolean): Structure => ({
  urn,
  dependsOn: new Map(dependsOn.map((u) => [u, { names: [], roleIds: [] }])),
  ...(deleteBeforeReplace !== undefined ? { deleteBeforeReplace } : {}),
});

/** A ledger where an earlier registration (`first`) did something, and a later one (`self`) declares. */
function ledgerWith(
  first: (l: DeploymentLedger, reg: ReturnType<DeploymentLedger["registrations"]["register"]>) => void,
) {
  const l = new DeploymentLedger();
  const earlier = l.registrations.register("the earlier resource", structure("u:earlier"));
  first(l, earlier);
  const self = l.registrations.register("this resource", structure("u:self"));
  return { l, earlier, self };
}

const keep = (plannedName?: string): Intent => ({
  groupId: 42,
  by: "catalogue",
  declares: [
    {
      kind: "keep",
      at: "group 42: roles.a",
      property: "roles.a",
      roleId: 7,
      name: "Old",
      ...(plannedName !== undefined ? { plannedName } : {}),
    },
  ],
});

describe("refusalsOf: the order rules over what a registration keeps and wants", () => {
  it("a kept role meets the rule of a name freed too late only when it is renamed", () => {
    // An earlier registration creates a role named "Old", the name this one's role has now.
    const { l, self } = ledgerWith((l, earlier) => record(l, earlier, want("Old", { adopts: false })));
    expect(refusalsOf(l, self, keep("Old"))).toEqual([]);
    expect(refusalsOf(l, self, keep())).toEqual([]); // the name it plans is not known: nothing renamed
    const [refusal, ...more] = refusalsOf(l, self, keep("New"));
    expect(more).toEqual([]);
    expect(refusal?.property).toBe("roles.a");
    expect(refusal?.error.message).toMatch(
      /^group 42: roles\.a: this resource renames role "Old" \(roleId 7\) to "New", and the earlier resource takes the name "Old" for a new role/,
    );
  });

  it("a want is checked against the group's exclusive catalogue only when that one could not see it", () => {
    const { l, self } = ledgerWith((l, earlier) => l.claimExclusive(42, "owner", "the exclusive catalogue", earlier));
    const wanted = (seenByExclusive: boolean): Intent => ({
      groupId: 42,
      by: "role",
      declares: [{ kind: "want", at: "creating", name: "N", adopts: false, seenByExclusive }],
    });
    expect(refusalsOf(l, self, wanted(false))).toEqual([]);
    const [refusal] = refusalsOf(l, self, wanted(true));
    expect(refusal?.error.message).toMatch(/^creating: the earlier resource has `exclusive: true`/);
    expect(refusal).not.toHaveProperty("property"); // the place named none
  });

  it("a takeover by ID is refused on importId, one by name on the entry's own input", () => {
    const { l, self } = ledgerWith((l, earlier) => l.names.release(42, 7, "Mover", earlier, false));
    const takeover = (roleId?: number): Intent => ({
      groupId: 42,
      by: "role",
      declares: [
        { kind: "want", at: "x", property: "name", name: "Mover", adopts: true, ...(roleId ? { roleId } : {}) },
      ],
    });
    expect(refusalsOf(l, self, takeover(7)).map((r) => r.property)).toEqual(["importId"]);
    expect(refusalsOf(l, self, takeover()).map((r) => r.property)).toEqual(["name"]);
  });
});

function want(name: string, opts: { adopts: boolean; roleId?: number }): Intent {
  return { groupId: 42, by: "catalogue", declares: [{ kind: "want", at: "w", name, ...opts }] };
}

describe("record: what the registrations after it read", () => {
  it("declares a kept role only with the name it plans, and names its catalogue only when it has one", () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    record(l, reg, keep());
    expect(l.view(42).declared(7)).toBeUndefined();
    record(l, reg, keep("New"));
    expect(l.view(42).declared(7)).toEqual({ currentName: "Old", plannedName: "New", by: "catalogue", reg });
    record(l, reg, { ...keep("Newer"), owner: "cat" });
    expect(l.view(42).declared(7)).toEqual({
      currentName: "Old",
      plannedName: "Newer",
      by: "catalogue",
      reg,
      owner: "cat",
    });
  });

  it("a want by ID claims the role, not its name; a want by name claims the name", () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    record(l, reg, want("Imported", { adopts: true, roleId: 7 }));
    expect(l.view(42).mayBeTakenOver(7, "another name")).toBe(true);
    expect(l.view(42).mayBeTakenOver(8, "Imported")).toBe(false);
    record(l, reg, want("Created", { adopts: false }));
    expect(l.view(42).mayBeTakenOver(9, "Created")).toBe(true);
  });

  it("an exclusive catalogue's decided removals are its own", () => {
    const l = new DeploymentLedger();
    const [a, b] = [l.registrations.register("a"), l.registrations.register("b")];
    record(l, a, { groupId: 42, by: "catalogue", declares: [], releases: [], decidesRemovals: true });
    record(l, b, { groupId: 42, by: "catalogue", declares: [], releases: [] });
    expect(l.view(42, a).decidedRemovals()).toBe(true);
    expect(l.view(42, b).decidedRemovals()).toBe(false);
  });

  it("an entry a catalogue removes drops what that catalogue declared of it in a refresh's Diff, and only that", () => {
    const removal = (checks: "all" | "ordered", owner = "cat"): Intent => ({
      groupId: 42,
      by: "catalogue",
      owner,
      declares: [],
      releases: [{ at: "x", key: "a", roleId: 7, name: "Old", deferred: false, checks }],
    });
    for (const [intent, stays] of [
      [removal("all"), false],
      [removal("ordered"), true],
      [removal("all", "another catalogue"), true],
    ] as const) {
      const l = new DeploymentLedger();
      const refresh = l.registrations.register("the refresh Diff");
      record(l, refresh, { ...keep("Old"), owner: "cat" });
      record(l, l.registrations.register("the program's Diff"), intent);
      expect(l.view(42).declared(7) !== undefined).toBe(stays);
    }
    // Its own declaration in the same registration is not a refresh's: kept.
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    record(l, reg, { ...keep("Old"), owner: "cat" });
    record(l, reg, removal("all"));
    expect(l.view(42).declared(7)).toBeDefined();
  });

  it("a role let go to an earlier registration that takes it over is handed to it; with checks none no refusal", () => {
    const l = new DeploymentLedger();
    const receiver = l.registrations.register("the receiver", structure("u:receiver"));
    record(l, receiver, want("Mover", { adopts: true }));
    const giver = l.registrations.register("the giver", structure("u:giver", ["u:receiver"]));
    const released = (checks: "all" | "none"): Intent => ({
      groupId: 42,
      by: "catalogue",
      declares: [],
      releases: [{ at: "x", key: "m", roleId: 7, name: "Mover", deferred: false, checks }],
    });
    const { refused, handovers } = record(l, giver, released("all"));
    expect(refused).toEqual([]);
    expect([...handovers]).toEqual([["m", "the receiver"]]);
    expect(l.view(42).released(7)?.handedTo).toBe(receiver);
    // Unordered: refused, unless the release checks nothing (a replaced Role, an exclusive catalogue).
    const l2 = new DeploymentLedger();
    const taker = l2.registrations.register("the taker", structure("u:taker"));
    record(l2, taker, want("Mover", { adopts: true }));
    const g2 = l2.registrations.register("the giver", structure("u:giver"));
    expect(record(l2, g2, released("none")).refused).toEqual([]);
    const l3 = new DeploymentLedger();
    record(l3, l3.registrations.register("the taker", structure("u:taker")), want("Mover", { adopts: true }));
    const [refusal] = record(l3, l3.registrations.register("g", structure("u:g")), released("all")).refused;
    expect(refusal?.error.message).toMatch(/^x: role "Mover" \(roleId 7\) of group 42 leaves this resource/);
  });
});

describe("the Role's declarations", () => {
  it("a create is refused on the name another resource lets go, each create on its own", async () => {
    const l = new DeploymentLedger();
    const other = l.registrations.register("the catalogue");
    l.names.release(42, 5, "A", other, false);
    l.names.release(42, 6, "B", other, false);
    const [a, b] = [l.registrations.register("a"), l.registrations.register("b")];
    const refusedA = await declareNewRole(l, { groupId: 42, name: "A" }, a);
    const refusedB = await declareNewRole(l, { groupId: 42, name: "B" }, b);
    expect(refusedB).toEqual([{ property: "name", reason: expect.stringMatching(/^creating role "B" in group 42: /) }]);
    expect(refusedA).toEqual([{ property: "name", reason: expect.stringMatching(/^creating role "A" in group 42: /) }]);
  });

  it("a create whose group or name is not known yet declares nothing", async () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    for (const news of [{ groupId: UNKNOWN, name: "A" }, { name: "A" }, { groupId: 42 }]) {
      expect(await declareNewRole(l, news, reg)).toEqual([]);
      expect(l.view(42, l.registrations.register("later")).takerOf("A", 6)).toBeUndefined();
    }
  });

  it("an import is read from importId `group/role` only, and is refused as a takeover on importId", async () => {
    // Role 7 "Mover" and role 8 "A" are let go by an earlier catalogue, in its own update.
    const { l, self } = ledgerWith((l, earlier) => {
      l.names.release(42, 7, "Mover", earlier, false);
      l.names.release(42, 8, "A", earlier, false);
    });
    const [imported] = await declareNewRole(l, { groupId: 42, name: "A", importId: "42/7" }, self);
    expect(imported?.property).toBe("importId");
    expect(imported?.reason).toContain('role "Mover" (roleId 7) of group 42 is removed from the earlier resource');
    // Not an ID of the form group/role: a create of "A", refused on its name (a Role takes over only by import).
    for (const importId of ["x42/7", "42/7x"]) {
      const [created] = await declareNewRole(l, { groupId: 42, name: "A", importId }, self);
      expect(created?.property).toBe("name");
      expect(created?.reason).toContain(`the group's role "A" (roleId 8) is removed from the earlier resource`);
    }
  });

  it("a create in a group whose exclusive catalogue registered first is refused", async () => {
    const { l, self } = ledgerWith((l, earlier) => l.claimExclusive(42, "owner", "the exclusive catalogue", earlier));
    const [refusal] = await declareNewRole(l, { groupId: 42, name: "N", importId: "42/3" }, self);
    expect(refusal?.reason).toMatch(/^creating role "N" in group 42: the earlier resource has `exclusive: true`/);
  });

  it("a kept role, not renamed, is declared without asking the service; one an earlier registration deletes is refused", async () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    await declareKeptRole(l, { id: "42/7", groupId: 42, roleId: 7, name: "R" }, { groupId: 42, name: "R" }, reg);
    expect(l.view(42).declared(7)).toEqual({ currentName: "R", plannedName: "R", by: "role", reg });
    const { l: l2, self } = ledgerWith((l, earlier) => l.names.release(42, 7, "R", earlier, false));
    await expect(
      declareKeptRole(l2, { id: "42/7", groupId: 42, roleId: 7, name: "R" }, { groupId: 42, name: "R" }, self),
    ).rejects.toThrow(
      /^updating role "R" \(id 42\/7\): this resource keeps role "R" \(roleId 7\), which the earlier resource removes/,
    );
  });

  it("a replaced role is let go after every other step, or first with deleteBeforeReplace", () => {
    const l = new DeploymentLedger();
    const later = l.registrations.register("r", structure("u:r"));
    releaseReplacedRole(l, { groupId: 42, roleId: 7, name: "R" }, later);
    expect(l.view(42).released(7)).toMatchObject({ roleId: 7, name: "R", deferred: true, reg: later });
    const first = l.registrations.register("f", structure("u:f", [], true));
    releaseReplacedRole(l, { groupId: 42, roleId: 8, name: "F" }, first);
    expect(l.view(42).released(8)?.deferred).toBe(false);
  });
});

const state = (roles: GroupRolesState["roles"]): GroupRolesState => ({ groupId: 42, roles });
const entry = heldEntry;

describe("the GroupRoles' declarations", () => {
  const inputs = (roles: Record<string, string>): GroupRolesInputs => ({
    groupId: 42,
    roles: Object.fromEntries(Object.entries(roles).map(([k, name]) => [k, { name }])),
    adoptExisting: false,
    exclusive: false,
  });

  it("a new catalogue is refused on each entry an exclusive catalogue registered first cannot see, unless it is that one", () => {
    const { l, self } = ledgerWith((l, earlier) => l.claimExclusive(42, "owner", "the exclusive catalogue", earlier));
    const refusals = declareNewCatalogue(l, inputs({ a: "A", b: "B" }), false, self);
    expect(refusals.map((r) => r.property)).toEqual(["roles.a", "roles.b"]);
    expect(refusals[0]?.error.message).toMatch(/^group 42: roles\.a: the earlier resource has `exclusive: true`/);
    expect(declareNewCatalogue(l, inputs({ c: "C" }), true, self)).toEqual([]);
  });

  it("a Diff keeps the entries still declared (by key or moved), wants the added, lets the removed go unless retained", () => {
    const { l, self } = ledgerWith((l, earlier) => l.claimExclusive(42, "owner", "the exclusive catalogue", earlier));
    const old = state({
      a: entry(1, "A"),
      b: entry(2, "B"),
      u: entry(3, "U"),
      gone: entry(4, "G"),
      kept: entry(5, "K", true),
    });
    const roles = { a: { name: "A2" }, moved: { name: "B" }, u: UNKNOWN, added: { name: "New" } };
    const { refusals } = declareCatalogue(l, 42, old, roles, new Map([["moved", "b"]]), false, self);
    const view = l.view(42);
    expect(view.declared(1)?.plannedName).toBe("A2");
    expect(view.declared(2)?.plannedName).toBe("B");
    expect(view.declared(3)).toBeUndefined(); // kept, its name not known yet
    expect([1, 2, 3, 5].map((id) => view.released(id))).toEqual([undefined, undefined, undefined, undefined]);
    expect(view.released(4)).toMatchObject({ name: "G", deferred: false, reg: self });
    // The added entry is one the exclusive catalogue, registered first, cannot see.
    expect(refusals.map((r) => r.message.split(":").slice(0, 2).join(":"))).toEqual(["group 42: roles.added"]);
  });

  it("a Diff's removal drops what the same catalogue declared of the role in a refresh's Diff", () => {
    const l = new DeploymentLedger();
    const old = state({ a: entry(1, "A") });
    declareCatalogue(l, 42, old, { a: { name: "A" } }, new Map(), false, l.registrations.register("refresh"));
    expect(l.view(42).declared(1)).toBeDefined();
    declareCatalogue(l, 42, old, {}, new Map(), false, l.registrations.register("program"));
    expect(l.view(42).declared(1)).toBeUndefined();
  });

  it("a replaced catalogue lets its roles go (not the retained), after every step or first, and returns the refusals", () => {
    const { l, self } = ledgerWith((l, earlier) => record(l, earlier, want("A", { adopts: true })));
    const old = state({ a: entry(1, "A"), r: entry(2, "R", true) });
    expect(releaseReplaced(l, 42, old, self)).toEqual([]); // deleted after every step: anyone may take it
    expect(l.view(42).released(1)).toMatchObject({ deferred: true, reg: self });
    expect(l.view(42).released(2)).toBeUndefined();
    const l2 = new DeploymentLedger();
    record(l2, l2.registrations.register("the taker", structure("u:t")), want("A", { adopts: true }));
    const first = l2.registrations.register("first", structure("u:f", [], true));
    const [refusal, ...more] = releaseReplaced(l2, 42, old, first);
    expect(more).toEqual([]);
    expect(refusal?.message).toMatch(/^group 42: roles\.a: role "A" \(roleId 1\) of group 42 leaves this resource/);
  });

  it("a replaced catalogue's entries wanted in their new group are not checked against its exclusive catalogue", () => {
    const { l, self } = ledgerWith((l, earlier) => {
      l.claimExclusive(42, "owner", "the exclusive catalogue", earlier);
      l.names.release(42, 9, "Taken", earlier, false);
    });
    expect(wantInNewGroup(l, 42, [["a", "A"]], false, self)).toEqual([]);
    const [refusal] = wantInNewGroup(l, 42, [["t", "Taken"]], true, self);
    expect(refusal?.message).toMatch(/^group 42: roles\.t: role "Taken" \(roleId 9\) of group 42 is removed from/);
  });

  it("an exclusive catalogue decides once which roles it removes: the unmanaged ones, let go by it", async () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("exclusive");
    const plan = { unmanaged: [{ roleId: 9, name: "Z", inUse: false, userCount: 0 }] } as unknown as Plan;
    await decideRemovals(l, 42, plan, reg);
    expect(l.view(42).released(9)).toMatchObject({ name: "Z", deferred: false, reg });
    expect(l.view(42, reg).decidedRemovals()).toBe(true);
  });
});
