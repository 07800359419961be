/** examples/import-existing: adopting a hand-made role with the `import` option, referencing one with Role.get. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleDir, rolePlan, stackFor, type Stack } from "./harness";

let s: Stack;
let config: Record<string, string>;
let agentsId: number;
beforeAll(async () => {
  s = await stackFor(exampleDir("import-existing"), "import-existing", { "import-existing:groupId": "42" });
  const made = (
    await s.h.api("POST", "/groups/42/roles", [
      { name: "Agents", description: "Created by hand in 2024", settings: { viewVideo: true } },
      { name: "Auditors", settings: { reportProblem: true } },
    ])
  ).json as Array<{ roleId: number }>;
  agentsId = made[0].roleId;
  await s.h.setUsers(42, agentsId, 5);
  config = {
    "import-existing:agentsRoleId": `42/${made[0].roleId}`,
    "import-existing:auditorsRoleId": `42/${made[1].roleId}`,
  };
});
afterAll(() => s?.close());

describe("examples/import-existing", () => {
  it("preview shows the adoption as a create (the engine cannot import dynamic resources) and changes nothing", async () => {
    const r = await s.run("preview", config);
    expect(r.ok, r.errors.join("\n")).toBe(true);
    expect(rolePlan(r).sort()).toEqual(["+ create agents", "> read auditors"]);
    // The `+ create` creates nothing: the preview says so, with the role's ID and users (issue 53).
    const note = r.diagnostics.find((d) => d.message.includes("takes over role"));
    expect(note?.message).toContain(
      `takes over role "Agents" (id 42/${agentsId}, 5 users) from the service: the \`+ create\` of this plan creates nothing`,
    );
    expect(note?.urn).toMatch(/::agents$/);
    expect(await s.h.listRoles(42)).toHaveLength(2);
    // An ID the group does not hold fails the preview, as the `up` would.
    const missing = await s.run("preview", { ...config, "import-existing:agentsRoleId": "42/999999" });
    expect(missing.ok).toBe(false);
    expect(missing.errors.join("\n")).toContain("importing role 42/999999: group 42 has no role with id 999999");
  });

  it("up adopts the hand-made role without creating anything, and reads the other", async () => {
    await s.h.clearRequests();
    const r = await s.run("up", config);
    expect(r.ok, r.errors.join("\n") + r.stderr).toBe(true);
    expect((await s.h.requests()).counts["POST /api/v0/groups/:groupId/roles"]).toBeUndefined();
    expect(await s.h.listRoles(42)).toHaveLength(2);
    expect(r.outputs).toMatchObject({
      agentsRoleId: agentsId,
      agentsUserCount: 5,
      auditorsName: "Auditors",
      auditorsSettings: { reportProblem: true },
    });
    const agents = r.resources.find((x) => x.urn.endsWith("::agents"))!;
    expect(agents.id).toBe(`42/${agentsId}`);
  });

  it("then the role is managed: a second up is a no-op", async () => {
    const r = await s.run("up", config);
    expect(r.ok).toBe(true);
    // Role.get reads again on every run, as in the CLI; the adopted role has no step.
    expect(rolePlan(r)).toEqual(["> read auditors"]);
  });

  it("a change to the adopted role is an update; refresh sees a hand edit", async () => {
    const r = await s.run("refresh", config);
    expect(r.ok, r.errors.join("\n")).toBe(true);
    await s.h.api("PUT", "/groups/42/roles", [
      { roleId: agentsId, name: "Agents", description: "edited by hand", settings: { viewVideo: true } },
    ]);
    const refreshed = await s.run("refresh", config);
    expect(refreshed.resources.find((x) => x.urn.endsWith("::agents"))!.outputs).toMatchObject({
      description: "edited by hand",
    });
    const up = await s.run("up", config);
    expect(rolePlan(up)).toContain("~ update agents");
    const details = (await s.h.api("GET", `/groups/42/roles/${agentsId}`)).json as { description: string };
    expect(details.description).toBe("Created by hand in 2024");
  });

  it("destroy refuses the adopted role while users hold it, and never touches the referenced one", async () => {
    const d = await s.run("destroy", config);
    expect(d.ok).toBe(false);
    // Its before-delete hook refuses in the destroy's preview: the Role keeps its `import`, but its own
    // claim on the role is no takeover (a destroy deletes it).
    expect(d.errors.join("\n")).toContain(
      `Role 'agents' is being deleted while this program still declares it, which would delete a role that users ` +
        `hold: role "Agents" (id 42/${agentsId}), held by 5 users.`,
    );
    expect(await s.h.listRoles(42)).toHaveLength(2);
    await s.h.setUsers(42, agentsId, 0);
    expect((await s.run("destroy", config)).ok).toBe(true);
    expect((await s.h.listRoles(42)).map((x) => x.name)).toEqual(["Auditors"]);
  });

  it("a program that does not match the hand-made role fails the import and changes nothing", async () => {
    const [made] = (
      await s.h.api("POST", "/groups/42/roles", [
        { name: "Agents", description: "other", settings: { viewVideo: false } },
      ])
    ).json as Array<{ roleId: number }>;
    const r = await s.run("up", { ...config, "import-existing:agentsRoleId": `42/${made.roleId}` });
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("inputs to import do not match the existing role");
    const details = (await s.h.api("GET", `/groups/42/roles/${made.roleId}`)).json as {
      description: string;
      settings: object;
    };
    expect(details).toMatchObject({ description: "other", settings: { viewVideo: false } });
  });
});
