import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { http } from "../support/http";

const root = path.resolve(__dirname, "../..");
const cli = path.join(root, "dist/emulator/cli.js");

/** Builds when dist is missing or older than the emulator sources, so the test runs the code under test. */
beforeAll(() => {
  const src = path.join(root, "emulator");
  const newest = Math.max(...readdirSync(src).map((f) => statSync(path.join(src, f)).mtimeMs));
  if (!existsSync(cli) || statSync(cli).mtimeMs < newest) {
    try {
      execFileSync(
        process.execPath,
        [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")],
        { cwd: root, stdio: "pipe" },
      );
    } catch {
      // Type errors elsewhere in the repo must not hide ours: tsc still emits, and the test checks the result.
    }
  }
  expect(existsSync(cli)).toBe(true);
}, 120_000);

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
});

interface Ready {
  baseUrl: string;
  presenceUrl: string;
  directServers: string[];
}

function start(args: string[]): Promise<{ ready: Ready; stderr: () => string; exit: Promise<number | null> }> {
  const proc = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child = proc;
  let err = "";
  proc.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once("line", (line) => resolve({ ready: JSON.parse(line) as Ready, stderr: () => err, exit }));
    void exit.then((code) => reject(new Error(`cli exited (${code}) before ready: ${err}`)));
  });
}

describe("grouproles-emulator CLI", () => {
  it("prints one JSON line when ready, serves requests, prints the dev token on stderr, exits 0 on SIGTERM", async () => {
    const { ready, stderr, exit } = await start(["--presence-servers", "3"]);
    expect(Object.keys(ready)).toEqual(["baseUrl", "presenceUrl", "directServers", "authUrl"]);
    expect(ready.directServers).toHaveLength(3);
    const r = await http("POST", `${ready.baseUrl}/api/v0/groups/1/roles`, { body: [{ name: "from cli" }] });
    expect(r.status).toBe(200);
    // stderr and stdout are separate pipes: the parent may read them in either order.
    await vi.waitFor(() => expect(stderr()).toContain("dev-token"));
    child?.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("honours --token and --port, and SIGINT", async () => {
    const { ready, stderr, exit } = await start([
      "--token",
      "t1:7",
      "--token",
      "t2",
      "--port",
      "0",
      "--latency-ms",
      "1",
    ]);
    expect((await http("GET", `${ready.baseUrl}/api/v0/groups/7/roles`, { token: "t1" })).status).toBe(200);
    expect((await http("GET", `${ready.baseUrl}/api/v0/groups/8/roles`, { token: "t1" })).status).toBe(403);
    expect((await http("GET", `${ready.baseUrl}/api/v0/groups/8/roles`, { token: "dev-token" })).status).toBe(401);
    expect(stderr()).not.toContain("t1");
    child?.kill("SIGINT");
    expect(await exit).toBe(0);
  });

  it("fails with exit code 2 and usage on a bad flag", async () => {
    await expect(start(["--presence-servers", "zero"])).rejects.toThrow(/exited \(2\).*presence-servers/s);
  });
});
