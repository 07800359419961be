import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { beforeAll, describe, expect, inject, it } from "vitest";

interface Captured {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  id?: string;
}

let project: string;
let captured: Captured[];
let roleIds: number[];
let urn: string;
const TOKEN = "canary-token-6b1f0e7d";

beforeAll(() => {
  project = inject("installedProject");
  // The script must live in the project: from inside this repository, "pulumi-grouproles" would resolve
  // to the repository itself (package self-reference), not to the installed copy.
  const script = path.join(project, "capture-provider.js");
  copyFileSync(path.resolve(__dirname, "../support/capture-provider.js"), script);
  const out = execFileSync(process.execPath, [script], {
    cwd: project,
    encoding: "utf8",
    env: {
      ...process.env,
      GROUPROLES_ACCESS_TOKEN: TOKEN,
      GROUPROLES_BASE_URL: "https://api.example.com",
      PULUMI_CONFIG: JSON.stringify({
        "grouproles:accessToken": TOKEN,
        "grouproles:baseUrl": "https://cfg.example.com",
      }),
    },
  });
  ({ captured, roleIds, urn } = JSON.parse(out));
});

const ROLE = "pulumi-nodejs:dynamic/grouproles:Role";
const GROUP_ROLES = "pulumi-nodejs:dynamic/grouproles:GroupRoles";
const roles = () => captured.filter((c) => c.type === ROLE);
const groupRoles = () => captured.filter((c) => c.type === GROUP_ROLES);

describe("the serialized provider of an installed package", () => {
  it("registers Roles and GroupRoles with the documented type tokens and real Outputs", () => {
    expect(roles()).toHaveLength(3);
    expect(
      groupRoles()
        .map((c) => c.name)
        .sort(),
    ).toEqual(["catalogue", "other-catalogue"]);
    expect(captured).toHaveLength(5);
    expect(roleIds).toEqual([1001, 1002]);
    expect(urn).toContain("pulumi-nodejs:dynamic/grouproles:Role::support");
    expect(captured.find((c) => c.name === "existing")?.id).toBe("42/7");
  });

  it("is a tiny shim: at most 1 KB, requiring the package by name", () => {
    const shim = captured[0].inputs.__provider as string;
    expect(typeof shim).toBe("string");
    expect(Buffer.byteLength(shim)).toBeLessThanOrEqual(1024);
    expect(shim).toContain('require("pulumi-grouproles/');
  });

  it("is the same string for every resource of a type", () => {
    expect(new Set(roles().map((c) => c.inputs.__provider)).size).toBe(1);
    expect(new Set(groupRoles().map((c) => c.inputs.__provider)).size).toBe(1);
  });

  it("of a GroupRoles is as tiny: at most 1 KB, requiring pulumi-grouproles/provider/group-roles", () => {
    const shim = groupRoles()[0]!.inputs.__provider as string;
    expect(Buffer.byteLength(shim)).toBeLessThanOrEqual(1024);
    expect(shim).toContain('require("pulumi-grouproles/provider/group-roles")');
    expect(shim).not.toContain(project);
    expect(shim).not.toContain("node_modules");
    expect(shim).not.toContain(TOKEN);
  });

  it("captures no token, no config value and no absolute path", () => {
    const shim = captured[0].inputs.__provider as string;
    expect(shim).not.toContain(TOKEN);
    expect(shim).not.toContain("example.com");
    expect(shim).not.toContain(project);
    expect(shim).not.toMatch(/["'`]\/(work|tmp|home|root|usr)\//);
    expect(shim).not.toContain("node_modules");
  });

  it.each([
    [ROLE, "dist/provider/index.js"],
    [GROUP_ROLES, "dist/provider/group-roles/index.js"],
  ])("the module the %s shim requires resolves from the project and is its provider", (type, file) => {
    const shim = captured.find((c) => c.type === type)!.inputs.__provider as string;
    const spec = /require\("([^"]+)"\)/.exec(shim)![1]!;
    const req = createRequire(path.join(project, "index.js"));
    const resolved = req.resolve(spec);
    expect(resolved).toBe(path.join(project, "node_modules/pulumi-grouproles", file));
    const mod = req(spec) as Record<string, unknown>;
    expect(Object.keys(mod).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    for (const m of Object.keys(mod)) expect(typeof mod[m]).toBe("function");
  });
});
