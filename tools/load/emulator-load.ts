/**
 * Emulator under load (issue 8). Loopback only, bounded, stops by itself.
 *
 * 1. Writes: one sequential writer per group, all groups at once, each doing a random mix of array
 *    creates, updates (renames, descriptions, settings) and deletes, plus requests that must be refused
 *    without changing anything (duplicate names). Every acknowledged reply updates an expected model;
 *    at the end every group is read back (list + details) and must equal the model exactly. Visitors
 *    connect over WebSocket meanwhile, are looked up and signalled, and must receive every signal.
 * 2. kill -9: `node dist/emulator/cli.js --state-file F`, writers hammering creates/updates/deletes of
 *    their own role, SIGKILL mid-write, restart on the same file. It must start and hold exactly what
 *    was acknowledged before the kill: every live role at its acknowledged version (or one write ahead:
 *    the one in flight), none of the roles whose delete was acknowledged, in any cycle, and no role
 *    that neither an acknowledged write nor a write in flight explains.
 *
 * The load itself, shared by test/emulator/load.test.ts (reduced size) and the benchmark command
 * bench/emulator-load.ts (any size). Test infrastructure, never published.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectVisitor, startEmulator } from "../../emulator";

export interface LoadOptions {
  /** Groups written concurrently, one writer each. */
  groups: number;
  /** Write requests per group. */
  opsPerGroup: number;
  /** Visitors connected during the writes. */
  visitors: number;
  /** Concurrent writers against the state-file emulator before the kill. */
  killWriters: number;
  /** When to send SIGKILL, after the first acknowledged write. */
  killAfterMs: number;
}

export const REDUCED: LoadOptions = { groups: 12, opsPerGroup: 40, visitors: 20, killWriters: 16, killAfterMs: 400 };
export const FULL: LoadOptions = { groups: 60, opsPerGroup: 300, visitors: 200, killWriters: 64, killAfterMs: 2000 };

export interface LoadReport {
  writes: {
    requests: number;
    refusedAsExpected: number;
    roles: number;
    seconds: number;
    requestsPerSecond: number;
    mismatches: string[];
  };
  visitors: { connected: number; signalsSent: number; signalsReceived: number; lookupsFound: number };
  /** `problems`: acknowledged writes lost, deleted roles back, roles nothing explains. */
  kill: { acknowledged: number; recoveredRoles: number; startedAgain: boolean; problems: string[] };
}

interface ModelRole {
  name: string;
  description: string;
  settings: Record<string, boolean>;
}

const SETTING_KEYS = ["viewVideo", "remoteAssist", "inviteGuest", "agentAnnotation", "featureX", "navigationAssist"];

