/**
 * The generated Python and Go SDKs (sdk/python, sdk/go; `npm run sdk:gen`, issue 54) come from today's
 * schema.json at this package's version, and hold every resource and function it declares. Needs no
 * Go: the digest sdk:gen records is compared with the schema's. That regenerating changes nothing is
 * checked where Go is, in `npm run test:cli` (test/e2e/generated-sdks-regen.test.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const schema = JSON.parse(read("schema.json")) as {
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
};
const version = (JSON.parse(read("package.json")) as { version: string }).version;

/** `grouproles:index:GroupRoles` -> `GroupRoles`. */
const member = (token: string) => token.split(":")[2]!;
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);

describe("the generated SDKs", () => {
  it("were made from today's schema.json, at this package's version", () => {
    const from = JSON.parse(read("sdk/generated-from.json")) as { schemaSha256: string; version: string };
    const digest = createHash("sha256")
      .update(readFileSync(path.join(root, "schema.json")))
      .digest("hex");
    expect(from.schemaSha256, "schema.json changed since `npm run sdk:gen`: run it").toBe(digest);
    expect(from.version).toBe(version);
    for (const plugin of ["sdk/python/pulumi_grouproles/pulumi-plugin.json", "sdk/go/grouproles/pulumi-plugin.json"])
      expect(JSON.parse(read(plugin)), plugin).toEqual({ resource: true, name: "grouproles", version });
  });

  it("declare every resource, the explicit Provider and every function, named as each language expects", () => {
    const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions), "grouproles:index:Provider"];
    for (const token of tokens) {
      const name = member(token);
      expect(existsSync(path.join(root, "sdk/python/pulumi_grouproles", `${snake(name)}.py`)), token).toBe(true);
      expect(existsSync(path.join(root, "sdk/go/grouproles", `${lowerFirst(name)}.go`)), token).toBe(true);
    }
    // Python takes snake_case arguments (`group_id`), Go exported fields (`GroupId`).
    expect(read("sdk/python/pulumi_grouproles/role.py")).toContain("group_id: pulumi.Input[_builtins.int]");
    expect(read("sdk/go/grouproles/role.go")).toContain("GroupId pulumi.IntInput");
  });

  it("define every name docs/api.md lists for them", () => {
    const api = read("docs/api.md");
    const section = (title: string) => api.slice(api.indexOf(title), api.indexOf("\n## ", api.indexOf(title) + 1));
    // The first column of each row, and the names the rows give after `;` (`get_role_output`, `RoleArgs`).
    const names = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .flatMap((l) => [/^\| `(\w+)`/.exec(l)![1]!, ...[...l.matchAll(/; `(\w+)`/g)].map((m) => m[1]!)]);
    const python = sdkSource("sdk/python/pulumi_grouproles", ".py");
    const go = sdkSource("sdk/go/grouproles", ".go");
    const py = names(section("## `pulumi_grouproles` (Python"));
    const golang = names(section("## `grouproles` (Go"));
    expect(py.length).toBeGreaterThan(10);
    expect(golang.length).toBeGreaterThan(10);
    for (const name of py)
      expect(name === "config" || new RegExp(`^(def|class) ${name}\\b`, "m").test(python), `python ${name}`).toBe(true);
    for (const name of golang) expect(new RegExp(`^(func|type) ${name}\\b`, "m").test(go), `go ${name}`).toBe(true);
  });
});

/** Every file of `dir` ending in `ext`, joined. */
function sdkSource(dir: string, ext: string): string {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => readFileSync(path.join(e.parentPath, e.name), "utf8"))
    .join("\n");
}
