import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

describe("packed tarball", () => {
  it("installs into an empty project and its entry points resolve", () => {
    const dir = inject("installedProject");
    const script = `
      const sdk = require("pulumi-grouproles");
      const provider = require("pulumi-grouproles/provider");
      const groupRoles = require("pulumi-grouproles/provider/group-roles");
      const client = require("pulumi-grouproles/client");
      const emulator = require("pulumi-grouproles/emulator");
      let deep = "resolved";
      try { require("pulumi-grouproles/dist/provider/role-provider.js"); } catch (e) { deep = e.code; }
      console.log(JSON.stringify({
        sdk: Object.keys(sdk).sort(),
        provider: Object.keys(provider).sort(),
        groupRoles: Object.keys(groupRoles).sort(),
        client: typeof client.GroupRolesClient,
        emulator: typeof emulator.startEmulator,
        deep,
        resolved: require.resolve("pulumi-grouproles/provider"),
      }));`;
    const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" }));
    // The provider entry is the dynamic provider's methods, nothing else; compiled files are not entries.
    expect(out.provider).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    expect(out.groupRoles).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    expect(out.client).toBe("function");
    expect(out.emulator).toBe("function");
    expect(out.deep).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
    expect(out.resolved).toContain(`${dir}/node_modules/pulumi-grouproles/dist/provider/index.js`);
  });

  it("ships compiled JavaScript and type declarations, not the sources or tests", () => {
    const tarball = inject("tarball");
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(files).toContain("package/dist/provider/index.js");
    expect(files).toContain("package/dist/provider/index.d.ts");
    expect(files).toContain("package/dist/provider/group-roles/index.js");
    expect(files).toContain("package/dist/sdk/index.d.ts");
    expect(files).toContain("package/dist/client/index.d.ts");
    expect(files).toContain("package/LICENSE");
    expect(files.some((f) => f.startsWith("package/test/") || f.startsWith("package/provider/"))).toBe(false);
  });
});

describe("dist/", () => {
  it("is built from the current sources (the global setup rebuilds it on every run)", () => {
    const root = path.resolve(__dirname, "../..");
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const dry = execFileSync(process.execPath, [tsc, "-b", "tsconfig.json", "--dry"], { cwd: root, encoding: "utf8" });
    expect(dry).not.toMatch(/would build/);
  });
});