/** A small deterministic PRNG, so a failing run can be repeated. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

async function call(
  baseUrl: string,
  token: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${baseUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

function randomSettings(r: () => number): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const k of SETTING_KEYS) if (r() < 0.4) out[k] = r() < 0.5;
  return out;
}

async function writesAndVisitors(o: LoadOptions): Promise<Pick<LoadReport, "writes" | "visitors">> {
  const emu = await startEmulator({ presenceServers: 3 });
  const api = (method: string, p: string, body?: unknown) => call(emu.baseUrl, emu.token, method, `/api/v0${p}`, body);
  const mismatches: string[] = [];
  let requests = 0;
  let refused = 0;
  const started = Date.now();
  try {
    // Visitors connect first and stay connected while the writes run.
    const received = new Map<string, number>();
    const visitors = await Promise.all(
      Array.from({ length: o.visitors }, (_, i) =>
        connectVisitor({
          presenceUrl: emu.presenceUrl,
          groupId: 900 + (i % 5),
          visitorId: `load-visitor-${i}`,
          onSignal: () => received.set(`load-visitor-${i}`, (received.get(`load-visitor-${i}`) ?? 0) + 1),
        }),
      ),
    );
    let signalsSent = 0;
    let lookupsFound = 0;
    const presenceWork = (async () => {
      for (let i = 0; i < o.visitors; i++) {
        const q = `?groupid=${900 + (i % 5)}&visitorid=load-visitor-${i}`;
        const found = await call(emu.presenceUrl, emu.token, "GET", `/findvisitor${q}`);
        const loc = found.json as { visitorfound: boolean; direct?: string };
        if (!loc.visitorfound || !loc.direct) continue;
        lookupsFound++;
        const sent = await call(`http://${loc.direct}`, emu.token, "POST", `/signalvisitor${q}`, {
          mtype: "signal",
          data: { n: i },
        });
        if (sent.status === 200) signalsSent++;
      }
    })();

    const models = new Map<number, Map<number, ModelRole>>();
    await Promise.all(
      Array.from({ length: o.groups }, async (_, gi) => {
        const g = 100 + gi;
        const r = rng(g * 7919);
        const model = new Map<number, ModelRole>();
        models.set(g, model);
        let serial = 0;
        for (let op = 0; op < o.opsPerGroup; op++) {
          const ids = [...model.keys()];
          const dice = r();
          if (dice < 0.4 || ids.length < 2) {
            const items = Array.from({ length: 1 + Math.floor(r() * 5) }, () => ({
              name: `g${g} role ${serial++} ✓`,
              description: r() < 0.5 ? `d${serial}` : "",
              settings: randomSettings(r),
            }));
            const res = await api("POST", `/groups/${g}/roles`, items);
            requests++;
            if (res.status !== 200) {
              mismatches.push(`create in ${g}: ${res.status}`);
              continue;
            }
            const created = res.json as Array<{ roleId: number; name: string }>;
            for (const [i, c] of created.entries()) {
              model.set(c.roleId, {
                name: items[i].name,
                description: items[i].description,
                settings: items[i].settings,
              });
            }
          } else if (dice < 0.7) {
            const pick = ids.filter(() => r() < 0.5).slice(0, 6);
            if (!pick.length) continue;
            const items = pick.map((id) => ({
              roleId: id,
              name: r() < 0.3 ? `g${g} renamed ${serial++}` : model.get(id)!.name,
              description: `v${serial++}`,
              settings: randomSettings(r),
            }));
            const res = await api("PUT", `/groups/${g}/roles`, items);
            requests++;
            if (res.status !== 200) {
              mismatches.push(`update in ${g}: ${res.status} ${JSON.stringify(res.json)}`);
              continue;
            }
            for (const it of items)
              model.set(it.roleId, { name: it.name, description: it.description, settings: it.settings });
          } else if (dice < 0.85) {
            const pick = ids.filter(() => r() < 0.3).slice(0, 4);
            if (!pick.length) continue;
            const res = await api("POST", `/groups/${g}/delete-roles`, pick);
            requests++;
            if (res.status !== 200) {
              mismatches.push(`delete in ${g}: ${res.status}`);
              continue;
            }
            for (const id of pick) model.delete(id);
          } else {
            // Must be refused, changing nothing: a new role plus one whose name is taken.
            const taken = model.get(ids[0])!.name;
            const res = await api("POST", `/groups/${g}/roles`, [{ name: `g${g} never ${serial++}` }, { name: taken }]);
            requests++;
            if (res.status === 409) refused++;
            else mismatches.push(`duplicate name in ${g} answered ${res.status}`);
          }
        }
      }),
    );
    await presenceWork;
    const seconds = (Date.now() - started) / 1000;

    // Read everything back and compare with the model.
    let roles = 0;
    const allIds = new Set<number>();
    for (const [g, model] of models) {
      const list = (await api("GET", `/groups/${g}/roles`)).json as Array<{
        roleId: number;
        name: string;
        description: string;
      }>;
      if (list.length !== model.size) mismatches.push(`group ${g}: ${list.length} roles, model has ${model.size}`);
      for (const item of list) {
        roles++;
        if (allIds.has(item.roleId)) mismatches.push(`role id ${item.roleId} appears twice`);
        allIds.add(item.roleId);
        const want = model.get(item.roleId);
        if (!want) {
          mismatches.push(`group ${g}: unexpected role ${item.roleId} "${item.name}"`);
          continue;
        }
        const d = (await api("GET", `/groups/${g}/roles/${item.roleId}`)).json as {
          name: string;
          description: string;
          settings: Record<string, boolean>;
        };
        const same =
          d.name === want.name &&
          d.description === want.description &&
          JSON.stringify(sortKeys(d.settings)) === JSON.stringify(sortKeys(want.settings));
        if (!same) mismatches.push(`group ${g} role ${item.roleId}: ${JSON.stringify(d)} != ${JSON.stringify(want)}`);
      }
    }
    // Signals are delivered asynchronously over the sockets; give the last ones a moment.
    const until = Date.now() + 2000;
    const total = () => [...received.values()].reduce((a, b) => a + b, 0);
    while (total() < signalsSent && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(visitors.map((v) => v.close()));
    return {
      writes: {
        requests,
        refusedAsExpected: refused,
        roles,
        seconds,
        requestsPerSecond: Math.round(requests / seconds),
        mismatches,
      },
      visitors: { connected: visitors.length, signalsSent, signalsReceived: total(), lookupsFound },
    };
  } finally {
    await emu.close();
  }
}

function sortKeys(o: Record<string, boolean>): Array<[string, boolean]> {
  return Object.entries(o).sort(([a], [b]) => a.localeCompare(b));
}

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json")) || !existsSync(path.join(dir, "emulator"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("cannot find the repository root");
    dir = up;
  }
  return dir;
}

async function startCli(stateFile: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const cli = path.join(repoRoot(), "dist/emulator/cli.js");
  const child = spawn(
    process.execPath,
    [cli, "--host", "127.0.0.1", "--state-file", stateFile, "--token", "load-token"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${err}`)), 15_000);
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line && out.includes("\n")) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { baseUrl: string }).baseUrl);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}: ${err}`));
    });
  });
  return { child, baseUrl };
}

/** What each writer had acknowledged: its current role and every role it deleted before. */
interface WriterState {
  roleId?: number;
  ackedVersion: number;
  deleted: boolean;
  /** Roles whose delete was acknowledged, in every cycle. */
  gone: number[];
  inFlight?: "create" | "update" | "delete";
  /** Name sent by the create in flight. */
  creating?: string;
}

