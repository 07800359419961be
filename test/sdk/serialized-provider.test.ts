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
      PULUMI_CONFIG: JSON.stringify({ "grouproles:accessToken": TOKEN, "grouproles:baseUrl": "https://cfg.example.com" }),
    },
  });
  ({ captured, roleIds, urn } = JSON.parse(out));
});

describe("the serialized provider of an installed package", () => {
  it("registers Roles with the documented type token and real Outputs", () => {
    expect(captured.map((c) => c.type)).toEqual(Array(3).fill("pulumi-nodejs:dynamic/grouproles:Role"));
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

  it("is the same string for every resource", () => {
    const all = new Set(captured.map((c) => c.inputs.__provider));
    expect(all.size).toBe(1);
  });

  it("captures no token, no config value and no absolute path", () => {
    const shim = captured[0].inputs.__provider as string;
    expect(shim).not.toContain(TOKEN);
    expect(shim).not.toContain("example.com");
    expect(shim).not.toContain(project);
    expect(shim).not.toMatch(/["'`]\/(work|tmp|home|root|usr)\//);
    expect(shim).not.toContain("node_modules");
  });

  it("the module it requires resolves from the project and is the provider", () => {
    const shim = captured[0].inputs.__provider as string;
    const spec = /require\("([^"]+)"\)/.exec(shim)![1];
    const req = createRequire(path.join(project, "index.js"));
    const resolved = req.resolve(spec);
    expect(resolved).toBe(path.join(project, "node_modules/pulumi-grouproles/dist/provider/index.js"));
    const mod = req(spec) as Record<string, unknown>;
    for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(typeof mod[m]).toBe("function");
  });
});
