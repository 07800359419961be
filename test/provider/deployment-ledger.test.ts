/**
 * The deployment ledger on its own (provider/shared/deployment-ledger.ts): the rules both resources'
 * moves, renames and deletes rely on, each pinned without the engine (the e2e suites show them end
 * to end). Nothing here waits: no rule waits for another resource's step.
 */
import { describe, expect, it } from "vitest";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";
import { orderedBefore, type Registration } from "../../provider/shared/registrations";
import { NO_STRUCTURE, type Structure } from "../../provider/shared/structure";

/** The structure the SDK hands a resource: its URN, the URNs of its `dependsOn`, its `deleteBeforeReplace`. */
const structure = (urn: string, dependsOn: string[] = [], deleteBeforeReplace?: boolean): Structure => ({
  urn,
  dependsOn: new Map(dependsOn.map((u) => [u, { names: [], roleIds: [] }])),
  ...(deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace }),
});

describe("claims, creates and unconfirmed creates", () => {
  it("a claim or a create is of this deployment, for that group and role only", () => {
    const l = new DeploymentLedger();
    l.creates.claim(42, 1);
    l.creates.noteMade(42, 2);
    expect([l.creates.isClaimed(42, 1), l.creates.isClaimed(42, 2), l.creates.isClaimed(43, 1)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([1, 2, 3].map((id) => l.creates.isOfThisDeployment(42, id))).toEqual([true, true, false]);
    expect(l.creates.isOfThisDeployment(43, 2)).toBe(false);
  });

  it("an unconfirmed create is taken once, by its group and name", () => {
    const l = new DeploymentLedger();
    l.creates.noteUnconfirmed(42, "A", { groupId: 42, name: "A" });
    expect(l.creates.takeUnconfirmed(43, "A")).toBeUndefined();
    expect(l.creates.takeUnconfirmed(42, "B")).toBeUndefined();
    expect(l.creates.takeUnconfirmed(42, "A")).toEqual({ groupId: 42, name: "A" });
    expect(l.creates.takeUnconfirmed(42, "A")).toBeUndefined();
  });
});

describe("registrations: the order the engine checks them in", () => {
  it("each Check opens the next registration; a Diff belongs to the last one checked", () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("A");
    const b = l.registrations.register("B");
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(l.registrations.current()).toBe(b);
  });

  it("a create or update finds the registration its resource's Check opened, by URN; else it is its own", () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("A", structure("u:a"));
    const b = l.registrations.register("B", structure("u:b"));
    expect(l.registrations.stepOf(structure("u:a"), "x")).toBe(a);
    expect(l.registrations.stepOf(structure("u:b"), "x")).toBe(b);
    // No Check for the URN, or no URN while the latest has one: a registration of its own.
    let latest = b;
    for (const unannounced of [structure("u:c"), NO_STRUCTURE]) {
      const fresh = l.registrations.stepOf(unannounced, "C");
      expect(fresh.seq).toBeGreaterThan(latest.seq);
      expect(fresh.described).toBe("C");
      latest = fresh;
    }
    // No URN (a provider called without the SDKs): the latest registration, when it has none and is open.
    const anonymous = l.registrations.register("D");
    expect(l.registrations.stepOf(NO_STRUCTURE, "x")).toBe(anonymous);
    anonymous.settle(true);
    expect(l.registrations.stepOf(NO_STRUCTURE, "x")).not.toBe(anonymous);
    // A replacement's create is its second Check's, the URN's latest.
    const second = l.registrations.register("A anew", structure("u:a"), true);
    expect(a.replaced).toBe(true);
    expect(l.registrations.stepOf(structure("u:a"), "x")).toBe(second);
    // A settled registration is not a step's any more (a second operation of one resource in a deployment).
    second.settle(true);
    expect(l.registrations.stepOf(structure("u:a"), "again")).not.toBe(second);
  });

  it("orderedBefore: only a resource in the other's dependsOn (by URN), never its own URN or a guess", () => {
    const l = new DeploymentLedger();
    const dep = l.registrations.register("dep", structure("u:dep"));
    const unrelated = l.registrations.register("unrelated", structure("u:other"));
    const self = l.registrations.register("self", structure("u:self", ["u:dep"]));
    const anonymous = l.registrations.register("anonymous");
    expect(orderedBefore(self, dep)).toBe(true);
    expect(orderedBefore(self, unrelated)).toBe(false); // checked earlier, but nothing orders its step first
    expect(orderedBefore(dep, self)).toBe(false);
    expect(orderedBefore(self, anonymous)).toBe(false);
    expect(orderedBefore(anonymous, dep)).toBe(false); // no structure: nothing is ordered
  });

  it("a Check without olds for a URN already checked is the replacement's: the first one is replaced, its renames let go", () => {
    const l = new DeploymentLedger();
    const first = l.registrations.register("a", structure("u:a"));
    l.declarations.declare(42, 1, { currentName: "X", plannedName: "Y", reg: first });
    l.registrations.register("a again", structure("u:a"), true);
    expect(first.replaced).toBe(true);
    expect(l.declarations.of(42, 1)).toBeUndefined();
    // Deleted after every step: it may be taken over, and its name stays held until then.
    expect(l.releases.of(42, 1)).toMatchObject({ name: "X", deferred: true, reg: first });
    const dbr = l.registrations.register("b", structure("u:b", [], true));
    l.declarations.declare(42, 2, { currentName: "P", plannedName: "Q", reg: dbr });
    l.registrations.register("b again", structure("u:b", [], true), true);
    expect(l.releases.of(42, 2)).toMatchObject({ deferred: false }); // deleteBeforeReplace: deleted first
    const updated = l.registrations.register("c", structure("u:c"));
    l.registrations.register("c, another registration with olds", structure("u:c"), false);
    expect(updated.replaced).toBe(false);
  });

  it("track settles the registration with its step's outcome and notes a failure; observe settles refusals", async () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("a");
    expect(await l.run.track(a, async () => 7)).toBe(7);
    expect([a.settled, a.succeeded]).toEqual([true, true]);
    const b = l.registrations.register("b");
    await expect(l.run.track(b, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect([b.settled, b.succeeded, l.run.failure]).toEqual([true, false, "boom"]);
    b.settle(true); // its step's outcome stays: a later word does not change it
    expect(b.succeeded).toBe(false);
    const c = l.registrations.register("c");
    expect(
      await l.run.observe(
        "check of c",
        c,
        async () => ({ failures: [1] }),
        (r) => r.failures.length > 0,
      ),
    ).toEqual({
      failures: [1],
    });
    expect([c.settled, c.succeeded]).toEqual([true, false]);
  });
});

describe("declarations and renames", () => {
  it("a declaration, a rename of it, and who takes a name another role holds now", () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("A");
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "B", by: "catalogue", reg: a });
    const b = l.registrations.register("B");
    l.declarations.declare(42, 2, { currentName: "B", plannedName: "C", reg: b });
    // Role 2 holds "B" now; registration A gives "B" to role 1.
    expect(l.names.takerOf(42, "B", 2, b)?.reg).toBe(a);
    expect(l.names.takerOf(42, "B", 1, b)).toBeUndefined(); // its own name
    expect(l.names.takerOf(42, "B", 2, a)).toBeUndefined(); // A itself, and nothing before it
    expect(l.names.takerOf(43, "B", 2, b)).toBeUndefined();
    l.declarations.renamed(42, 1, "B", true);
    expect(l.declarations.of(42, 1)).toMatchObject({ currentName: "B", plannedName: "B", settled: true });
    expect(l.names.takerOf(42, "B", 2, b)).toBeUndefined();
    l.declarations.renamed(42, 9, "X");
    expect(l.declarations.of(42, 9)).toBeUndefined();
  });

  it("a name declared for a role not held yet is taken by its first declarer, creating or adopting", () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("A");
    const b = l.registrations.register("B");
    l.wants.addName(42, "N", a, false);
    l.wants.addName(42, "N", b, true);
    expect(l.wants.byName(42, "N")).toEqual({ reg: a, adopts: false });
    expect(l.names.takerOf(42, "N", 5, b)).toEqual({ reg: a, create: true });
  });

  it("freer: a registration in self's dependsOn that renames the holder away or deletes it; never another", () => {
    const l = new DeploymentLedger();
    const early = l.registrations.register("early", structure("u:early"));
    l.declarations.declare(42, 1, { currentName: "X", plannedName: "Y", reg: early });
    l.names.release(42, 2, "Z", early, false);
    const unordered = l.registrations.register("unordered", structure("u:unordered"));
    l.declarations.declare(42, 4, { currentName: "M", plannedName: "N", reg: unordered });
    const self = l.registrations.register("self", structure("u:self", ["u:early"]));
    const late = l.registrations.register("late", structure("u:late"));
    l.declarations.declare(42, 3, { currentName: "P", plannedName: "Q", reg: late });
    expect(l.names.freer(42, 1, "X", self)).toBe(early);
    expect(l.names.freer(42, 1, "Y", self)).toBeUndefined(); // renamed *to* that name
    expect(l.names.freer(42, 2, "Z", self)).toBe(early);
    expect(l.names.freer(42, 4, "M", self)).toBeUndefined(); // checked before `self`, but not in its dependsOn
    expect(l.names.freer(42, 3, "P", self)).toBeUndefined(); // registered after `self`
    l.declarations.renamed(42, 1, "Y", true);
    expect(l.names.freer(42, 1, "X", self)).toBeUndefined(); // done
  });

  it("one exclusive catalogue per group: a second owner learns how the first is described", () => {
    const l = new DeploymentLedger();
    expect(l.exclusives.claim(42, "one", "the one declaring A")).toBeUndefined();
    expect(l.exclusives.claim(42, "one", "again")).toBeUndefined();
    expect(l.exclusives.claim(42, "two", "the one declaring B")).toBe("again"); // as the first owner last described itself
    expect(l.exclusives.claim(43, "two", "the one declaring B")).toBeUndefined();
  });

  it("once: one value per owner and name", () => {
    const l = new DeploymentLedger();
    const [a, b] = [{}, {}];
    let made = 0;
    const make = () => ++made;
    expect([
      l.once(a, "list", make),
      l.once(a, "list", make),
      l.once(a, "other", make),
      l.once(b, "list", make),
    ]).toEqual([1, 1, 2, 3]);
  });
});

