/** The package schema the plugin serves (GetSchema), read from the package the plugin runs from. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_VERSION } from "../../client/version";
import type { Props } from "../shared/props";

/** The package schema (schema.json at the package root), with this plugin's version. */
export function schemaText(): string {
  const schema = JSON.parse(readFileSync(path.join(packageRoot(), "schema.json"), "utf8")) as Props;
  return JSON.stringify({ ...schema, version: PACKAGE_VERSION });
}

function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string };
      if (manifest.name === "pulumi-grouproles") return dir;
    } catch {
      // not here
    }
    if (path.dirname(dir) === dir) throw new Error("pulumi-grouproles: package.json not found above the plugin");
  }
}
