/**
 * The deployment ledger on its own (provider/shared/deployment-ledger.ts): the rules both resources'
 * moves, renames and deletes rely on, each pinned without the engine (the e2e suites show them end
 * to end). Waits use tens of milliseconds, not the providers' real quiet windows.
 */
import { describe, expect, it } from "vitest";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

describe("declarations and renames", () => {
  it("a name is wanted while another role of the group is to be renamed to it", () => {
    const l = new DeploymentLedger();
    l.declare(42, 1, { currentName: "A", plannedName: "B", by: "catalogue" });
    l.declare(42, 2, { currentName: "C", plannedName: "C" });
    expect(l.isWanted(42, "B", 2)).toBe(true);
    expect(l.isWanted(42, "B", 1)).toBe(false); // its own name
    expect(l.isWanted(43, "B", 2)).toBe(false);
    expect(l.isWanted(42, "C", 1)).toBe(false); // kept, not renamed to it
    expect(l.declaration(42, 1)).toMatchObject({ by: "catalogue" });
    l.renamed(42, 1, "B", true);
    expect(l.declaration(42, 1)).toEqual({ currentName: "B", plannedName: "B", by: "catalogue", settled: true });
    expect(l.isWanted(42, "B", 2)).toBe(false);
    l.renamed(42, 9, "X");
    expect(l.declaration(42, 9)).toBeUndefined();
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

describe("releases: a role one resource lets go and another takes over", () => {
  it("committed is true for a role nobody lets go, undecided until settled, and the first word counts", () => {
    const l = new DeploymentLedger();
    expect(l.releaseCommitted(42, 1)).toBe(true);
    l.release(42, 1, "A");
    l.release(42, 1, "A again");
    expect(l.isReleased(42, 1)).toBe(true);
    expect(l.isReleased(42, 2)).toBe(false);
    expect(l.releaseCommitted(42, 1)).toBeUndefined();
    l.settleReleases(42, [1], false);
    l.settleReleases(42, [1], true);
    expect(l.releaseCommitted(42, 1)).toBe(false);
  });

  it("awaitRelease: taken when nobody lets it go or once the sender commits; failed when it gives up", async () => {
    const l = new DeploymentLedger();
    expect(await l.awaitRelease(42, 1, 10, 1_000)).toBe("taken");
    l.release(42, 1, "A");
    l.release(42, 2, "B");
    l.settleReleases(42, [2], false);
    expect(await l.awaitRelease(42, 2, 10, 1_000)).toBe("failed");
    l.startReleases(42, [1]);
    const waiting = l.awaitRelease(42, 1, 10, 5_000);
    await sleep(50);
    l.settleReleases(42, [1], true);
    expect(await waiting).toBe("taken");
  });

  it("awaitRelease: not started when the sender's update never began; failed at a failure or after maxMs", async () => {
    const l = new DeploymentLedger();
    l.release(42, 1, "A");
    expect(await l.awaitRelease(42, 1, 10, 1_000)).toBe("not started");
    l.startReleases(42, [1]);
    const started = Date.now();
    expect(await l.awaitRelease(42, 1, 10, 100)).toBe("failed");
    expect(Date.now() - started).toBeLessThan(2_000);

    const m = new DeploymentLedger();
    m.release(42, 1, "A");
    m.startReleases(42, [1]);
    const waiting = m.awaitRelease(42, 1, 10, 5_000);
    await sleep(50);
    m.noteFailure("update of another resource");
    expect(await waiting).toBe("failed");
    expect(m.failure).toBe("update of another resource");
  });
});

describe("takeovers and deletes in flight", () => {
  it("a role may be taken over when claimed, wanted by ID, or wanted by its name in its group", () => {
    const l = new DeploymentLedger();
    l.claim(42, 1);
    l.wantRole(42, 2);
    l.wantName(42, "Three");
    expect(l.mayBeTakenOver(42, 1, "x")).toBe(true);
    expect(l.mayBeTakenOver(42, 2, "x")).toBe(true);
    expect(l.mayBeTakenOver(42, 3, "Three")).toBe(true);
    expect(l.mayBeTakenOver(42, 4, "Four")).toBe(false);
    expect(l.mayBeTakenOver(43, 3, "Three")).toBe(false);
    expect(l.mayBeTakenOver(43, 1, "x")).toBe(false);
  });

  it("a delete is in flight until its request settles, even when it fails", async () => {
    const l = new DeploymentLedger();
    let fail!: (e: Error) => void;
    const sent = new Promise<void>((_, reject) => {
      fail = reject;
    });
    l.noteDeleting(42, [1, 2], sent);
    expect([l.isDeleting(42, 1), l.isDeleting(42, 2), l.isDeleting(42, 3)]).toEqual([true, true, false]);
    let settled = false;
    const waiting = l.deleteSettled(42, 1).then(() => (settled = true));
    await sleep(20);
    expect(settled).toBe(false);
    fail(new Error("503"));
    await waiting;
    await sleep(0);
    expect(l.isDeleting(42, 1)).toBe(false);
    expect(await l.deleteSettled(42, 3)).toBeUndefined();
  });
});

describe("failures, operations and quiet", () => {
  it("observe notes a refused result and a thrown error, and returns or rethrows", async () => {
    const l = new DeploymentLedger();
    expect(
      await l.observe(
        "check a",
        async () => 1,
        (n) => n === 2,
      ),
    ).toBe(1);
    expect(l.failure).toBeUndefined();
    expect(
      await l.observe(
        "check b",
        async () => 2,
        (n) => n === 2,
      ),
    ).toBe(2);
    await expect(l.observe("diff c", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(l.failure).toBe("check b");
  });

  it("track counts an operation as running and notes its failure", async () => {
    const l = new DeploymentLedger();
    await expect(l.track(async () => Promise.reject(new Error("create failed")))).rejects.toThrow();
    expect(l.failure).toBe("create failed");
    expect(await l.track(async () => "ok")).toBe("ok");
  });

  it("quiet waits for a gap without registrations, and for other operations, within maxMs", async () => {
    const l = new DeploymentLedger();
    l.noteRegistration();
    let started = Date.now();
    await l.track(() => l.quiet(100, 5_000));
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);

    // Another operation running holds it back until it ends.
    let finish!: () => void;
    const other = l.track(() => new Promise<void>((r) => (finish = r)));
    let quiet = false;
    const waiting = l.track(() => l.quiet(20, 5_000)).then(() => (quiet = true));
    await sleep(150);
    expect(quiet).toBe(false);
    finish();
    await other;
    await waiting;
    expect(quiet).toBe(true);

    // Bounded: registrations that never stop still end the wait at maxMs.
    const ticking = setInterval(() => l.noteRegistration(), 5);
    started = Date.now();
    await l.track(() => l.quiet(100, 200));
    clearInterval(ticking);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
