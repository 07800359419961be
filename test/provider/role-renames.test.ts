/**
 * Renames that meet a name another role holds, at the provider level (the e2e suite runs the same
 * through the engine stand-in): the deployment ledger lets a rename wait for a name this deployment
 * frees, step aside to break a swap, and fail fast, naming the holder, when the name will not be freed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { NAME_WAIT } from "../../provider/shared/temporary-names";
import type { EmulatorHarness } from "../support/emulator";
import { newDeployment, provider, providerAgainstEmulator } from "./provider-harness";

let h: EmulatorHarness;
const grace = NAME_WAIT.undeclaredGraceMs;
beforeAll(async () => {
  h = await providerAgainstEmulator({ "grouproles:maxBatchSize": "1" });
});
afterAll(() => h.close());
beforeEach(async () => {
  await newDeployment(h);
  NAME_WAIT.undeclaredGraceMs = 300;
});
afterEach(() => {
  NAME_WAIT.undeclaredGraceMs = grace;
});

type Made = Awaited<ReturnType<typeof provider.create>>;
const make = (name: string) => provider.create({ groupId: 42, name });
const names = async () => Object.fromEntries((await h.listRoles(42)).map((r) => [r.roleId, r.name]));
/** Diff then update, as the engine does for each resource of a deployment. */
async function rename(role: Made, to: string) {
  const news = { groupId: 42, name: to };
  await provider.diff(role.id, role.outs, news);
  return provider.update(role.id, role.outs, news);
}

describe("renames that meet a taken name", () => {
  it("a swap in separate requests applies, through a temporary name", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger(); // the creates were an earlier deployment
    await h.clearRequests();
    // Both diffs first (the engine diffs as resources register), then both updates at once.
    await provider.diff(a.id, a.outs, { groupId: 42, name: "Y" });
    await provider.diff(b.id, b.outs, { groupId: 42, name: "X" });
    await Promise.all([
      provider.update(a.id, a.outs, { groupId: 42, name: "Y" }),
      provider.update(b.id, b.outs, { groupId: 42, name: "X" }),
    ]);
    expect(await names()).toEqual({ [a.outs.roleId]: "Y", [b.outs.roleId]: "X" });
    const puts = (await h.requests()).entries
      .filter((e) => e.method === "PUT")
      .map((e) => JSON.parse(e.body)[0].name as string);
    expect(puts.some((n) => n.startsWith("~renaming role"))).toBe(true);
  });

  it("the holder's own update failed: the rename fails at once, saying so", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    await h.api("POST", "/groups/42/roles", [{ name: "Z" }]);
    resetDeploymentLedger(); // the creates were an earlier deployment
    await provider.diff(a.id, a.outs, { groupId: 42, name: "Y" });
    const started = Date.now();
    const [ra, rb] = await Promise.allSettled([rename(a, "Y"), rename(b, "Z")]);
    expect(rb.status).toBe("rejected");
    expect(ra.status).toBe("rejected");
    expect(String((ra as PromiseRejectedResult).reason.message)).toContain(
      `the name "Y" is held by role "Y" (id 42/${b.outs.roleId}), which this deployment renames, but its own update failed`,
    );
    expect(Date.now() - started).toBeLessThan(NAME_WAIT.deadlineMs / 2);
    expect(Object.values(await names()).sort()).toEqual(["X", "Y", "Z"]);
  });

  it("a holder this deployment does not declare: fails after the grace period, names left as they were", async () => {
    const a = await make("X");
    await h.api("POST", "/groups/42/roles", [{ name: "Y" }]);
    const err = await rename(a, "Y").catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error & { code: string }).code).toBe("ERR_NAME_TAKEN");
    expect((err as Error).message).toContain("which this deployment does not declare");
    expect((err as Error).message).toContain("reverse that dependency: give this Role `dependsOn` on it");
    expect(Object.values(await names()).sort()).toEqual(["X", "Y"]);
  });
});
