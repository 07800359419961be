/**
 * Emulator benchmark: requests per second for list and create, and how many concurrent visitor sockets
 * one emulator holds. The emulator runs as its own process (the built CLI) so client and server do not
 * share one event loop. Loopback only; every phase is bounded in count and time. Prints a markdown table.
 *
 *   npm run bench:emulator -- [--requests N] [--sockets N]
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { connectVisitor, type VisitorConnection } from "../emulator";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    creates: { type: "string", default: "10000" },
    sockets: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "64" },
  },
});
const REQUESTS = Number(values.requests);
const CREATES = Number(values.creates);
const MAX_SOCKETS = Number(values.sockets);
const CONCURRENCY = Number(values.concurrency);
const PHASE_MS = 30_000;
const TOKEN = "dev-token";

interface PhaseResult {
  done: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

/** Runs `fn(i)` for i < total with `concurrency` workers, stopping early at the deadline. */
async function phase(total: number, concurrency: number, fn: (i: number) => Promise<boolean>): Promise<PhaseResult> {
  const deadline = Date.now() + PHASE_MS;
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && Date.now() < deadline) {
        const i = next++;
        const s = performance.now();
        const ok = await fn(i).catch(() => false);
        latencies.push(performance.now() - s);
        if (!ok) errors++;
      }
    }),
  );
  return { done: latencies.length, errors, seconds: (performance.now() - t0) / 1000, latencies };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

function rssMiB(pid: number): string {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? `${Math.round(Number(m[1]) / 1024)} MiB` : "n/a";
  } catch {
    return "n/a";
  }
}

async function main(): Promise<void> {
  // .tmp/tools/bench -> the repository root
  const cli = path.resolve(__dirname, "../../../dist/emulator/cli.js");
  const child = spawn(process.execPath, [cli, "--presence-servers", "2"], { stdio: ["ignore", "pipe", "inherit"] });
  const ready = await new Promise<{ baseUrl: string; presenceUrl: string }>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (l) =>
      resolve(JSON.parse(l) as { baseUrl: string; presenceUrl: string }),
    );
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const pool = new Pool(ready.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const rows: string[][] = [];
  const row = (what: string, r: PhaseResult): void => {
    rows.push([
      what,
      `${Math.round(r.done / r.seconds)} req/s`,
      `${r.done} in ${r.seconds.toFixed(1)} s, ${r.errors} errors, p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms`,
    ]);
  };

  try {
    // Seed: a group of 20 roles, a realistic size for a list reply.
    const seed = Array.from({ length: 20 }, (_, i) => ({
      name: `seed-${i}`,
      description: "benchmark role",
      settings: { viewVideo: true, remoteAssist: i % 2 === 0 },
    }));
    await pool
      .request({ method: "POST", path: "/api/v0/groups/1/roles", headers, body: JSON.stringify(seed) })
      .then((r) => r.body.text());

    const list = await phase(REQUESTS, CONCURRENCY, async () => {
      const r = await pool.request({ method: "GET", path: "/api/v0/groups/1/roles", headers });
      await r.body.text();
      return r.statusCode === 200;
    });
    row(`list (GET, 20 roles, ${CONCURRENCY} concurrent)`, list);

    // One group per worker slot so name checks stay realistic (a few hundred roles per group).
    const create = await phase(CREATES, CONCURRENCY, async (i) => {
      const r = await pool.request({
        method: "POST",
        path: `/api/v0/groups/${100 + (i % CONCURRENCY)}/roles`,
        headers,
        body: JSON.stringify([{ name: `role-${i}`, settings: { viewVideo: true } }]),
      });
      await r.body.text();
      return r.statusCode === 200;
    });
    row(`create (POST, 1 role per request, ${CONCURRENCY} concurrent)`, create);

    // Visitor sockets: ramp in steps until the bound, the deadline, or the first failure.
    const conns: VisitorConnection[] = [];
    const t0 = performance.now();
    let failure = "";
    const deadline = Date.now() + PHASE_MS * 2;
    while (conns.length < MAX_SOCKETS && !failure && Date.now() < deadline) {
      const step = Math.min(500, MAX_SOCKETS - conns.length);
      const base = conns.length;
      const batch = await phase(step, 50, async (i) => {
        conns.push(await connectVisitor({ presenceUrl: ready.presenceUrl, groupId: 7, visitorId: `v-${base + i}` }));
        return true;
      });
      if (batch.errors) failure = `${batch.errors} connects failed at ~${conns.length} sockets`;
    }
    const rampSeconds = (performance.now() - t0) / 1000;
    // Prove the last visitor is really reachable while all sockets are open.
    const probe = await fetch(`${ready.presenceUrl}/findvisitor?groupid=7&visitorid=v-${conns.length - 1}`, {
      headers,
    });
    const found = ((await probe.json()) as { visitorfound?: boolean }).visitorfound === true;
    rows.push([
      "concurrent visitor sockets held",
      `${conns.length}`,
      `bound ${MAX_SOCKETS}; ramp ${rampSeconds.toFixed(1)} s (${Math.round(conns.length / rampSeconds)} connects/s); last visitor found: ${found}; emulator RSS ${rssMiB(child.pid ?? 0)}${failure ? `; stopped: ${failure}` : ""}`,
    ]);
    await Promise.all(conns.map((c) => c.close()));
  } finally {
    await pool.close();
    child.kill("SIGTERM");
  }

  console.log(`\nEmulator benchmark (node ${process.version}, loopback)\n`);
  console.log("| measurement | result | details |");
  console.log("|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
