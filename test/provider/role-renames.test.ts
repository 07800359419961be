/**
 * Renames that meet a name another role holds, at the provider level (the e2e suites run the same
 * through the engine stand-in), with every write in its own request (`grouproles:maxBatchSize` 1): a
 * rename waits for the step of a resource registered before it that frees the name, and nothing else;
 * a swap, or a name freed by a resource registered later, is refused in the later one's Diff; a holder
 * nobody frees fails at once, naming it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import type { EmulatorHarness } from "../support/emulator";
import { rejection } from "../support/rejection";
import { newDeployment, provider, providerAgainstEmulator } from "./provider-harness";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await providerAgainstEmulator({ "grouproles:maxBatchSize": "1" });
});
afterAll(() => h.close());
beforeEach(() => newDeployment(h));

type Made = Awaited<ReturnType<typeof provider.create>>;
const make = (name: string) => provider.create({ groupId: 42, name });
const names = async () => Object.fromEntries((await h.listRoles(42)).map((r) => [r.roleId, r.name]));
/** The engine's Check and Diff of a Role renamed to `to`, as it registers. */
async function register(role: Made, to: string) {
  const news = { groupId: 42, name: to };
  await provider.check(role.outs, news);
  return provider.diff(role.id, role.outs, news);
}
const update = (role: Made, to: string) => provider.update(role.id, role.outs, { groupId: 42, name: to });

describe("renames that meet a taken name", () => {
  it("a chain whose freer registers first: the taker's update waits for that step, then applies", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger(); // the creates were an earlier deployment
    await register(b, "Z"); // frees "Y"
    await register(a, "Y"); // takes it
    // The taker's step runs first and meets the name still held; it waits for the freer's step only.
    const taking = update(a, "Y");
    await new Promise((r) => setTimeout(r, 50));
    expect(await names()).toEqual({ [a.outs.roleId]: "X", [b.outs.roleId]: "Y" });
    await update(b, "Z");
    await taking;
    expect(await names()).toEqual({ [a.outs.roleId]: "Y", [b.outs.roleId]: "Z" });
  });

  it("a chain whose taker registers first: the freer's Diff is refused, naming dependsOn on the taker", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger();
    await register(a, "Y");
    const err = await rejection(register(b, "Z"));
    expect(err.message).toContain(`this resource renames role "Y" (roleId ${b.outs.roleId}) to "Z"`);
    expect(err.message).toContain(`Give the Role "X" (id ${a.id}) the resource option \`dependsOn\` on this resource`);
  });

  it("a swap between two Roles is refused in the second one's Diff: two steps, or one GroupRoles", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger();
    await register(a, "Y");
    const err = await rejection(register(b, "X"));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain("The two swap names");
    expect(await names()).toEqual({ [a.outs.roleId]: "X", [b.outs.roleId]: "Y" });
  });

  it("the freer's own update failed: the taker's rename fails, saying so; every name stays", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    await h.api("POST", "/groups/42/roles", [{ name: "Z" }]);
    resetDeploymentLedger();
    await register(b, "Z");
    await register(a, "Y");
    const [ra, rb] = await Promise.allSettled([update(a, "Y"), update(b, "Z")]);
    expect(rb.status).toBe("rejected");
    expect(ra.status).toBe("rejected");
    expect(String((ra as PromiseRejectedResult).reason.message)).toContain(
      `the name "Y" is held by role "Y" (id 42/${b.outs.roleId}), which the Role "Y" (id ${b.id}) renames away or ` +
        "deletes in this change, but its change failed",
    );
    expect(Object.values(await names()).sort()).toEqual(["X", "Y", "Z"]);
  });

  it("a holder this deployment does not declare: fails at once, names left as they were", async () => {
    const a = await make("X");
    await h.api("POST", "/groups/42/roles", [{ name: "Y" }]);
    resetDeploymentLedger();
    await register(a, "Y");
    const err = await rejection(update(a, "Y"));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain("which this deployment does not declare");
    expect(err.message).toContain("reverse that dependency: give this Role `dependsOn` on it");
    expect(Object.values(await names()).sort()).toEqual(["X", "Y"]);
  });
});
