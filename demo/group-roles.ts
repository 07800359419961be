/**
 * The GroupRoles part of `npm run demo`: examples/group-catalogue (a team's catalogue as one
 * resource) applied, then the headline features: the plan, the request count of each apply, and a
 * preview that refuses to remove a role users hold (assigned through the emulator's admin route).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { RunningEmulator } from "../emulator";

/** One engine operation of the catalogue's stack, through the CLI or the engine stand-in. */
export type Operate = (
  op: "preview" | "up",
  config: Record<string, string>,
) => Promise<{ ok: boolean; plan: string; errors: string[] }>;

interface Entry {
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
}

const line = (s = "") => process.stdout.write(`${s}\n`);

async function admin(emu: RunningEmulator, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Requests the service received since the last call, by route, e.g. `1 x GET .../roles, 10 x POST ...`. */
async function requestsSince(emu: RunningEmulator): Promise<string> {
  const log = (await admin(emu, "GET", "/_emulator/requests")) as { total: number; counts: Record<string, number> };
  await admin(emu, "DELETE", "/_emulator/requests");
  const counts = Object.entries(log.counts).map(([route, n]) => `${n} x ${route}`);
  return `${log.total} request${log.total === 1 ? "" : "s"}${counts.length ? ` (${counts.join(", ")})` : ""}`;
}

export async function groupRolesDemo(
  emu: RunningEmulator,
  work: string,
  groupId: number,
  operate: Operate,
): Promise<boolean> {
  const file = path.join(work, "catalogue.json");
  const config = { "group-catalogue:catalogue": file };
  const roles: Record<string, Entry> = {
    support: { name: "Support", description: "First-line support", settings: { viewVideo: true, remoteAssist: true } },
    billing: { name: "Billing", settings: { viewVideo: true, visitorDocumentShare: true } },
    trainees: { name: "Trainees", description: "Shadowing only", settings: { viewVideo: true } },
  };
  const write = (r: Record<string, Entry>) => writeFileSync(file, JSON.stringify({ groupId, roles: r }, null, 2));
  const show = (r: { ok: boolean; plan: string; errors: string[] }) => {
    if (r.plan || r.ok) line(r.plan || "(no changes)");
    for (const e of r.errors) line(e);
  };

  line(`\n== GroupRoles: a team's catalogue as one resource (examples/group-catalogue, group ${groupId}) ==`);
  write(roles);
  await admin(emu, "DELETE", "/_emulator/requests");
  line("\n-- preview --");
  show(await operate("preview", config));
  line(`the service received: ${await requestsSince(emu)}: the credential check of a planned write`);
  line("\n-- up --");
  const up = await operate("up", config);
  show(up);
  line(`the service received: ${await requestsSince(emu)}: the credential check, the list, the roles`);
  if (!up.ok) return false;

  const listed = (await admin(emu, "GET", `/api/v0/groups/${groupId}/roles`)) as Array<{
    roleId: number;
    name: string;
  }>;
  const trainees = listed.find((r) => r.name === "Trainees")!;
  await admin(emu, "PUT", `/_emulator/groups/${groupId}/roles/${trainees.roleId}/users`, { userCount: 3 });
  await admin(emu, "DELETE", "/_emulator/requests");
  line(
    `\n-- 3 users now hold "Trainees" (roleId ${trainees.roleId}); a pull request removes it from catalogue.json --`,
  );
  const { trainees: _removed, ...rest } = roles;
  write(rest);
  const refused = await operate("preview", config);
  line(`preview ${refused.ok ? "passed (unexpected)" : "fails, before anything is merged or applied:"}`);
  show(refused);
  line(`the service received: ${await requestsSince(emu)}; nothing was changed`);

  line("\n-- the catalogue grows to 1000 roles: one up --");
  const many = Object.fromEntries(Array.from({ length: 997 }, (_, i) => [`team-${i}`, { name: `Team ${i}` }]));
  write({ ...roles, ...many });
  const grown = await operate("up", config);
  show(grown);
  line(`the service received: ${await requestsSince(emu)} for 997 new roles`);
  return grown.ok && !refused.ok;
}
