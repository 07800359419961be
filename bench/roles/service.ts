/**
 * The emulator as its own process (the built CLI), so its event loop does not compete with the engine
 * stand-in's, and the admin calls the benchmark makes: reset, and the request log.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";

export interface EmulatorProcess {
  baseUrl: string;
  token: string;
  /** Clears roles and the request log. */
  reset(): Promise<void>;
  /** Clears the request log only. */
  clearLog(): Promise<void>;
  /** Sets how many users hold the role named `name` (through the public list and the admin route). */
  setUsers(groupId: number, name: string, userCount: number): Promise<void>;
  /** Requests since the last clear, and how many were answered 429. */
  log(): Promise<{ total: number; rateLimited: number; rateLimitedIsLowerBound: boolean }>;
  close(): Promise<void>;
}

const TOKEN = "bench-token-7f3a";

/** Starts `grouproles-emulator` with the given latency and rate limit; resolves when it is ready. */
export async function startEmulatorProcess(
  root: string,
  latencyMs: number,
  rateLimit: number,
): Promise<EmulatorProcess> {
  const args = [path.join(root, "dist/emulator/cli.js"), "--token", TOKEN, "--latency-ms", String(latencyMs)];
  if (rateLimit > 0) args.push("--rate-limit", String(rateLimit));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
  });
  const { baseUrl } = JSON.parse(line) as { baseUrl: string };
  const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`emulator ${method} ${route}: ${res.status}`);
    return res.json();
  };
  const admin = (method: string, route: string, body?: unknown) => call(method, `/_emulator${route}`, body);
  return {
    baseUrl,
    token: TOKEN,
    reset: async () => void (await admin("POST", "/reset")),
    clearLog: async () => void (await admin("DELETE", "/requests")),
    async setUsers(groupId, name, userCount) {
      const roles = (await call("GET", `/api/v0/groups/${groupId}/roles`)) as Array<{ roleId: number; name: string }>;
      const role = roles.find((r) => r.name === name);
      if (!role) throw new Error(`group ${groupId} has no role named "${name}"`);
      await admin("PUT", `/groups/${groupId}/roles/${role.roleId}/users`, { userCount });
    },
    async log() {
      const log = (await admin("GET", "/requests")) as { total: number; entries: Array<{ status: number }> };
      // `entries` keeps only the latest 5000; `total` counts everything.
      return {
        total: log.total,
        rateLimited: log.entries.filter((e) => e.status === 429).length,
        rateLimitedIsLowerBound: log.entries.length < log.total,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
