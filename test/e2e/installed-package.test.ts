/**
 * The path users take: the packed tarball installed in a project of their own. The stack is created
 * from one directory and destroyed from another; the state must carry no path, no token and only the
 * tiny provider shim.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exampleDir, stackFor, type Stack } from "./harness";

let s: Stack;
let first: string;
let second: string;
beforeAll(async () => {
  const project = inject("installedProject");
  first = path.join(project, "roles-first-checkout");
  second = path.join(project, "roles-second-checkout");
  for (const dir of [first, second]) {
    cpSync(exampleDir("roles-from-file"), dir, { recursive: true });
    // a standalone project needs no rootDir (the in-repo example has one to import its own package)
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "node16",
          moduleResolution: "node16",
          skipLibCheck: true,
        },
        files: ["index.ts"],
      }),
    );
  }
  s = await stackFor(first, "roles-from-file");
});
afterAll(() => s?.close());

describe("installed package, two directories", () => {
  it("up from one directory", async () => {
    const r = await s.run("up", {}, first);
    expect(r.ok, r.errors.join("\n") + r.stderr).toBe(true);
    expect(await s.h.listRoles(42)).toHaveLength(4);
  });

  it("the state holds the shim only, no path and no token", () => {
    const text = readFileSync(s.stateFile, "utf8");
    const state = JSON.parse(text) as { resources: Array<{ type: string; inputs: { __provider?: string } }> };
    const roles = state.resources.filter((r) => r.type === "pulumi-nodejs:dynamic/grouproles:Role");
    expect(roles).toHaveLength(4);
    for (const r of roles) {
      expect(Buffer.byteLength(r.inputs.__provider!)).toBeLessThanOrEqual(1024);
      expect(r.inputs.__provider).toContain('require("pulumi-grouproles/');
    }
    expect(text).not.toContain(first);
    expect(text).not.toContain(inject("installedProject"));
    expect(text).not.toContain(s.h.emu.token);
  });

  it("refresh and destroy from another directory", async () => {
    const refresh = await s.run("refresh", {}, second);
    expect(refresh.ok, refresh.errors.join("\n")).toBe(true);
    // the protected role must be released first, as in real life
    const catalogue = JSON.parse(readFileSync(path.join(second, "roles.json"), "utf8")) as {
      roles: Array<{ protect?: boolean }>;
    };
    for (const r of catalogue.roles) delete r.protect;
    writeFileSync(path.join(second, "roles.json"), JSON.stringify(catalogue));
    expect((await s.run("up", {}, second)).ok).toBe(true);
    const d = await s.run("destroy", {}, second);
    expect(d.ok, d.errors.join("\n")).toBe(true);
    expect(await s.h.listRoles(42)).toEqual([]);
  });
});