describe("the records' own bookkeeping", () => {
  it("a role declared again is found under the name it plans now only; two roles planned under one name are both found", () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "X", reg });
    l.declarations.declare(42, 2, { currentName: "B", plannedName: "X", reg });
    expect(l.declarations.plannedAs(42, "X").map((d) => d.roleId)).toEqual([1, 2]);
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "Y", reg });
    expect(l.declarations.plannedAs(42, "X").map((d) => d.roleId)).toEqual([2]);
    expect(l.declarations.plannedAs(42, "Y").map((d) => d.roleId)).toEqual([1]);
  });

  it("a rename without `settled` leaves the role unsettled (a role stepped aside to a temporary name)", () => {
    const l = new DeploymentLedger();
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "B" });
    l.declarations.renamed(42, 1, "tmp");
    expect(l.declarations.of(42, 1)).toEqual({ currentName: "tmp", plannedName: "B", settled: false });
  });

  it("a replaced registration's declarations are let go, another's stay", () => {
    const l = new DeploymentLedger();
    const [a, b] = [l.registrations.register("a"), l.registrations.register("b")];
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "A", reg: a });
    l.declarations.declare(42, 2, { currentName: "B", plannedName: "B", reg: b });
    expect(l.declarations.dropAllOf(a).map((d) => d.roleId)).toEqual([1]);
    expect(l.declarations.of(42, 1)).toBeUndefined();
    expect(l.declarations.of(42, 2)).toBeDefined();
    expect(l.declarations.plannedAs(42, "A")).toEqual([]);
  });

  it("a role wanted by ID is the first declarer's, taken over", () => {
    const l = new DeploymentLedger();
    const [a, b] = [l.registrations.register("a"), l.registrations.register("b")];
    l.wants.addRole(42, 7, a);
    l.wants.addRole(42, 7, b);
    expect(l.wants.byRole(42, 7)).toEqual({ reg: a, adopts: true });
  });

  it("the program's first Check forgets what a refresh's Diffs opened and declared; a later Check forgets nothing", () => {
    const l = new DeploymentLedger();
    /** What `reg` declared in group 42: a role, a release, wants, an exclusive claim, an unconfirmed create. */
    const declareAll = (reg: Registration, owner: string) => {
      l.declarations.declare(42, 1, { currentName: "A", plannedName: "B", reg });
      l.releases.add(42, { roleId: 2, name: "C", reg, deferred: false });
      l.wants.addName(42, "D", reg, false);
      l.wants.addRole(42, 3, reg);
      l.exclusives.claim(42, owner, `the catalogue ${owner}`, reg);
      l.creates.noteUnconfirmed(42, "E", { groupId: 42, name: "E" });
    };
    const aLaterRegistration = { seq: Number.MAX_SAFE_INTEGER } as Registration;
    const recorded = () => [
      l.declarations.of(42, 1) !== undefined,
      l.releases.has(42, 2),
      l.wants.byName(42, "D") !== undefined,
      l.wants.byRole(42, 3) !== undefined,
      l.exclusives.before(42, aLaterRegistration) !== undefined,
      l.creates.hasUnconfirmed(42, "E"),
      l.registrations.has("u:a"),
    ];
    expect(l.run.refreshing).toBe(true);
    const refreshed = l.registrations.register("refreshed", structure("u:a"));
    declareAll(refreshed, "refresh's");
    expect(recorded()).toEqual([true, true, true, true, true, true, true]);
    l.run.noteProgramCheck();
    expect(l.run.refreshing).toBe(false);
    expect(recorded()).toEqual([false, false, false, false, false, false, false]);
    expect(l.registrations.stepOf(structure("u:a"), "a step")).not.toBe(refreshed);
    // The program's own registrations stay through its later Checks.
    const checked = l.registrations.register("checked", structure("u:a"));
    declareAll(checked, "program's");
    l.run.noteProgramCheck();
    expect(recorded()).toEqual([true, true, true, true, true, true, true]);
    expect(l.registrations.stepOf(structure("u:a"), "a step")).toBe(checked);
  });

  it("forget: what a refresh's Diffs declared, let go and wanted is gone", () => {
    const l = new DeploymentLedger();
    const reg = l.registrations.register("r");
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "B", reg });
    l.releases.add(42, { roleId: 2, name: "C", reg, deferred: false });
    l.wants.addName(42, "D", reg, false);
    l.wants.addRole(42, 3, reg);
    l.declarations.forget();
    l.releases.forget();
    l.wants.forget();
    expect([l.declarations.of(42, 1), l.declarations.plannedAs(42, "B")]).toEqual([undefined, []]);
    expect([l.releases.of(42, 2), l.releases.named(42, "C"), l.releases.has(42, 2)]).toEqual([
      undefined,
      undefined,
      false,
    ]);
    expect([l.wants.byName(42, "D"), l.wants.byRole(42, 3)]).toEqual([undefined, undefined]);
  });
});

