/**
 * The engine stand-in's checkpoint writer: a burst of writes (one per step) lands as the newest
 * snapshot, and a write asked for as the previous one finishes is never dropped.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Checkpoint, StateWriter } from "../../tools/engine/state";

const dir = mkdtempSync(path.join(os.tmpdir(), "state-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const checkpoint = (n: number): Checkpoint => ({
  version: 1,
  project: "p",
  stack: "s",
  resources: Array.from({ length: n }, (_, i) => ({
    urn: `urn:pulumi:s::p::t::r${i}`,
    type: "t",
    custom: true,
    id: String(i),
    inputs: { i },
    outputs: { i },
    dependencies: [],
  })),
});
const onDisk = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as Checkpoint).resources.length;

describe("StateWriter", () => {
  it("a burst of 200 writes ends with the newest snapshot on disk", async () => {
    const file = path.join(dir, "burst.json");
    const w = new StateWriter(file);
    await Promise.all(Array.from({ length: 200 }, (_, i) => w.write(checkpoint(i + 1))));
    expect(onDisk(file)).toBe(200);
  });

  it("a write asked for just as the previous one resolves still lands", async () => {
    const file = path.join(dir, "chained.json");
    const w = new StateWriter(file);
    await w.write(checkpoint(1)).then(() => w.write(checkpoint(2)));
    expect(onDisk(file)).toBe(2);
    const first = w.write(checkpoint(3));
    void first.then(() => w.write(checkpoint(4)));
    await first;
    await w.flush();
    expect(onDisk(file)).toBe(4);
  });
});
