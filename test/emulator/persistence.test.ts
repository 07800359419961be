import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { http } from "../support/http";

let dir: string;
let file: string;
let emu: RunningEmulator | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "grouproles-state-"));
  file = path.join(dir, "state.json");
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  await rm(dir, { recursive: true, force: true });
});

const roles = (e: RunningEmulator, g: number): string => `${e.baseUrl}/api/v0/groups/${g}/roles`;

describe("state file", () => {
  it("keeps roles, settings, assignments and the id counter across a restart", async () => {
    emu = await startEmulator({ stateFile: file });
    const created = (
      await http("POST", roles(emu, 1), {
        body: [{ name: "a", description: "d", settings: { viewVideo: true } }, { name: "b" }],
      })
    ).json as Array<{ roleId: number }>;
    const [a, b] = created;
    await http("PUT", `${emu.baseUrl}/_emulator/groups/1/roles/${a?.roleId}/users`, { body: { userCount: 3 } });
    await http("POST", `${emu.baseUrl}/api/v0/groups/1/delete-roles`, { body: [b?.roleId] });
    const before = (await http("GET", roles(emu, 1))).json;
    await emu.close();

    emu = await startEmulator({ stateFile: file });
    expect((await http("GET", roles(emu, 1))).json).toEqual(before);
    expect((await http("GET", `${roles(emu, 1)}/${a?.roleId}`)).json).toEqual({
      roleId: a?.roleId,
      name: "a",
      settings: { viewVideo: true },
      description: "d",
    });
    const [c] = (await http("POST", roles(emu, 1), { body: [{ name: "c" }] })).json as Array<{ roleId: number }>;
    expect(c?.roleId).toBe((b?.roleId ?? 0) + 1); // the deleted id is not reused
  });

  it("writes atomically: only the state file remains, and a leftover temp file from a crash is ignored", async () => {
    emu = await startEmulator({ stateFile: file });
    await http("POST", roles(emu, 2), { body: [{ name: "durable" }] });
    expect(await readdir(dir)).toEqual(["state.json"]); // the reply came after the write, and no temp file is left
    await emu.close();
    // a crash mid-write leaves a torn temp file next to an intact state file
    await writeFile(path.join(dir, `.state.json.999.1.tmp`), '{"version":1,"nextRoleId":');
    emu = await startEmulator({ stateFile: file });
    expect(((await http("GET", roles(emu, 2))).json as Array<{ name: string }>).map((r) => r.name)).toEqual([
      "durable",
    ]);
  });

  it("refuses to start on a corrupt state file instead of overwriting it", async () => {
    await writeFile(file, "{ not json");
    await expect(startEmulator({ stateFile: file })).rejects.toThrow();
    expect(await readFile(file, "utf8")).toBe("{ not json");
    await writeFile(file, JSON.stringify({ version: 1, nextRoleId: 1, groups: { "1": [{ roleId: "x" }] } }));
    await expect(startEmulator({ stateFile: file })).rejects.toThrow(/not a valid emulator state file/);
  });

  it("fails at start when the state file cannot be written", async () => {
    await expect(startEmulator({ stateFile: path.join(dir, "no-such-dir", "state.json") })).rejects.toThrow(/ENOENT/);
  });

  it("survives a burst of concurrent writes with a consistent file", async () => {
    emu = await startEmulator({ stateFile: file });
    const e = emu;
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => http("POST", roles(e, 3), { body: [{ name: `r${i}` }] })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const saved = JSON.parse(await readFile(file, "utf8")) as { groups: Record<string, unknown[]>; nextRoleId: number };
    expect(saved.groups["3"]).toHaveLength(30);
    expect(saved.nextRoleId).toBe(31);
  });
});
