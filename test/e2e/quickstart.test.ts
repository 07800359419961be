/** examples/quickstart through the real Pulumi runtime and provider host: preview, up, change, refresh, destroy. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectVisitor, type VisitorConnection } from "../../emulator";
import { UNKNOWN } from "../../tools/engine";
import { exampleDir, rolePlan, stackFor, type Stack } from "./harness";

let s: Stack;
let visitor: VisitorConnection;
beforeAll(async () => {
  s = await stackFor(exampleDir("quickstart"), "quickstart", { "quickstart:groupId": "42" });
  visitor = await connectVisitor({ presenceUrl: s.h.emu.presenceUrl, groupId: 42, visitorId: "visitor-1" });
});
afterAll(async () => {
  await visitor?.close();
  await s?.close();
});

describe("examples/quickstart", () => {
  it("preview plans three creates, sends no write, and leaves no state", async () => {
    const r = await s.run("preview");
    expect(r.errors, r.stderr).toEqual([]);
    expect(rolePlan(r).sort()).toEqual(["+ create supervisors", "+ create support", "+ create viewers"]);
    expect(r.outputs.roleIds).toEqual({ support: UNKNOWN, supervisors: UNKNOWN, viewers: UNKNOWN });
    expect(r.outputs.visitorPresent).toBe(true);
    const counts = (await s.h.requests()).counts;
    expect(counts["POST /api/v0/groups/:groupId/roles"]).toBeUndefined();
    expect(await s.h.listRoles(42)).toEqual([]);
  });

  it("up creates the roles; outputs come from the service", async () => {
    const r = await s.run("up");
    expect(r.errors, r.stderr + r.providerHost.stderr).toEqual([]);
    const roles = await s.h.listRoles(42);
    expect(roles.map((x) => x.name).sort()).toEqual(["Supervisors", "Support", "Viewers"]);
    const support = roles.find((x) => x.name === "Support")!;
    expect((r.outputs.roleIds as Record<string, string>).support).toBe(`42/${support.roleId}`);
    expect(r.outputs.supportInUse).toBe(false);
    expect(r.outputs.supportSettings).toEqual({ viewVideo: true, remoteAssist: true, joinCobrowseSessions: true });
  });

  it("a second up plans nothing and writes nothing", async () => {
    await s.h.clearRequests();
    const r = await s.run("up");
    expect(r.ok).toBe(true);
    expect(rolePlan(r)).toEqual([]);
    const { counts } = await s.h.requests();
    const writes = Object.keys(counts).filter((k) => !k.startsWith("GET"));
    expect(writes).toEqual([]);
  });

  it("a renamed role previews as an update of exactly that property, then applies", async () => {
    const preview = await s.run("preview", { "quickstart:supportName": "Support Tier 1" });
    expect(rolePlan(preview)).toEqual(["~ update support [name]"]);
    const up = await s.run("up", { "quickstart:supportName": "Support Tier 1" });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect((await s.h.listRoles(42)).map((x) => x.name).sort()).toEqual(["Supervisors", "Support Tier 1", "Viewers"]);
  });

  it("refresh picks up an out-of-band change; the next preview shows the drift", async () => {
    const viewers = (await s.h.listRoles(42)).find((x) => x.name === "Viewers")!;
    await s.h.api("PUT", "/groups/42/roles", [
      { roleId: viewers.roleId, name: "Viewers", settings: { viewVideo: false } },
    ]);
    const r = await s.run("refresh", { "quickstart:supportName": "Support Tier 1" });
    expect(r.ok, r.errors.join("\n")).toBe(true);
    const state = r.resources.find((x) => x.urn.endsWith("::viewers"))!;
    expect((state.outputs as { settings: object }).settings).toEqual({ viewVideo: false });
    const preview = await s.run("preview", { "quickstart:supportName": "Support Tier 1" });
    // Drift is found by the provider's diff; like the CLI, the engine lists changed properties only
    // when the program's inputs changed, so the line names no property.
    expect(rolePlan(preview)).toEqual(["~ update viewers"]);
  });

  it("destroy deletes every role", async () => {
    const r = await s.run("destroy");
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect(await s.h.listRoles(42)).toEqual([]);
    expect(r.resources).toEqual([]);
  });
});
