/**
 * The deployment ledger on its own (provider/shared/deployment-ledger.ts): the rules both resources'
 * moves, renames and deletes rely on, each pinned without the engine (the e2e suites show them end
 * to end). Nothing here waits on a clock: the ledger's only wait is for an earlier registration's step.
 */
import { describe, expect, it } from "vitest";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";

/** Whether `p` has settled after every pending callback of this turn ran. */
async function settledNow(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe("claims, creates and unconfirmed creates", () => {
  it("a claim or a create is of this deployment, for that group and role only", () => {
    const l = new DeploymentLedger();
    l.claim(42, 1);
    l.noteMade(42, 2);
    expect([l.isClaimed(42, 1), l.isClaimed(42, 2), l.isClaimed(43, 1)]).toEqual([true, false, false]);
    expect([1, 2, 3].map((id) => l.isOfThisDeployment(42, id))).toEqual([true, true, false]);
    expect(l.isOfThisDeployment(43, 2)).toBe(false);
  });

  it("an unconfirmed create is taken once, by its group and name", () => {
    const l = new DeploymentLedger();
    l.noteUnconfirmed(42, "A", { groupId: 42, name: "A" });
    expect(l.takeUnconfirmed(43, "A")).toBeUndefined();
    expect(l.takeUnconfirmed(42, "B")).toBeUndefined();
    expect(l.takeUnconfirmed(42, "A")).toEqual({ groupId: 42, name: "A" });
    expect(l.takeUnconfirmed(42, "A")).toBeUndefined();
  });
});

describe("registrations: the order the engine checks them in", () => {
  it("each Check opens the next registration; a Diff belongs to the last one checked", () => {
    const l = new DeploymentLedger();
    const a = l.register("A");
    const b = l.register("B");
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(l.current()).toBe(b);
  });

  it("a create or update finds the registration its Check or Diff bound; an unannounced one is the latest", () => {
    const l = new DeploymentLedger();
    const a = l.register("A");
    l.bind("role:42/1", a);
    l.register("B");
    expect(l.stepOf("role:42/1", "x")).toBe(a);
    const fresh = l.stepOf("role:42/2", "C");
    expect(fresh.seq).toBeGreaterThan(a.seq);
    expect(fresh.described).toBe("C");
    // A settled registration is not a step's any more (a second operation of one resource in a deployment).
    a.settle(true);
    expect(l.stepOf("role:42/1", "again")).not.toBe(a);
  });

  it("awaitStep: the step's outcome; false at once for a failure noted in the deployment", async () => {
    const l = new DeploymentLedger();
    const ok = l.register("ok");
    const waiting = l.awaitStep(ok);
    expect(await settledNow(waiting)).toBe(false);
    ok.settle(true);
    expect(await waiting).toBe(true);
    const failed = l.register("failed");
    failed.settle(false);
    expect(await l.awaitStep(failed)).toBe(false);
    const pending = l.register("pending");
    const w = l.awaitStep(pending);
    l.noteFailure("another step");
    expect(await w).toBe(false);
    expect(l.failure).toBe("another step");
  });

  it("track settles the registration with its step's outcome and notes a failure; observe settles refusals", async () => {
    const l = new DeploymentLedger();
    const a = l.register("a");
    expect(await l.track(a, async () => 7)).toBe(7);
    expect(await a.outcome).toBe(true);
    const b = l.register("b");
    await expect(l.track(b, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect([await b.outcome, l.failure]).toEqual([false, "boom"]);
    const c = l.register("c");
    expect(
      await l.observe(
        "check of c",
        c,
        async () => ({ failures: [1] }),
        (r) => r.failures.length > 0,
      ),
    ).toEqual({
      failures: [1],
    });
    expect(await c.outcome).toBe(false);
  });
});

describe("declarations and renames", () => {
  it("a declaration, a rename of it, and who takes a name another role holds now", () => {
    const l = new DeploymentLedger();
    const a = l.register("A");
    l.declare(42, 1, { currentName: "A", plannedName: "B", by: "catalogue", reg: a });
    const b = l.register("B");
    l.declare(42, 2, { currentName: "B", plannedName: "C", reg: b });
    // Role 2 holds "B" now; registration A gives "B" to role 1.
    expect(l.takerOf(42, "B", 2, b)?.reg).toBe(a);
    expect(l.takerOf(42, "B", 1, b)).toBeUndefined(); // its own name
    expect(l.takerOf(42, "B", 2, a)).toBeUndefined(); // A itself, and nothing before it
    expect(l.takerOf(43, "B", 2, b)).toBeUndefined();
    l.renamed(42, 1, "B", true);
    expect(l.declaration(42, 1)).toMatchObject({ currentName: "B", plannedName: "B", settled: true });
    expect(l.takerOf(42, "B", 2, b)).toBeUndefined();
    l.renamed(42, 9, "X");
    expect(l.declaration(42, 9)).toBeUndefined();
  });

  it("a name declared for a role not held yet is taken by its first declarer, creating or adopting", () => {
    const l = new DeploymentLedger();
    const a = l.register("A");
    const b = l.register("B");
    l.wantName(42, "N", a, false);
    l.wantName(42, "N", b, true);
    expect(l.wantOf(42, "N")).toEqual({ reg: a, adopts: false });
    expect(l.takerOf(42, "N", 5, b)).toEqual({ reg: a, create: true });
  });

  it("freer: an earlier registration that renames the holder away or deletes it; never a later one", () => {
    const l = new DeploymentLedger();
    const early = l.register("early");
    l.declare(42, 1, { currentName: "X", plannedName: "Y", reg: early });
    l.release(42, 2, "Z", early, false);
    const self = l.register("self");
    const late = l.register("late");
    l.declare(42, 3, { currentName: "P", plannedName: "Q", reg: late });
    expect(l.freer(42, 1, "X", self)).toBe(early);
    expect(l.freer(42, 1, "Y", self)).toBeUndefined(); // renamed *to* that name
    expect(l.freer(42, 2, "Z", self)).toBe(early);
    expect(l.freer(42, 3, "P", self)).toBeUndefined(); // registered after `self`
    l.renamed(42, 1, "Y", true);
    expect(l.freer(42, 1, "X", self)).toBeUndefined(); // done
  });

  it("one exclusive catalogue per group: a second owner learns how the first is described", () => {
    const l = new DeploymentLedger();
    expect(l.claimExclusive(42, "one", "the one declaring A")).toBeUndefined();
    expect(l.claimExclusive(42, "one", "again")).toBeUndefined();
    expect(l.claimExclusive(42, "two", "the one declaring B")).toBe("again"); // as the first owner last described itself
    expect(l.claimExclusive(43, "two", "the one declaring B")).toBeUndefined();
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

describe("releases: decided once, when the role is let go", () => {
  it("handed to an earlier registration that takes it over by ID or by name (adopting); never to a later one", () => {
    const l = new DeploymentLedger();
    const byId = l.register("by id");
    l.wantRole(42, 1, byId);
    const byName = l.register("by name");
    l.wantName(42, "B", byName, true);
    const creates = l.register("creates");
    l.wantName(42, "C", creates, false);
    const giver = l.register("giver");
    expect(l.release(42, 1, "A", giver, false).handedTo).toBe(byId);
    expect(l.release(42, 2, "B", giver, false).handedTo).toBe(byName);
    expect(l.release(42, 3, "C", giver, false).handedTo).toBeUndefined(); // a create does not take a role over
    const late = l.register("late");
    l.wantName(42, "D", late, true);
    expect(l.release(42, 4, "D", giver, false)).toMatchObject({ name: "D", deferred: false });
    expect(l.release(42, 4, "D", giver, false).handedTo).toBeUndefined(); // the first word counts
    expect(l.releaseNamed(42, "D")?.roleId).toBe(4);
    expect([l.isReleased(42, 4), l.isReleased(42, 5)]).toEqual([true, false]);
  });
});

describe("takeovers", () => {
  it("a role may be taken over when claimed, wanted by ID, or its name declared in its group", () => {
    const l = new DeploymentLedger();
    const r = l.register("r");
    l.claim(42, 1);
    l.wantRole(42, 2, r);
    l.wantName(42, "Three", r, false);
    expect([1, 2, 3, 4].map((id) => l.mayBeTakenOver(42, id, id === 3 ? "Three" : "Other"))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(l.mayBeTakenOver(43, 1, "Three")).toBe(false);
  });
});
