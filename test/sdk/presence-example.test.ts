/**
 * examples/visitor-presence run as a real program (the Node language runtime, through the engine
 * stand-in in tools/engine) against the emulator, with a visitor connected and then gone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectVisitor, type VisitorConnection } from "../../emulator";
import { runEngine, UNKNOWN, type EngineOptions } from "../../tools/engine";
import { startHarness, type EmulatorHarness } from "../support/emulator";

const programDir = path.resolve(__dirname, "../../examples/visitor-presence");
let h: EmulatorHarness;
let visitor: VisitorConnection;
let work: string;

beforeAll(async () => {
  h = await startHarness({ presenceServers: 3 });
  visitor = await connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: 42, visitorId: "visitor-1" });
  work = mkdtempSync(path.join(os.tmpdir(), "visitor-presence-"));
});

afterAll(async () => {
  await visitor?.close();
  await h?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const run = (operation: EngineOptions["operation"]) =>
  runEngine({
    operation,
    programDir,
    stack: "dev",
    stateFile: path.join(work, "state.json"),
    config: {
      "visitor-presence:groupId": "42",
      "visitor-presence:visitorId": "visitor-1",
      "grouproles:presenceUrl": h.emu.presenceUrl,
    },
    secretConfig: { "grouproles:accessToken": h.emu.token },
  });

describe("examples/visitor-presence", () => {
  it("exports the presence record and location of a connected visitor, in preview and up", async () => {
    for (const op of ["preview", "up"] as const) {
      const r = await run(op);
      expect(r.errors, r.stdout).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.outputs.present).toBe(true);
      expect(r.outputs.visitorPresence).toMatchObject({
        present: true,
        groupId: 42,
        visitorId: "visitor-1",
        direct: visitor.server,
        ds: visitor.ds,
      });
      expect(r.outputs.location).toMatchObject({ visitorFound: true, direct: visitor.server });
      expect(typeof r.outputs.presentSince).toBe("string");
      expect(r.outputs.present).not.toBe(UNKNOWN);
    }
  });

  it("reports the visitor absent once it left", async () => {
    await visitor.close();
    const r = await run("up");
    expect(r.ok, r.stdout).toBe(true);
    expect(r.outputs.present).toBe(false);
    expect(r.outputs.location).toEqual({ visitorFound: false });
    expect(JSON.stringify(r.outputs)).not.toContain(h.emu.token);
  });
});
