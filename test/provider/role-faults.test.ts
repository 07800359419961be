/** Regressions found by the fault matrix (test/faults): each fails without its fix. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setStackConfig } from "../../config/stack-config";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { provider, providerAgainstEmulator, newDeployment } from "./provider-harness";
import type { EmulatorHarness } from "../support/emulator";
import { waitFor } from "../support/wait";

let h: EmulatorHarness;
let config: Record<string, string>;
beforeAll(async () => {
  h = await providerAgainstEmulator();
  config = {
    "grouproles:baseUrl": h.emu.baseUrl,
    "grouproles:accessToken": h.emu.token,
    "grouproles:timeoutMs": "300",
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
});
afterAll(async () => {
  setStackConfig(undefined);
  await h.close();
});
beforeEach(() => newDeployment(h));

const role = { groupId: 42, name: "Support", settings: { viewVideo: true } };

// These two wait out real timers (about 6 s together): the mutation run (vitest.stryker.config.mts) skips them.
const slow = process.env["MUTATION_RUN"] ? it.skip : it;

describe("faults the simulation found", () => {
  it("an update applied whose read-back fails is a partial update recording what was sent", async () => {
    // Found by the simulation (docs/simulation.md): the rename was applied, the read-back's lists failed,
    // and the plain error left the old name in state while the service held the new one.
    const { id, outs } = await provider.create({ ...role });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "drop-before", times: 0 });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles/*", action: "drop-before", times: 0 });
    const err = (await provider
      .update(id, { ...outs }, { ...role, name: "Support 2" })
      .catch((e: unknown) => e)) as Error & { id?: string; properties?: Record<string, unknown> };
    await h.admin("DELETE", "/faults");
    expect(err.message).toContain('updating role "Support 2"');
    expect(err.message).toContain("the update was applied, but reading the role back failed");
    expect(err.id).toBe(id);
    expect(err.properties).toMatchObject({ name: "Support 2", settings: { viewVideo: true }, userCount: 0 });
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["Support 2"]);
  });
});

describe("faults the matrix found", () => {
  slow(
    "a create that timed out and lands later is kept unconfirmed, then adopted by the next up: one role",
    async () => {
      // undici's timers fire up to ~1 s late: the reply must come well after the timeout to be one.
      await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "latency", latencyMs: 1800 });
      const err = (await provider.create({ ...role }).catch((e: unknown) => e)) as Error & {
        id?: string;
        properties?: Record<string, unknown>;
      };
      expect(err.id).toBe("42/unconfirmed");
      await waitFor(async () => (await h.listRoles(42)).length === 1, "the late create to land", 10_000);
      // The next `pulumi up`: the engine diffs the unconfirmed record (a replacement) and creates anew.
      resetDeploymentLedger();
      const olds = err.properties!;
      await provider.check(olds, { ...role });
      expect((await provider.diff(err.id!, olds, { ...role })).replaces).toEqual(["roleId"]);
      await provider.check({}, { ...role });
      const { id } = await provider.create({ ...role });
      const roles = await h.listRoles(42);
      expect(roles).toHaveLength(1);
      expect(id).toBe(`42/${roles[0]!.roleId}`);
    },
  );

  slow("a create that times out and has not landed: kept unconfirmed, never said to have created nothing", async () => {
    // Group 43: the request lands after this test, and must not land in another test's group 42.
    await h.fault({ method: "POST", path: "/api/v0/groups/43/roles", action: "latency", latencyMs: 6000 });
    const err = (await provider.create({ ...role, groupId: 43 }).catch((e: unknown) => e)) as Error & { id?: string };
    expect(err.message).toContain('creating role "Support" in group 43: no reply');
    expect(err.message).toContain("timed out");
    expect(err.message).toContain("the service may still create it");
    expect(err.message).not.toContain("nothing was created");
    expect(err.id).toBe("43/unconfirmed");
  });

  it("a name already taken says which role holds it and how to import it", async () => {
    const { id } = await provider.create({ ...role });
    resetDeploymentLedger(); // the holder was made by an earlier deployment, as by hand
    const err = (await provider.create({ ...role }).catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.message).toContain(`already has a role named "Support" (id ${id})`);
    expect(err.message).toContain(`import: "${id}"`);
  });

  it("a list that lost the role's entry does not make delete drop a role that still exists", async () => {
    await provider.create({ groupId: 42, name: "First" });
    const { id, outs } = await provider.create({ ...role });
    // wrong-shape drops the last item of the list: the role being deleted.
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape", times: 0 });
    const err = await provider.delete(id, outs).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`deleting role "Support" (id ${id})`);
    await h.admin("DELETE", "/faults");
    expect((await h.listRoles(42)).map((r) => r.name)).toEqual(["First", "Support"]);
  });

  it("a refresh does not record a role as unused from a list that lost its entry", async () => {
    await provider.create({ groupId: 42, name: "First" });
    const { id, outs } = await provider.create({ ...role });
    await h.setUsers(42, outs.roleId, 2);
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape", times: 1 });
    const r = await provider.read(id, outs);
    expect(r.props).toMatchObject({ inUse: true, userCount: 2 });
  });

  it("a failed read names the role", async () => {
    const { id, outs } = await provider.create({ ...role });
    await h.fault({ method: "GET", path: `/api/v0/groups/42/roles/${outs.roleId}`, action: "status", status: 403 });
    await expect(provider.read(id, outs)).rejects.toThrow(`reading role "Support" (id ${id})`);
  });
});
