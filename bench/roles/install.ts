/**
 * Installs the package into a throwaway project, as a user would (`npm pack`, then `npm install` of
 * the tarball), and copies each benchmark program into a directory of its own inside it. A program
 * must resolve `pulumi-grouproles`, and the dynamic-provider host must resolve the serialized
 * provider's `require("pulumi-grouproles/...")` from the program's directory (node walks up to the
 * project's node_modules); a repository checkout on the module path would not prove either.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installPacked } from "../../tools/install-packed";

/** Packs `root`, installs it into a new project and copies each program there; returns their directories. */
export function installPrograms(root: string, programSources: readonly string[]): string[] {
  const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-bench-"));
  const { projectDir: project } = installPacked(root, work, "grouproles-bench-program");
  return programSources.map((source) => {
    const dir = path.join(project, path.basename(source));
    mkdirSync(dir);
    for (const file of ["Pulumi.yaml", "index.js"]) copyFileSync(path.join(source, file), path.join(dir, file));
    return dir;
  });
}
