/**
 * The emulator under load, reduced size (tools/load/emulator-load.ts; `npm run bench:emulator-load --
 * --full` runs the full size by hand): concurrent array writes across groups and visitors never lose
 * or corrupt a role, and a `--state-file` survives kill -9 mid-write holding exactly the acknowledged
 * writes: every role held after the restart is checked, deleted ones of every cycle included.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REDUCED, formatReport, runLoad } from "../../tools/load/emulator-load";

describe("emulator under load (reduced size)", () => {
  it("loses and corrupts nothing, and its state file survives kill -9", async () => {
    expect(existsSync(path.resolve(__dirname, "../../dist/emulator/cli.js"))).toBe(true);
    const r = await runLoad(REDUCED);
    console.log(`\n${formatReport(REDUCED, r)}\n`);
    expect(r.writes.mismatches).toEqual([]);
    expect(r.writes.roles).toBeGreaterThan(100);
    expect(r.writes.refusedAsExpected).toBeGreaterThan(0);
    expect(r.visitors.signalsReceived).toBe(r.visitors.signalsSent);
    expect(r.visitors.signalsSent).toBe(REDUCED.visitors);
    expect(r.kill.startedAgain).toBe(true);
    expect(r.kill.acknowledged).toBeGreaterThan(20);
    expect(r.kill.recoveredRoles).toBeGreaterThan(0);
    expect(r.kill.problems).toEqual([]);
  }, 60_000);
});
