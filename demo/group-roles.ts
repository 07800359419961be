/**
 * The GroupRoles part of `npm run demo`: examples/group-catalogue (a team's catalogue as one
 * resource) applied, then the headline features, each with its per-entry plan and the requests the
 * service received: a pull request that renames, swaps two names and renames a key in one `up` (role
 * IDs kept); a preview that refuses to remove a role users hold (assigned through the emulator's admin
 * route); a catalogue of 1000 roles in a dozen requests.
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
  const counts = Object.entries(log.counts).map(
    ([route, n]) => `${n} x ${route.replace("/api/v0/groups/:groupId", "")}`,
  );
  return `${log.total} request${log.total === 1 ? "" : "s"}${counts.length ? ` (${counts.join(", ")})` : ""}`;
}

/** The group's roles as the service holds them: `Name (roleId)`. */
async function held(emu: RunningEmulator, groupId: number): Promise<string> {
  const roles = (await admin(emu, "GET", `/api/v0/groups/${groupId}/roles`)) as Array<{ roleId: number; name: string }>;
  return roles.map((r) => `${r.name} (${r.roleId})`).join(", ");
}

export async function groupRolesDemo(
  emu: RunningEmulator,
  work: string,
  groupId: number,
  operate: Operate,
  step: (title: string) => void,
  line: (text?: string) => void,
): Promise<boolean> {
  const file = path.join(work, "catalogue.json");
  const config = { "group-catalogue:catalogue": file };
  const roles: Record<string, Entry> = {
    support: { name: "Support", description: "First-line support", settings: { viewVideo: true, remoteAssist: true } },
    billing: { name: "Billing", settings: { viewVideo: true, visitorDocumentShare: true } },
    sales: { name: "Sales" },
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
  step("preview of the catalogue");
  show(await operate("preview", config));
  line(`the service received: ${await requestsSince(emu)}: one list (credentials and names)`);
  step("up");
  const up = await operate("up", config);
  show(up);
  line(`the service received: ${await requestsSince(emu)}`);
  line(`the group holds: ${await held(emu, groupId)}`);
  if (!up.ok) return false;

  step("a pull request: rename Support, swap Billing and Sales, rename the key trainees to interns");
  const { trainees, ...others } = roles;
  const changed: Record<string, Entry> = {
    ...others,
    support: { ...roles.support!, name: "Support Agents" },
    billing: { ...roles.billing!, name: "Sales" },
    sales: { name: "Billing" },
    interns: trainees!,
  };
  write(changed);
  const renamed = await operate("up", config);
  show(renamed);
  line(`the service received: ${await requestsSince(emu)}: the names swap in one PUT, no role is made or deleted`);
  line(`the group holds: ${await held(emu, groupId)} (the same role IDs)`);

  const listed = (await admin(emu, "GET", `/api/v0/groups/${groupId}/roles`)) as Array<{
    roleId: number;
    name: string;
  }>;
  const interns = listed.find((r) => r.name === "Trainees")!;
  await admin(emu, "PUT", `/_emulator/groups/${groupId}/roles/${interns.roleId}/users`, { userCount: 3 });
  await admin(emu, "DELETE", "/_emulator/requests");
  step(`3 users now hold "Trainees" (roleId ${interns.roleId}); a pull request removes it`);
  const { interns: _removed, ...rest } = changed;
  write(rest);
  const refused = await operate("preview", config);
  line(`preview ${refused.ok ? "passed (unexpected)" : "fails, before anything is merged or applied:"}`);
  show(refused);
  line(`the service received: ${await requestsSince(emu)}; nothing was changed`);

  step("the catalogue grows to 1000 roles: one up");
  const many = Object.fromEntries(Array.from({ length: 996 }, (_, i) => [`team-${i}`, { name: `Team ${i}` }]));
  write({ ...changed, ...many });
  const grown = await operate("up", config);
  show(grown);
  line(`the service received: ${await requestsSince(emu)} for 996 new roles`);
  return renamed.ok && grown.ok && !refused.ok;
}
