/**
 * Settings that cannot work fail every preview, a no-op one included, before any request: through the
 * engine stand-in (the real Node runtime, dynamic-provider host and resource plugin), with the stack
 * config a user sets. Pulumi's engine runs Check for every resource in every preview, changed or not
 * (step_generator.go `continueStepsFromImport`), and CheckConfig for the plugin's provider
 * (providers/registry.go `Check`); both now check what can be known without a request
 * (provider/shared/config-check.ts). Outcomes are read from the service: its request log (empty) and
 * its roles (unchanged); a valid no-op preview still sends nothing.
 */
import { describe, expect, it } from "vitest";
import {
  rolePlan,
  runMixed,
  SDK_KINDS,
  specStackPerFile,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
const roles: RoleSpec[] = [{ name: "support", args: { groupId: 42, name: "Support", settings: { viewVideo: true } } }];
const catalogues: GroupRolesSpec[] = [{ name: "catalogue", args: { groupId: 42, roles: { a: { name: "Agents" } } } }];

describe.each(SDK_KINDS)("%s resources: a no-op preview with settings that cannot work", (sdk) => {
  specStackPerFile((stack) => (s = stack), sdk);

  /** Stack config over the harness's (the emulator's address and token), secrets apart. */
  const cases: Array<[string, Record<string, string>, Record<string, string> | undefined, string[]]> = [
    [
      "a baseUrl without a scheme",
      { "grouproles:baseUrl": "127.0.0.1:8080" },
      undefined,
      ['grouproles:baseUrl: "127.0.0.1:8080" is not an absolute URL: it has no scheme'],
    ],
    [
      "a plain http:// baseUrl of a host that is not loopback",
      { "grouproles:baseUrl": "http://roles.example.com" },
      undefined,
      ["grouproles:baseUrl: plain http is refused for non-loopback host roles.example.com"],
    ],
    [
      "an empty token",
      {},
      { "grouproles:accessToken": "" },
      ["no credentials: grouproles:accessToken is set but empty"],
    ],
    [
      "a token copied with its trailing newline",
      {},
      { "grouproles:accessToken": "dev-token\n" },
      ["grouproles:accessToken must not contain spaces, line breaks or control characters"],
    ],
    [
      "an unknown key (a typo of a setting)",
      { "grouproles:allowInsecureHTTP": "true" },
      undefined,
      ["allowInsecureHTTP", 'did you mean "', 'allowInsecureHttp"?'],
    ],
    [
      "a flag that is not true or false",
      { "grouproles:allowInsecureHttp": "ture" },
      undefined,
      ["grouproles:allowInsecureHttp (or GROUPROLES_ALLOW_INSECURE_HTTP) must be true or false", 'got "ture"'],
    ],
  ];

  // Every other case declares only the GroupRoles, the others only the Role: each kind must fail on its own.
  it.each(cases.map((c, i) => [...c, i % 2 === 1] as const))(
    "%s: fails naming the key and the rule; nothing is sent, nothing changes",
    async (_what, config, secrets, parts, cataloguesFirst) => {
      await s.baseline("catalogue and role", async () => {
        const up = await runMixed(s, "up", catalogues, roles);
        expect(up.ok, up.errors.join("\n")).toBe(true);
      });
      const before = await s.h.listRoles(42);
      await s.h.clearRequests();
      // One kind of resource in the program: which of two failing Checks the engine meets first is the order
      // registrations arrive in, which is not the program's (the other resource is then a planned delete).
      const preview = await runMixed(
        s,
        "preview",
        cataloguesFirst ? catalogues : [],
        cataloguesFirst ? [] : roles,
        config,
        secrets,
      );
      expect(preview.ok).toBe(false);
      const message = preview.errors.join("\n");
      if (sdk === "package") {
        // The plugin refuses in CheckConfig, for its default provider, and the engine fails the deployment
        // with that error alone: no resource's Check runs (source_eval.go getDefaultProviderRef; the real CLI).
        expect(message).toContain("pulumi:providers:grouproles resource 'default_");
        expect(preview.errors).toHaveLength(1);
      } else {
        expect(message).toContain(cataloguesFirst ? "GroupRoles::catalogue: " : "Role::support: ");
      }
      for (const part of parts) expect(message).toContain(part);
      // A credential never reaches a message (the engine prints a named property's value: none is named).
      expect(message).not.toContain("dev-token");
      expect((await s.h.requests()).total).toBe(0);
      expect(await s.h.listRoles(42)).toEqual(before);
    },
  );

  it("an address that cannot work fails a no-op preview (its one list per group) and a change's preview", async () => {
    await s.baseline("catalogue and role", async () => {
      expect((await runMixed(s, "up", catalogues, roles)).ok).toBe(true);
    });
    const renamed: RoleSpec[] = [{ ...roles[0]!, args: { ...roles[0]!.args, name: "Support team" } }];
    // Nothing listens on port 1; the emulator answers 404 under a path it does not serve.
    for (const [baseUrl, says] of [
      ["http://127.0.0.1:1", ["group 42 cannot be reached, ", "could not connect to http://127.0.0.1:1"]],
      [
        `${s.h.emu.baseUrl}/typo`,
        ["/typo/api/v0/groups/42/roles answered 404", "without saying that group 42 or its role is gone, "],
      ],
    ] as const) {
      const config = { "grouproles:baseUrl": baseUrl };
      await s.h.clearRequests();
      // A drift check finds it before the next change does (issue 53).
      const noop = await runMixed(s, "preview", catalogues, roles, config);
      expect(noop.ok).toBe(false);
      for (const part of says)
        expect(noop.errors.join("\n")).toContain(part.replace("the planned change cannot", "no change to it could"));
      const change = await runMixed(s, "preview", catalogues, renamed, config);
      expect(change.ok).toBe(false);
      for (const part of says) expect(change.errors.join("\n")).toContain(part);
      expect(change.errors.join("\n")).toContain("Check grouproles:baseUrl");
      expect((await s.h.requests()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    }
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Agents", "Support"]);
  });

  it("the same program with working settings: a no-op preview passes with one list per group", async () => {
    await s.baseline("catalogue and role", async () => {
      expect((await runMixed(s, "up", catalogues, roles)).ok).toBe(true);
    });
    const preview = await runMixed(s, "preview", catalogues, roles);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    expect(rolePlan(preview)).toEqual([]);
    expect((await s.h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
  });
});
