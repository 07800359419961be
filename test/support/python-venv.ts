/**
 * The virtual environment a Python program of the end-to-end suites runs in: PyPI's `pulumi` and the
 * generated SDK (sdk/python), installed as a user would (`pip install`), built once per content of
 * sdk/python and reused from `.cache/python-venv/<digest>` (the checkout ignores `.cache/`).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
/** PyPI's `pulumi` the programs run on: the newest the registry here serves (2026-12-02). */
export const PYPI_PULUMI = "pulumi==3.272.0";

function sdkDigest(): string {
  const dir = path.join(root, "sdk", "python");
  const hash = createHash("sha256").update(PYPI_PULUMI);
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const f of files) hash.update(path.relative(dir, f)).update(readFileSync(f));
  return hash.digest("hex").slice(0, 16);
}

function sh(command: string, args: string[]): void {
  const r = spawnSync(command, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.error?.message ?? r.stderr}`);
}

/** The path of the virtual environment (built now if it is not there yet). */
export function pythonVenv(): string {
  const venv = path.join(root, ".cache", "python-venv", sdkDigest());
  // Written last: a build cut short is built again (a venv cannot be moved into place: its scripts name its path).
  const complete = path.join(venv, ".complete");
  if (existsSync(complete)) return venv;
  const started = Date.now();
  rmSync(venv, { recursive: true, force: true });
  sh("python3", ["-m", "venv", venv]);
  sh(path.join(venv, "bin", "python"), [
    "-m",
    "pip",
    "install",
    "--quiet",
    PYPI_PULUMI,
    path.join(root, "sdk", "python"),
  ]);
  writeFileSync(complete, "");
  console.log(`python venv: ${PYPI_PULUMI} and sdk/python installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return venv;
}
