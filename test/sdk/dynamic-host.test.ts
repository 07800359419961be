/**
 * The serialized provider, loaded by the real `@pulumi/pulumi/cmd/dynamic-provider` host of an installed
 * project and driven over gRPC exactly as the engine drives it, manages a role in the emulator.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ProviderHost, type Target } from "../../tools/engine/provider-host";
import { startHarness, type EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
let host: ProviderHost;
let shim: string;
const t: Target = {
  urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/grouproles:Role::support",
  name: "support",
  type: "pulumi-nodejs:dynamic/grouproles:Role",
};

beforeAll(async () => {
  const project = inject("installedProject");
  const script = path.join(project, "capture-provider.js");
  copyFileSync(path.resolve(__dirname, "../support/capture-provider.js"), script);
  shim = (
    JSON.parse(execFileSync(process.execPath, [script], { cwd: project, encoding: "utf8" })) as {
      captured: Array<{ inputs: { __provider: string } }>;
    }
  ).captured[0].inputs.__provider;
  h = await startHarness({ tokens: ["secret-token-0a1b2c"] });
  host = new ProviderHost();
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("GROUPROLES_")) delete env[k];
  await host.start({
    modulePath: path.join(project, "node_modules/@pulumi/pulumi/cmd/dynamic-provider"),
    cwd: project,
    env,
    engineAddr: "127.0.0.1:1",
  });
});
afterAll(async () => {
  await host?.stop();
  await h?.close();
});

describe("real dynamic-provider host over gRPC", () => {
  it("Configure (secret token), Check, Create, Diff, Update, Read, Delete", async () => {
    await host.configure(
      { "grouproles:baseUrl": h.emu.baseUrl, "grouproles:accessToken": "secret-token-0a1b2c" },
      new Set(["grouproles:accessToken"]),
      {
        urn: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default",
        name: "default",
        type: "pulumi:providers:pulumi-nodejs",
      },
    );
    const news = { __provider: shim, groupId: 7, name: "Support", settings: { viewVideo: true, remoteAssist: false } };

    const bad = await host.check(t, {}, { ...news, name: "" });
    expect(bad.failures).toEqual([{ property: "name", reason: "name must not be empty" }]);

    const checked = await host.check(t, {}, news);
    expect(checked.failures).toEqual([]);
    const created = await host.create(t, checked.inputs);
    expect(created.id).toMatch(/^7\/\d+$/);
    expect(created.properties).toMatchObject({ name: "Support", inUse: false, userCount: 0, __provider: shim });
    expect((await h.listRoles(7)).map((r) => r.name)).toEqual(["Support"]);

    const same = await host.diff(
      t,
      created.id,
      created.properties,
      { ...news, settings: { remoteAssist: false, viewVideo: true } },
      news,
      [],
    );
    expect(same.changes).toBe("none");
    const renamed = { ...news, name: "Support L1" };
    const changed = await host.diff(t, created.id, created.properties, renamed, news, []);
    expect(changed).toMatchObject({ changes: "some", replaces: [] });
    const moved = await host.diff(t, created.id, created.properties, { ...news, groupId: 8 }, news, []);
    expect(moved).toMatchObject({ changes: "some", replaces: ["groupId"] });

    const updated = await host.update(t, created.id, created.properties, renamed, news, []);
    expect(updated).toMatchObject({ name: "Support L1" });
    expect((await h.listRoles(7)).map((r) => r.name)).toEqual(["Support L1"]);

    const read = await host.read(t, created.id, updated);
    expect(read.id).toBe(created.id);
    expect(read.properties).toMatchObject({ name: "Support L1", settings: { viewVideo: true, remoteAssist: false } });

    await h.setUsers(7, Number(created.id.split("/")[1]), 2);
    await expect(host.delete(t, created.id, updated, renamed)).rejects.toThrow(/is in use by 2 users/);
    await h.setUsers(7, Number(created.id.split("/")[1]), 0);
    await host.delete(t, created.id, updated, renamed);
    expect(await h.listRoles(7)).toEqual([]);
  });

  it("Role.get's read (only the ID and __provider) works", async () => {
    const [made] = (await h.api("POST", "/groups/7/roles", [{ name: "Manual" }])).json as Array<{ roleId: number }>;
    const read = await host.read(t, `7/${made.roleId}`, undefined, { __provider: shim });
    expect(read.properties).toMatchObject({ name: "Manual", roleId: made.roleId, groupId: 7 });
  });

  it("the token never appears in what the host printed", () => {
    expect(host.stdout + host.stderr).not.toContain("secret-token-0a1b2c");
  });
});
