/**
 * `npm run demo` (issue 40: the demo through the real CLI): the whole demo, run as the command runs it,
 * through the engine of the suite (`npm run test:cli`: the real Pulumi CLI; run alone without
 * E2E_ENGINE: the stand-in). What it prints is what a newcomer reads, so the lines it promises are
 * checked: the engine it names, the quickstart's outputs, what the emulator holds, the catalogue's
 * rename in one PUT, the preview that refuses to remove a role users hold, 996 roles in ten creates.
 * Only `npm run test:cli` runs it (vitest.config.mts CLI_ONLY): through the stand-in it adds a minute of
 * CPU to `npm test` and proves nothing the other suites do not.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runDemo } from "../../demo";
import { engineKind } from "./harness";

const work = mkdtempSync(path.join(os.tmpdir(), "grouproles-demo-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("the demo runs through the suite's engine and shows what it promises", async () => {
  const lines: string[] = [];
  const ok = await runDemo(engineKind(), (text = "") => lines.push(text), work);
  const out = lines.join("\n");
  expect(ok, out).toBe(true);
  expect(out).toContain(engineKind() === "cli" ? "Engine: the real Pulumi CLI" : "Engine: the engine stand-in");
  expect(out).toMatch(/roleIds: \{"supervisors":"42\/\d+","support":"42\/\d+","viewers":"42\/\d+"\}/);
  expect(out).toContain("visitorPresent: true");
  expect(out).toMatch(/== the emulator now holds \(group 42\) ==\n(.*"name":"(Viewers|Supervisors|Support)".*\n){3}/);
  // The rename, the swap and the key rename: one PUT, the same role IDs (the service's request log).
  expect(out).toContain("the service received: 4 requests (3 x GET /roles, 1 x PUT /roles)");
  expect(out).toContain(
    "the group holds: Sales (4), Billing (5), Support Agents (6), Trainees (7) (the same role IDs)",
  );
  expect(out).toContain('roles.interns: "Trainees" (roleId 7) is held by 3 users');
  expect(out).toContain("the service received: 1 request (1 x GET /roles); nothing was changed");
  expect(out).toContain("12 requests (2 x GET /roles, 10 x POST /roles) for 996 new roles");
}, 600_000);
