/**
 * Property paths as Pulumi writes them in `ignoreChanges` and `replaceOnChanges`
 * (sdk/go/common/resource/properties_path.go), in the engine stand-in: parsed, and applied by
 * `ignoreChanges` at any depth, not only as dotted names.
 */
import { describe, expect, it } from "vitest";
import { ignoreChange, parsePropertyPath } from "../../tools/engine/property-path";

describe("property paths", () => {
  it("parse keys, quoted keys, indices and wildcards; refuse malformed ones", () => {
    expect(parsePropertyPath("a")).toEqual(["a"]);
    expect(parsePropertyPath("a.b.c")).toEqual(["a", "b", "c"]);
    expect(parsePropertyPath('roles["a.b"].name')).toEqual(["roles", "a.b", "name"]);
    expect(parsePropertyPath('["x y"]')).toEqual(["x y"]);
    expect(parsePropertyPath("tags[0]")).toEqual(["tags", 0]);
    expect(parsePropertyPath("roles[*].name")).toEqual(["roles", "*", "name"]);
    expect(parsePropertyPath("roles.*")).toEqual(["roles", "*"]);
    for (const bad of ["", "a..b", "a[", "a[x]", 'a["b'])
      expect(() => parsePropertyPath(bad), bad).toThrow("invalid property path");
  });

  it("ignoreChanges keeps the old value at any depth, drops a key the old lacks, and follows wildcards", () => {
    const olds = { roles: { a: { name: "A", description: "old" }, "b.c": { name: "B" } }, tags: ["x", "y"] };
    const news = { roles: { a: { name: "A2", description: "new" }, "b.c": { name: "B2" } }, tags: ["z", "y"] };
    expect(ignoreChange(news, olds, "roles.a.description")).toEqual({
      roles: { a: { name: "A2", description: "old" }, "b.c": { name: "B2" } },
      tags: ["z", "y"],
    });
    expect(ignoreChange(news, olds, 'roles["b.c"].name').roles).toMatchObject({ "b.c": { name: "B" } });
    expect(ignoreChange(news, olds, "tags[0]").tags).toEqual(["x", "y"]);
    expect(ignoreChange(news, olds, "roles[*].name").roles).toEqual({
      a: { name: "A", description: "new" },
      "b.c": { name: "B" },
    });
    expect(ignoreChange({ a: 1, b: 2 }, { a: 0 }, "b")).toEqual({ a: 1 });
    expect(news.roles.a.description).toBe("new"); // a copy
  });
});
