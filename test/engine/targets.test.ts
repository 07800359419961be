// The engine stand-in's own tests: `--target`, `--exclude` and `--replace`, as the Go engine treats them
// (pkg/resource/deploy/step_generator.go v3.274.1: `isTargetedForUpdate`, `NewUntargetedSameStep`,
// `NewSkippedCreateStep`, `GenerateDeletes`, `isTargetedReplace` in `generateSteps` and `diff`). The
// same flags run through the real CLI in test/e2e/engine-order-cases.test.ts and real-cli.test.ts.

import { describe, expect, it } from "vitest";
import { ITEM, fixtureStack, type ItemSpec } from "./fixture-stack";

const urn = (name: string) => `urn:pulumi:dev::engine-fixture::${ITEM}::${name}`;
const item = (name: string, value: string, opts?: ItemSpec["opts"]): ItemSpec => ({
  name,
  props: { value, group: "g1" },
  ...(opts ? { opts } : {}),
});

describe("engine stand-in engine flags", () => {
  it("--target: only the targets change; the others get no Check or Diff, are neither created nor deleted", async () => {
    const s = fixtureStack();
    expect((await s.run("up", [item("a", "1"), item("b", "1"), item("gone", "1")])).ok).toBe(true);
    const before = s.state().resources.find((r) => r.urn === urn("b"));
    const changed = [item("a", "2"), item("b", "2"), item("new", "1")]; // "gone" left the program
    const preview = await s.run("preview", changed, { targets: [urn("a")] });
    expect(preview.planText).toBe(`~ update  ${ITEM} a [value]`);
    expect(preview.providerHost.calls).toMatchObject({ Check: 1, Diff: 1 });
    const up = await s.run("up", changed, { targets: [urn("a")] });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.providerHost.calls).toMatchObject({ Check: 1, Diff: 1, Update: 1, Create: 0, Delete: 0 });
    expect(s.names().sort()).toEqual(["a", "b", "gone"]);
    expect(s.state().resources.find((r) => r.urn === urn("b"))).toEqual(before); // old inputs and outputs
    expect(
      Object.values(s.store().items)
        .map((i) => i.value)
        .sort(),
    ).toEqual(["1", "1", "2"]);
  });

  it("--exclude: every resource but the excluded ones", async () => {
    const s = fixtureStack();
    expect((await s.run("up", [item("a", "1"), item("b", "1")])).ok).toBe(true);
    const up = await s.run("up", [item("a", "2"), item("b", "2")], { excludes: [urn("b")] });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.planText).toBe(`~ update  ${ITEM} a [value]`);
    expect(up.providerHost.calls).toMatchObject({ Check: 1, Diff: 1 });
  });

  it("--exclude keeps what an excluded resource's old state depends on, though the program removed it", async () => {
    // Found by the simulator's differential run (history 56432, docs/simulation.md): the real CLI v3.274.1
    // keeps `a` (GenerateDeletes forbids deleting the excluded resources and their dependencies); the
    // stand-in deleted it, and the next preview failed on `b`'s old dependency without old state.
    const s = fixtureStack();
    const all = [item("a", "1"), item("c", "1"), item("b", "1", { dependsOn: ["a"] })];
    expect((await s.run("up", all)).ok).toBe(true);
    const removed = [item("b", "1")]; // `a` and `c` left the program; `b`, excluded, keeps its old dependsOn on `a`
    for (const operation of ["preview", "up"] as const) {
      const r = await s.run(operation, removed, { excludes: [urn("b")] });
      expect(r.ok, r.errors.join("\n")).toBe(true);
      expect(r.planText).toBe(`- delete  ${ITEM} c`);
    }
    expect(s.names().sort()).toEqual(["a", "b"]);
    const again = await s.run("preview", removed, { excludes: [urn("b")] });
    expect(again.ok, again.errors.join("\n")).toBe(true);
    expect(again.planText).toBe("");
  });

  it("a target that depends on an untargeted create: the preview reports it, the up fails before it", async () => {
    const s = fixtureStack();
    const program = [item("a", "1"), item("b", "1", { dependsOn: ["a"] })];
    const preview = await s.run("preview", program, { targets: [urn("b")] });
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain(
      `Resource '${urn("b")}' depends on '${urn("a")}' which was was not specified in --target list.`,
    );
    const up = await s.run("up", program, { targets: [urn("b")] });
    expect(up.ok).toBe(false);
    expect(up.providerHost.calls.Create).toBe(0);
  });

  it("--target, an untargeted resource registered before an old dependency it no longer orders: Duplicate resource URN", async () => {
    // pulumi/pulumi#24303 (open in v3.274.1): `getDependencySteps` gives `a`, which `b` depended on, a
    // same step when untargeted `b` registers first, and claims its URN; `a`'s own registration then fails.
    const s = fixtureStack();
    expect((await s.run("up", [item("a", "1"), item("b", "1", { dependsOn: ["a"] }), item("c", "1")])).ok).toBe(true);
    const edgeRemoved = [item("b", "1"), item("a", "1"), item("c", "2")];
    for (const operation of ["preview", "up"] as const) {
      const r = await s.run(operation, edgeRemoved, { targets: [urn("c")] });
      expect(r.ok).toBe(false);
      expect(r.errors.join("\n")).toContain(`Duplicate resource URN '${urn("a")}'; try giving it a unique name`);
    }
    // In the program's order again (a, then b), the same change applies.
    const ordered = await s.run("up", [item("a", "1"), item("b", "1"), item("c", "2")], { targets: [urn("c")] });
    expect(ordered.ok, ordered.errors.join("\n")).toBe(true);
    expect(
      Object.values(s.store().items)
        .map((i) => i.value)
        .sort(),
    ).toEqual(["1", "1", "2"]);
  });

  it("--replace: Check without old inputs, no Diff, create then delete; deleteBeforeReplace deletes first", async () => {
    const s = fixtureStack();
    expect((await s.run("up", [item("a", "1")])).ok).toBe(true);
    const preview = await s.run("preview", [item("a", "1")], { replaces: [urn("a")] });
    expect(preview.planText).toBe(`+- replace ${ITEM} a [id]`);
    expect(preview.providerHost.calls).toMatchObject({ Check: 1, Diff: 0 });
    const up = await s.run("up", [item("a", "1")], { replaces: [urn("a")] });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.providerHost.calls).toMatchObject({ Check: 1, Diff: 0, Create: 1, Delete: 1 });
    expect(up.plan.find((p) => p.name === "a")).toMatchObject({ op: "replace", deleteBeforeReplace: false });
    const dbr = await s.run("up", [item("a", "1", { deleteBeforeReplace: true })], { replaces: [urn("a")] });
    expect(dbr.plan.find((p) => p.name === "a")).toMatchObject({ op: "replace", deleteBeforeReplace: true });
    expect(s.names()).toEqual(["a"]);
  });

  it("--replace of a resource the stack does not hold: refused before the program runs (checkTargets), nothing made", async () => {
    const s = fixtureStack();
    for (const operation of ["preview", "up"] as const) {
      const r = await s.run(operation, [item("a", "1")], { replaces: [urn("a")] });
      expect(r.ok).toBe(false);
      expect(r.errors.join("\n")).toContain(
        `Target '${urn("a")}' could not be found in the stack. Did you forget to escape $ in your shell?`,
      );
      expect(r.providerHost.calls).toMatchObject({ Check: 0, Create: 0 });
    }
    expect(s.names()).toEqual([]);
  });

  it("--target of a resource renamed with aliases while an untargeted one depends on it: fails as the engine does", async () => {
    // Found by the simulator's differential run (docs/simulation.md): the real CLI v3.274.1 fails such a
    // preview with a snapshot integrity error; the stand-in used to keep both the old and the new record,
    // and the next up deleted the renamed one's role.
    const s = fixtureStack();
    expect((await s.run("up", [item("a", "1"), item("b", "1", { dependsOn: ["a"] })])).ok).toBe(true);
    const renamed = [item("a2", "1", { aliases: [{ name: "a" }] }), item("b", "1", { dependsOn: ["a2"] })];
    for (const operation of ["preview", "up"] as const) {
      const r = await s.run(operation, renamed, { targets: [urn("a2")] });
      expect(r.ok).toBe(false);
      expect(r.errors.join("\n")).toContain("snapshot integrity error");
    }
    // Without --target, the rename applies.
    const full = await s.run("up", renamed);
    expect(full.ok, full.errors.join("\n")).toBe(true);
    expect(s.names().sort()).toEqual(["a2", "b"]);
  });
});
