/**
 * `npm run try -- <program-dir> users <roleName> <count> [--group N]`: gives a role of the trial's
 * emulator `count` users, so that a trial can see what a role "in use" does (a removal refused in the
 * preview, a delete refused). The role is found by name in what the trial's emulator holds; a name
 * found in several groups needs `--group`. Through the emulator's admin route
 * `PUT /_emulator/groups/{g}/roles/{r}/users` (emulator/README.md), which writes the trial's
 * `service.json` as any change does.
 */
import type { startEmulator } from "../../emulator";

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type StoredRole = { roleId: number; name: string; userCount?: number };

export async function setUsers(
  emu: Emulator,
  o: { roleName: string; count: string; group: string | undefined; dir: string },
  say: (line: string) => void,
): Promise<number> {
  const count = Number(o.count);
  if (!/^\d+$/.test(o.count) || !Number.isSafeInteger(count)) {
    say(`users: the count must be a whole number of users (0 or more), got ${JSON.stringify(o.count)}`);
    return 2;
  }
  const group = o.group === undefined ? undefined : Number(o.group);
  if (o.group !== undefined && !(/^\d+$/.test(o.group) && Number(group) > 0)) {
    say(`--group must be a group ID (a positive integer), got ${JSON.stringify(o.group)}`);
    return 2;
  }
  const admin = { authorization: `Bearer ${emu.adminToken ?? emu.token}` };
  const state = (await (await fetch(`${emu.baseUrl}/_emulator/state`, { headers: admin })).json()) as {
    groups: Record<string, StoredRole[]>;
  };
  const found = Object.entries(state.groups)
    .filter(([g]) => group === undefined || Number(g) === group)
    .flatMap(([g, roles]) => roles.filter((r) => r.name === o.roleName).map((r) => ({ group: Number(g), role: r })));
  if (found.length === 0) {
    const where = group === undefined ? "the trial's emulator" : `group ${group} of the trial's emulator`;
    const names = Object.entries(state.groups)
      .filter(([g]) => group === undefined || Number(g) === group)
      .map(([g, roles]) => `group ${g}: ${roles.map((r) => JSON.stringify(r.name)).join(", ") || "no roles"}`);
    say(`users: no role named ${JSON.stringify(o.roleName)} in ${where} (${names.join("; ") || "it holds no roles"})`);
    return 1;
  }
  if (found.length > 1) {
    const groups = found.map((f) => f.group).sort((a, b) => a - b);
    say(
      `users: a role named ${JSON.stringify(o.roleName)} is in groups ${groups.join(", ")}: ` +
        `say which with --group (e.g. --group ${groups[0]})`,
    );
    return 1;
  }
  const [{ group: g, role }] = found as [{ group: number; role: StoredRole }];
  const reply = await fetch(`${emu.baseUrl}/_emulator/groups/${g}/roles/${role.roleId}/users`, {
    method: "PUT",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ userCount: count }),
  });
  if (!reply.ok) {
    say(`users: the emulator refused (${reply.status}): ${await reply.text()}`);
    return 1;
  }
  const was = role.userCount ?? 0;
  say(
    `Role ${JSON.stringify(role.name)} (group ${g}, roleId ${role.roleId}) now has ${count} user${count === 1 ? "" : "s"} ` +
      `(${count > 0 ? "in use" : "not in use"}; it had ${was}).`,
  );
  say(
    `The service holds them now; the stack's state still records what it last read until ` +
      `\`npm run try -- ${o.dir} refresh\`.`,
  );
  return 0;
}
