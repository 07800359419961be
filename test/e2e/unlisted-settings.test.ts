/**
 * Only the settings a program lists are managed: keys set by hand (or present on an imported role)
 * survive every update, whether the service replaces an update's settings map or merges it (the
 * service does not document which; the emulator plays both). Through the engine stand-in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runSpec, specProgram, stackFor, type RoleSpec, type Stack } from "./harness";

const details = async (s: Stack, roleId: number) =>
  (await s.h.api("GET", `/groups/42/roles/${roleId}`)).json as {
    settings: Record<string, boolean>;
    description: string;
  };
const roleIdOf = async (s: Stack, name: string) => (await s.h.listRoles(42)).find((r) => r.name === name)!.roleId;

describe.each(["replace", "merge"] as const)("settings not listed survive updates (service %s)", (mode) => {
  let s: Stack;
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec", {}, { settingsUpdate: mode });
  });
  afterAll(() => s?.close());
  beforeEach(() => s.fresh());

  const support = (args: Partial<RoleSpec["args"]> = {}): RoleSpec[] => [
    { name: "support", args: { groupId: 42, name: "Support", settings: { viewVideo: true }, ...args } },
  ];

  it("a key set by hand survives a description change, a settings change and a removed key", async () => {
    const up = await runSpec(s, "up", support());
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const roleId = await roleIdOf(s, "Support");
    // A hand edit as an admin would make it: the full map, so it holds under either service behaviour.
    await s.h.api("PUT", "/groups/42/roles", [
      { roleId, name: "Support", settings: { viewVideo: true, inviteGuest: true } },
    ]);

    const described = await runSpec(s, "up", support({ description: "First line" }));
    expect(described.ok, described.errors.join("\n")).toBe(true);
    expect(await details(s, roleId)).toMatchObject({
      description: "First line",
      settings: { viewVideo: true, inviteGuest: true },
    });

    const changed = await runSpec(s, "up", support({ description: "First line", settings: { viewVideo: false } }));
    expect(changed.ok, changed.errors.join("\n")).toBe(true);
    expect((await details(s, roleId)).settings).toEqual({ viewVideo: false, inviteGuest: true });

    const removed = await runSpec(s, "up", support({ description: "First line", settings: {} }));
    expect(removed.ok, removed.errors.join("\n")).toBe(true);
    expect((await details(s, roleId)).settings).toEqual({ inviteGuest: true });
  });

  it("an imported role keeps the settings the program does not list on its first change", async () => {
    const made = await s.h.api("POST", "/groups/42/roles", [
      { name: "Billing", settings: { viewVideo: true, inviteGuest: true, remoteAssist: false } },
    ]);
    const roleId = (made.json as Array<{ roleId: number }>)[0].roleId;
    const declared: RoleSpec = {
      name: "billing",
      args: { groupId: 42, name: "Billing", settings: { viewVideo: true } },
    };
    const imported = await runSpec(s, "up", [{ ...declared, opts: { import: `42/${roleId}` } }]);
    expect(imported.ok, imported.errors.join("\n")).toBe(true);

    const changed = await runSpec(s, "up", [
      { ...declared, args: { ...declared.args, settings: { viewVideo: false } } },
    ]);
    expect(changed.ok, changed.errors.join("\n")).toBe(true);
    expect((await details(s, roleId)).settings).toEqual({ viewVideo: false, inviteGuest: true, remoteAssist: false });
  });
});

describe("settings named like members of Object.prototype", () => {
  let s: Stack;
  beforeAll(async () => {
    s = await stackFor(specProgram, "roles-spec");
  });
  afterAll(() => s?.close());

  it("toString and constructor are setting names like any other, end to end; a removed one is reset", async () => {
    const odd = (settings: Record<string, boolean>): RoleSpec[] => [
      { name: "odd", args: { groupId: 42, name: "Odd", settings } },
    ];
    const up = await runSpec(s, "up", odd({ toString: true, constructor: false, viewVideo: true }));
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const roleId = await roleIdOf(s, "Odd");
    expect((await details(s, roleId)).settings).toEqual({ toString: true, constructor: false, viewVideo: true });
    const removed = await runSpec(s, "up", odd({ toString: true, viewVideo: true }));
    expect(removed.ok, removed.errors.join("\n")).toBe(true);
    const put = (await s.h.requests()).entries.filter((e) => e.method === "PUT").pop();
    expect(JSON.parse(put!.body)[0].settings).toEqual({ toString: true, constructor: null, viewVideo: true });
    expect((await details(s, roleId)).settings).toEqual({ toString: true, viewVideo: true });
  });
});
