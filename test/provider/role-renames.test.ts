/**
 * Renames that meet a name another role holds, at the provider level (the e2e suites run the same
 * through the engine stand-in), with every write in its own request (`grouproles:maxBatchSize` 1): a
 * rename onto a name another Role frees applies when that Role is in its `dependsOn` (its step ended
 * first; nothing waits), and is refused in its Diff otherwise, whichever registers first; a swap is
 * refused; a holder nobody frees is refused in the Diff, and one that appears after it fails at once.
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
const urnOf = (role: Made) => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/grouproles:Role::r${role.outs.roleId}`;
/** The program's structure, as the SDK hands it: this Role's URN and the resources in its `dependsOn`. */
const structure = (role: Made, dependsOn: Made[] = []) => ({
  urn: urnOf(role),
  dependsOn: dependsOn.map((d) => ({ urn: urnOf(d) })),
});
const inputs = (role: Made, to: string, dependsOn: Made[] = []) => ({
  groupId: 42,
  name: to,
  __structure: structure(role, dependsOn),
});
/** The engine's Check and Diff of a Role renamed to `to`, as it registers. */
async function register(role: Made, to: string, dependsOn: Made[] = []) {
  const news = inputs(role, to, dependsOn);
  await provider.check(role.outs, news);
  return provider.diff(role.id, role.outs, news);
}
const update = (role: Made, to: string, dependsOn: Made[] = []) =>
  provider.update(role.id, role.outs, inputs(role, to, dependsOn));

describe("renames that meet a taken name", () => {
  it("a chain whose freer is in the taker's dependsOn: the freer's step ends first, then the taker applies", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger(); // the creates were an earlier deployment
    await register(b, "Z"); // frees "Y"
    await update(b, "Z"); // the engine registers `a` only once this step ended (`dependsOn`)
    await register(a, "Y", [b]); // takes it
    await update(a, "Y", [b]);
    expect(await names()).toEqual({ [a.outs.roleId]: "Y", [b.outs.roleId]: "Z" });
  });

  it("the same chain without dependsOn: refused whichever registers first, nothing written", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    resetDeploymentLedger();
    await register(b, "Z");
    const taker = await rejection(register(a, "Y"));
    expect(taker.message).toContain('already has a role named "Y"');
    expect(taker.message).toContain(
      `give this Role the resource option \`dependsOn\` on the Role "r${b.outs.roleId}" (role "Y"`,
    );
    resetDeploymentLedger();
    await register(a, "Y").catch(() => undefined); // refused on its own: "Y" is held
    resetDeploymentLedger();
    const first = await rejection(register(a, "Y"));
    expect(first.message).toContain("no resource in this Role's `dependsOn` renames it away or deletes it");
    expect(await names()).toEqual({ [a.outs.roleId]: "X", [b.outs.roleId]: "Y" });
  });

  it("a freer registered after the taker is refused in its Diff, naming dependsOn on the taker", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    await h.api("PUT", "/groups/42/roles", [{ roleId: b.outs.roleId, name: "Y2" }]); // "Y" free for a's Diff
    resetDeploymentLedger();
    await register(a, "Y");
    await h.api("PUT", "/groups/42/roles", [{ roleId: b.outs.roleId, name: "Y" }]);
    const err = await rejection(register(b, "Z"));
    expect(err.message).toContain(`this resource renames role "Y" (roleId ${b.outs.roleId}) to "Z"`);
    expect(err.message).toContain(
      `Give the Role "r${a.outs.roleId}" (role "X", id ${a.id}) the resource option \`dependsOn\` on this resource`,
    );
  });

  it("a swap between two Roles is refused in either one's Diff: two steps, or one GroupRoles", async () => {
    const [a, b] = [await make("X"), await make("Y")];
    for (const [first, to] of [
      [a, "Y"],
      [b, "X"],
    ] as const) {
      resetDeploymentLedger();
      const err = await rejection(register(first, to));
      expect(err.code).toBe("ERR_NAME_TAKEN");
      // The first to register cannot know the other takes its name; it says what a swap needs all the same
      // (following its `dependsOn` advice alone only moved the refusal to the other Role, in a user's trial).
      expect(err.message).toContain("give this Role `dependsOn` on it (a swap: two steps, or both in one GroupRoles)");
    }
    expect(await names()).toEqual({ [a.outs.roleId]: "X", [b.outs.roleId]: "Y" });
  });

  it("a holder no resource of the program frees: refused in the Diff (so in the preview), names left as they were", async () => {
    const a = await make("X");
    await h.api("POST", "/groups/42/roles", [{ name: "Y" }]);
    resetDeploymentLedger();
    const err = await rejection(register(a, "Y"));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain('renaming role "X" to "Y" in group 42');
    expect(Object.values(await names()).sort()).toEqual(["X", "Y"]);
  });

  it("an update whose name is still held when it runs fails at once, naming the holder", async () => {
    const a = await make("X");
    resetDeploymentLedger();
    await register(a, "Y");
    await h.api("POST", "/groups/42/roles", [{ name: "Y" }]); // made by hand after the preview
    const err = await rejection(update(a, "Y"));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain("which this deployment does not declare");
    expect(Object.values(await names()).sort()).toEqual(["X", "Y"]);
  });
});
