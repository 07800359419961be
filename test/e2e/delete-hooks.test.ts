/**
 * A pull request that removes a role users hold fails its preview, whatever resource declared it: the
 * before-delete hook both SDKs bind to every `Role` and `GroupRoles` (sdk/delete-guard), run by the engine
 * in the delete step of a preview (pulumi/pulumi v3.274.1 pkg/resource/deploy/step.go `DeleteStep.Apply`).
 * Through the engine stand-in in `npm test`, through the real CLI in `npm run test:cli`; each outcome is
 * read from the service (its roles, its request log) and the state, never from what the test sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  catalogueSpec,
  roleSpec,
  runMixed,
  kindTests,
  SDK_KINDS,
  specProgram,
  stackFor,
  typePrefix,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

const HOOK_FAILED = 'before hook "grouproles-in-use" failed';

describe.each(SDK_KINDS)("with the %s SDK", (sdk) => {
  // Each test with one kind through the stand-in (the kinds taking turns), with both through the real CLI.
  const { once, both } = kindTests(sdk);
  let s: Stack;
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec", {}, {}, undefined, sdk);
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    await s.fresh();
    s.flags = undefined;
  });

  const urn = (type: "Role" | "GroupRoles", name: string) =>
    `urn:pulumi:dev::roles-spec::${typePrefix(sdk)}${type}::${name}`;
  const up = async (catalogues: GroupRolesSpec[], roles: RoleSpec[], config: Record<string, string> = {}) => {
    const r = await runMixed(s, "up", catalogues, roles, config);
    expect(r.ok, r.errors.join("\n")).toBe(true);
    return r;
  };
  const idOf = async (name: string) => (await s.h.listRoles(42)).find((r) => r.name === name)!.roleId;
  const inState = (r: { resources: Array<{ urn: string }> }, u: string) => r.resources.some((x) => x.urn === u);
  const writes = async () => (await s.h.requests()).entries.filter((e) => e.method !== "GET");

  both("a Role removed while users hold its role fails the preview naming it; up deletes nothing", async () => {
    await up([], [roleSpec("support", "Support"), roleSpec("billing", "Billing")]);
    const id = await idOf("Support");
    await s.h.setUsers(42, id, 2);
    await s.h.clearRequests();

    const preview = await runMixed(s, "preview", [], [roleSpec("billing", "Billing")]);
    expect(preview.ok).toBe(false);
    const text = preview.errors.join("\n");
    expect(text).toContain(HOOK_FAILED);
    expect(text).toContain(
      `Role 'support' would delete a role that users hold: role "Support" (id 42/${id}), held by 2 users`,
    );
    expect(text).toContain("`retainOnDelete: true`");

    const applied = await runMixed(s, "up", [], [roleSpec("billing", "Billing")]);
    expect(applied.ok).toBe(false);
    expect(applied.errors.join("\n")).toContain(HOOK_FAILED);
    expect(await writes()).toEqual([]);
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Billing", "Support"]);
    expect(inState(applied, urn("Role", "support"))).toBe(true);
  });

  once("a whole GroupRoles removed while users hold one of its roles fails the preview naming the entry", async () => {
    await up([catalogueSpec("team", { a: { name: "A" }, b: { name: "B" } })], [roleSpec("other", "Other")]);
    const id = await idOf("B");
    await s.h.setUsers(42, id, 1);
    const preview = await runMixed(s, "preview", [], [roleSpec("other", "Other")]);
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain(
      `GroupRoles 'team' would delete a role that users hold: entry "b": role "B" (id 42/${id}), held by 1 user`,
    );
    // Its entries with `retain: true` are kept by its delete: then nothing is lost.
    await up(
      [catalogueSpec("team", { a: { name: "A" }, b: { name: "B", retain: true } })],
      [roleSpec("other", "Other")],
    );
    await up([], [roleSpec("other", "Other")]);
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["B", "Other"]);
  });

  once("two removed Roles of one group cost the hooks one list request", async () => {
    await up([], [roleSpec("support", "Support"), roleSpec("billing", "Billing")]);
    await s.h.setUsers(42, await idOf("Support"), 1);
    await s.h.setUsers(42, await idOf("Billing"), 1);
    await s.h.clearRequests();
    const preview = await runMixed(s, "preview", [], []);
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toMatch(/Role '(support|billing)' would delete a role that users hold/);
    const lists = (await s.h.requests()).entries.filter(
      (e) => e.method === "GET" && e.path === "/api/v0/groups/42/roles",
    );
    expect(lists).toHaveLength(1);
  });

  once("a hook that cannot read the service fails the preview, never passes as 'no users'", async () => {
    await up([], [roleSpec("support", "Support")]);
    await s.h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 403 });
    const preview = await runMixed(s, "preview", [], []);
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain("Role 'support': could not read the roles of group 42");
    expect(preview.errors.join("\n")).not.toContain(s.h.emu.token);
  });

  once("a --target'ed removal fails the preview too", async () => {
    await up([], [roleSpec("support", "Support"), roleSpec("billing", "Billing")]);
    await s.h.setUsers(42, await idOf("Support"), 3);
    s.flags = { targets: [urn("Role", "support")] };
    const preview = await runMixed(s, "preview", [], [roleSpec("billing", "Billing")]);
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain(`Role 'support' would delete a role that users hold`);
  });

  once("a removed role with no users previews green and goes at up; a retained one stays in the service", async () => {
    await up(
      [],
      [roleSpec("support", "Support"), roleSpec("kept", "Kept", { retainOnDelete: true }), roleSpec("x", "X")],
    );
    await s.h.setUsers(42, await idOf("Kept"), 4);
    const preview = await runMixed(s, "preview", [], [roleSpec("x", "X")]);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    await up([], [roleSpec("x", "X")]);
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Kept", "X"]);
  });

  once("a removed Role whose role a catalogue adopts in the same change previews green and keeps its ID", async () => {
    await up([], [roleSpec("support", "Support")]);
    const id = await idOf("Support");
    await s.h.setUsers(42, id, 2);
    const adopting = [catalogueSpec("team", { support: { name: "Support" } }, { adoptExisting: true })];
    const preview = await runMixed(s, "preview", adopting, []);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    await up(adopting, []);
    expect(await s.h.listRoles(42)).toEqual([expect.objectContaining({ roleId: id, name: "Support", userCount: 2 })]);
  });

  both("a forced replacement (--replace) of a Role whose role users hold, renamed, fails the preview", async () => {
    // Found by the simulation (docs/simulation.md): a forced replacement sends the provider no Diff
    // (step_generator.go `diff`, `isTargetedReplace`), so only the hook of the old Role's delete sees it.
    await up([], [roleSpec("r1", "Ops"), roleSpec("x", "X")]);
    const id = await idOf("Ops");
    await s.h.setUsers(42, id, 1);
    await s.h.clearRequests();
    s.flags = { replaces: [urn("Role", "r1")] };
    const renamed = [roleSpec("r1", "Triage"), roleSpec("x", "X")];
    const preview = await runMixed(s, "preview", [], renamed);
    expect(preview.ok).toBe(false);
    const text = preview.errors.join("\n");
    expect(text).toContain(HOOK_FAILED);
    expect(text).toContain(
      `Role 'r1' is being deleted while this program still declares it, which would delete a role that users hold: ` +
        `role "Ops" (id 42/${id}), held by 1 user.`,
    );
    expect(text).toContain(`\`pulumi state delete '${urn("Role", "r1")}'\``);
    expect(await writes()).toEqual([]);
    // The way out it names: rename in code, no forced replacement (an update keeps the role and its user).
    s.flags = undefined;
    await up([], renamed);
    expect(await s.h.listRoles(42)).toContainEqual(
      expect.objectContaining({ roleId: id, name: "Triage", userCount: 1 }),
    );
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Triage", "X"]);
  });

  // The dynamic-provider host sends no changed keys (@pulumi/pulumi cmd/dynamic-provider/index.js `diffRPC`), so
  // `replaceOnChanges` replaces nothing there: the plugin's resources only.
  if (sdk === "package")
    it("a replacement that deletes first (replaceOnChanges) of a Role whose role users hold fails the preview", async () => {
      const options = { replaceOnChanges: ["description"] };
      await up([], [roleSpec("r1", "Ops", options)]);
      const id = await idOf("Ops");
      await s.h.setUsers(42, id, 2);
      await s.h.clearRequests();
      const described = [{ ...roleSpec("r1", "Ops", options), args: { groupId: 42, name: "Ops", description: "new" } }];
      const preview = await runMixed(s, "preview", [], described);
      expect(preview.ok).toBe(false);
      expect(preview.errors.join("\n")).toContain(`Role 'r1' is being deleted while this program still declares it`);
      const applied = await runMixed(s, "up", [], described);
      expect(applied.ok).toBe(false);
      expect(await writes()).toEqual([]);
      expect(await s.h.listRoles(42)).toEqual([expect.objectContaining({ roleId: id, name: "Ops", userCount: 2 })]);
    });

  once("with grouproles:deleteHooks false, no hook is bound: the preview is green and the up refuses", async () => {
    const off = { "grouproles:deleteHooks": "false" };
    await up([], [roleSpec("support", "Support"), roleSpec("x", "X")], off);
    await s.h.setUsers(42, await idOf("Support"), 1);
    const preview = await runMixed(s, "preview", [], [roleSpec("x", "X")], off);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    const applied = await runMixed(s, "up", [], [roleSpec("x", "X")], off);
    expect(applied.ok).toBe(false);
    expect(applied.errors.join("\n")).not.toContain(HOOK_FAILED);
    expect(await idOf("Support")).toBeGreaterThan(0);
  });

  once(
    "destroy needs --run-program; then its hook refuses a role users hold, and all goes once none is held",
    async () => {
      const program = [roleSpec("support", "Support"), roleSpec("x", "X")];
      await up([], program);
      const id = await idOf("Support");
      await s.h.setUsers(42, id, 1);
      s.flags = { runProgram: false };
      const refused = await runMixed(s, "destroy", [], program);
      expect(refused.ok).toBe(false);
      // The Go engine's texts (pkg/engine/destroy.go `newDestroySource`): one error per resource, then the way.
      expect(refused.errors.join("\n")).toContain(
        `${urn("Role", "support")}: Resource has delete hooks registered, but the program is not running. Hooks: grouproles-in-use`,
      );
      expect(`${refused.stdout}\n${refused.stderr}\n${refused.errors.join("\n")}`).toContain(
        "You must run with the `--run-program` flag to use delete hooks during destroy.",
      );
      expect(await s.h.listRoles(42)).toHaveLength(2);

      // The program still declares the Role: its hook refuses (a destroy and a replacement look alike to
      // it), before its provider is called, and names the destroy's ways out.
      s.flags = { runProgram: true };
      const destroyed = await runMixed(s, "destroy", [], program);
      expect(destroyed.ok).toBe(false);
      const text = destroyed.errors.join("\n");
      expect(text).toContain(HOOK_FAILED);
      expect(text).toContain(`role "Support" (id 42/${id}), held by 1 user`);
      expect(text).toContain("`pulumi destroy --run-program` leaves the role in the service");
      expect((await s.h.listRoles(42)).map((r) => r.name)).toContain("Support");

      await s.h.setUsers(42, id, 0);
      const done = await runMixed(s, "destroy", [], program);
      expect(done.ok, done.errors.join("\n")).toBe(true);
      expect(await s.h.listRoles(42)).toEqual([]);
      expect(done.resources.filter((r) => r.type.includes("grouproles"))).toEqual([]);
    },
  );

  once("destroy of a catalogue that adopts its own roles (adoptExisting) is refused while users hold one", async () => {
    // Its own claim on the role is no takeover: the destroy deletes the catalogue (user trial of issue 52).
    const team = [catalogueSpec("team", { s: { name: "Support" }, b: { name: "Billing" } }, { adoptExisting: true })];
    await up(team, []);
    const id = await idOf("Support");
    await s.h.setUsers(42, id, 4);
    await s.h.clearRequests();
    s.flags = { runProgram: true };
    const destroyed = await runMixed(s, "destroy", team, []);
    expect(destroyed.ok).toBe(false);
    expect(destroyed.errors.join("\n")).toContain(
      `GroupRoles 'team' is being deleted while this program still declares it, which would delete a role that ` +
        `users hold: entry "s": role "Support" (id 42/${id}), held by 4 users.`,
    );
    expect(await writes()).toEqual([]);
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Billing", "Support"]);
  });
});

describe("an explicit Provider of the plugin SDK", () => {
  let s: Stack;
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec", {}, {}, undefined, "package");
  });
  afterAll(() => s?.close());

  it("binds its own hook, which reads the service with the provider's inputs", async () => {
    await s.fresh();
    const config = {
      "roles-spec:provider": JSON.stringify({ baseUrl: s.h.emu.baseUrl, accessToken: s.h.emu.token }),
      // Nothing listens there: only the provider's inputs reach the service.
      "grouproles:baseUrl": "http://127.0.0.1:9",
    };
    await expect(
      runMixed(s, "up", [], [roleSpec("support", "Support"), roleSpec("x", "X")], config),
    ).resolves.toMatchObject({ ok: true });
    const id = (await s.h.listRoles(42)).find((r) => r.name === "Support")!.roleId;
    await s.h.setUsers(42, id, 2);
    const preview = await runMixed(s, "preview", [], [roleSpec("x", "X")], config);
    expect(preview.ok).toBe(false);
    const text = preview.errors.join("\n");
    expect(text).toContain('before hook "grouproles-in-use-explicit" failed');
    expect(text).toContain(`role "Support" (id 42/${id}), held by 2 users`);
  });
});