describe("releases: decided once, when the role is let go", () => {
  it("handed to a registration in the giver's dependsOn that takes it over by ID or by name (adopting); never to another", () => {
    const l = new DeploymentLedger();
    const byId = l.registrations.register("by id", structure("u:id"));
    l.wants.addRole(42, 1, byId);
    const byName = l.registrations.register("by name", structure("u:name"));
    l.wants.addName(42, "B", byName, true);
    const creates = l.registrations.register("creates", structure("u:creates"));
    l.wants.addName(42, "C", creates, false);
    const unordered = l.registrations.register("unordered", structure("u:unordered"));
    l.wants.addName(42, "E", unordered, true);
    const giver = l.registrations.register("giver", structure("u:giver", ["u:id", "u:name", "u:creates"]));
    expect(l.names.release(42, 1, "A", giver, false).handedTo).toBe(byId);
    expect(l.names.release(42, 2, "B", giver, false).handedTo).toBe(byName);
    expect(l.names.release(42, 3, "C", giver, false).handedTo).toBeUndefined(); // a create does not take a role over
    // Checked earlier but not in the giver's dependsOn: not handed over, and named as the unordered taker.
    expect(l.names.release(42, 5, "E", giver, false).handedTo).toBeUndefined();
    expect(l.names.unorderedTaker(42, 5, "E", giver)).toBe(unordered);
    expect(l.names.unorderedTaker(42, 3, "C", giver)).toBeUndefined(); // a create takes nothing over
    const late = l.registrations.register("late", structure("u:late"));
    l.wants.addName(42, "D", late, true);
    expect(l.names.release(42, 4, "D", giver, false)).toMatchObject({ name: "D", deferred: false });
    expect(l.names.release(42, 4, "D", giver, false).handedTo).toBeUndefined(); // the first word counts
    expect(l.releases.named(42, "D")?.roleId).toBe(4);
    expect([l.releases.has(42, 4), l.releases.has(42, 5), l.releases.has(42, 6)]).toEqual([true, true, false]);
  });
});

describe("takeovers", () => {
  it("a role may be taken over when claimed, wanted by ID, or its name declared in its group", () => {
    const l = new DeploymentLedger();
    const r = l.registrations.register("r");
    l.creates.claim(42, 1);
    l.wants.addRole(42, 2, r);
    l.wants.addName(42, "Three", r, false);
    expect([1, 2, 3, 4].map((id) => l.names.mayBeTakenOver(42, id, id === 3 ? "Three" : "Other"))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(l.names.mayBeTakenOver(43, 1, "Three")).toBe(false);
  });
});