async function killNine(o: LoadOptions): Promise<LoadReport["kill"]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "emulator-kill-"));
  const stateFile = path.join(dir, "roles.json");
  try {
    const first = await startCli(stateFile);
    const api = (method: string, p: string, body?: unknown) =>
      call(first.baseUrl, "load-token", method, `/api/v0${p}`, body);
    const writers: WriterState[] = Array.from({ length: o.killWriters }, () => ({
      ackedVersion: 0,
      deleted: false,
      gone: [],
    }));
    let acknowledged = 0;
    let killed = false;
    let firstAck: (() => void) | undefined;
    const gotFirstAck = new Promise<void>((r) => (firstAck = r));
    const loops = writers.map(async (w, i) => {
      const g = 300 + (i % 8);
      let cycle = 0;
      while (!killed) {
        try {
          if (w.roleId === undefined || w.deleted) {
            w.inFlight = "create";
            w.creating = `w${i} c${cycle++}`;
            const res = await api("POST", `/groups/${g}/roles`, [{ name: w.creating, description: "v1" }]);
            if (res.status !== 200 || killed) break;
            w.roleId = (res.json as Array<{ roleId: number }>)[0].roleId;
            w.ackedVersion = 1;
            w.deleted = false;
          } else if (w.ackedVersion < 5) {
            w.inFlight = "update";
            const next = w.ackedVersion + 1;
            const res = await api("PUT", `/groups/${g}/roles`, [
              { roleId: w.roleId, name: `w${i} c${cycle}`, description: `v${next}` },
            ]);
            if (res.status !== 200 || killed) break;
            w.ackedVersion = next;
          } else {
            w.inFlight = "delete";
            const res = await api("POST", `/groups/${g}/delete-roles`, [w.roleId]);
            if (res.status !== 200 || killed) break;
            w.deleted = true;
            w.gone.push(w.roleId);
          }
          w.inFlight = undefined;
          acknowledged++;
          firstAck?.();
        } catch {
          break; // the connection died with the process
        }
      }
    });
    await gotFirstAck;
    await new Promise((r) => setTimeout(r, o.killAfterMs));
    // Snapshot what was acknowledged, then kill: replies that arrive after this are not counted.
    const acked = writers.map((w) => ({ ...w, gone: [...w.gone] }));
    const ackedCount = acknowledged;
    killed = true;
    first.child.kill("SIGKILL");
    await Promise.allSettled(loops);
    await new Promise((r) =>
      first.child.exitCode !== null || first.child.signalCode !== null ? r(undefined) : first.child.once("exit", r),
    );

    let second: { child: ChildProcess; baseUrl: string } | undefined;
    const problems: string[] = [];
    let recovered = 0;
    try {
      second = await startCli(stateFile);
    } catch (e) {
      return { acknowledged: ackedCount, recoveredRoles: 0, startedAgain: false, problems: [(e as Error).message] };
    }
    try {
      const held = new Map<number, { name: string; description: string }>();
      for (let k = 0; k < 8; k++) {
        const reply = await call(second.baseUrl, "load-token", "GET", `/api/v0/groups/${300 + k}/roles`);
        const list = reply.json as Array<{ roleId: number; name: string; description: string }>;
        for (const r of list) held.set(r.roleId, r);
      }
      recovered = held.size;
      const explained = new Set<number>();
      acked.forEach((w, i) => {
        for (const id of w.gone) {
          if (held.has(id)) problems.push(`writer ${i}: role ${id} was deleted (acknowledged) but is back`);
        }
        // A create in flight may have been applied before the kill: a role of that name is explained.
        const created = [...held].find(([, r]) => w.inFlight === "create" && r.name === w.creating);
        if (created) explained.add(created[0]);
        if (w.roleId === undefined || w.deleted) return;
        const role = held.get(w.roleId);
        if (!role) {
          const lost = `writer ${i}: role ${w.roleId} (acknowledged v${w.ackedVersion}) is missing`;
          if (w.inFlight !== "delete") problems.push(lost);
          return;
        }
        explained.add(w.roleId);
        const v = Number(role.description.slice(1));
        const ok = v === w.ackedVersion || (w.inFlight === "update" && v === w.ackedVersion + 1);
        if (!ok) problems.push(`writer ${i}: role ${w.roleId} holds v${v}, acknowledged v${w.ackedVersion}`);
      });
      for (const [id, r] of held) {
        if (!explained.has(id)) problems.push(`role ${id} "${r.name}": no acknowledged or in-flight write made it`);
      }
    } finally {
      second.child.kill("SIGTERM");
      await new Promise((r) => second!.child.once("exit", r));
    }
    return { acknowledged: ackedCount, recoveredRoles: recovered, startedAgain: true, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const { writes, visitors } = await writesAndVisitors(o);
  const kill = await killNine(o);
  return { writes, visitors, kill };
}

export function formatReport(o: LoadOptions, r: LoadReport): string {
  return [
    `| measure | value |`,
    `|---|---|`,
    `| size | ${o.groups} groups × ${o.opsPerGroup} writes, ${o.visitors} visitors, ${o.killWriters} writers before kill -9 |`,
    `| write requests (arrays of 1-6 roles) | ${r.writes.requests} in ${r.writes.seconds.toFixed(1)} s (${r.writes.requestsPerSecond}/s) |`,
    `| refused as expected (name taken, nothing changed) | ${r.writes.refusedAsExpected} |`,
    `| roles read back, equal to the model | ${r.writes.roles - r.writes.mismatches.length}/${r.writes.roles} (${r.writes.mismatches.length} mismatches) |`,
    `| visitors connected / found / signals sent / received | ${r.visitors.connected} / ${r.visitors.lookupsFound} / ${r.visitors.signalsSent} / ${r.visitors.signalsReceived} |`,
    `| kill -9: writes acknowledged before the kill | ${r.kill.acknowledged} |`,
    `| kill -9: restarted on the same file / roles held, each checked / problems (lost, back, unexplained) | ` +
      `${r.kill.startedAgain ? "yes" : "NO"} / ${r.kill.recoveredRoles} / ${r.kill.problems.length} |`,
  ].join("\n");
}
