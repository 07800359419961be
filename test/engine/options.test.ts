// The engine stand-in's own tests: resource options carried by RegisterResource, and Resource.get.

import { describe, expect, it } from "vitest";
import { ITEM, fixtureStack } from "./fixture-stack";

describe("engine stand-in resource options", () => {
  it("aliases: a renamed resource keeps its identity (no create, no delete); preview shows no change", async () => {
    const s = fixtureStack();
    expect((await s.run("up", [{ name: "old", props: { value: "v" } }])).ok).toBe(true);
    const renamed = [{ name: "new", props: { value: "v" }, opts: { aliases: [{ name: "old" }] } }];
    const preview = await s.run("preview", renamed);
    expect(preview.planText).toBe("");
    const up = await s.run("up", renamed);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.providerHost.calls).toMatchObject({ Create: 0, Delete: 0 });
    expect(s.names()).toEqual(["new"]);
    expect(s.state().resources.find((r) => r.type === ITEM)?.id).toBe("1");
    // Without the alias the same rename is a create of "new" and a delete of "old".
    const t = fixtureStack();
    await t.run("up", [{ name: "old", props: { value: "v" } }]);
    const plain = await t.run("preview", [{ name: "new", props: { value: "v" } }]);
    expect(plain.planText).toBe(`+ create  ${ITEM} new\n- delete  ${ITEM} old`);
  });

  it("protect refuses deletion and replacement, and keeps the resource", async () => {
    const s = fixtureStack();
    const p = { name: "p", props: { value: "keep", group: "g1" }, opts: { protect: true } };
    expect((await s.run("up", [p])).errors).toEqual([]);
    expect(s.state().resources.find((r) => r.type === ITEM)?.protect).toBe(true);

    const replace = await s.run("up", [{ ...p, props: { value: "keep", group: "g2" } }]);
    expect(replace.ok).toBe(false);
    expect(replace.errors).toEqual([
      expect.stringMatching(
        /^error: urn:pulumi:dev::engine-fixture::pulumi-nodejs:dynamic\/fixture:Item::p: unable to replace resource/,
      ),
    ]);
    expect(replace.providerHost.calls).toMatchObject({ Create: 0, Delete: 0 });

    const preview = await s.run("preview", []);
    expect(preview.ok).toBe(false);
    expect(preview.errors[0]).toContain("cannot be deleted\nbecause it is protected");

    const del = await s.run("up", []);
    expect(del.ok).toBe(false);
    expect(del.errors[0]).toContain(
      "`pulumi state unprotect 'urn:pulumi:dev::engine-fixture::pulumi-nodejs:dynamic/fixture:Item::p'`",
    );
    expect(del.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["p"]);
    expect(Object.keys(s.store().items)).toEqual(["1"]);

    // Unprotecting is a state-only change; then the delete goes through.
    expect((await s.run("up", [{ ...p, opts: {} }])).planText).toBe("");
    const ok = await s.run("up", []);
    expect(ok.errors).toEqual([]);
    expect(s.store().items).toEqual({});
  });

  it("protect refuses a replace only when protected before and after; a preview reports it and goes on", async () => {
    // step_generator.go continueStepsFromDiff: `new.Protect && old.Protect` (TestProtect in lifecycletest).
    const s = fixtureStack();
    const item = (group: string, protect: boolean) => ({ name: "p", props: { value: "v", group }, opts: { protect } });
    await s.run("up", [item("g1", false)]);
    // Protected only from now on: replaced in the same run.
    const added = await s.run("up", [item("g2", true)]);
    expect(added.errors).toEqual([]);
    expect(added.planText).toBe(`+- replace ${ITEM} p [group]`);
    // Protected before and after: the preview shows the replacement and fails; the up refuses it first.
    const preview = await s.run("preview", [item("g3", true), { name: "other", props: { value: "o" } }]);
    expect(preview.ok).toBe(false);
    expect(preview.errors).toEqual([expect.stringContaining("unable to replace resource"), "error: preview failed"]);
    expect(preview.planText).toContain(`+ create  ${ITEM} other`);
    const up = await s.run("up", [item("g3", true)]);
    expect(up.ok).toBe(false);
    expect(up.providerHost.calls).toMatchObject({ Create: 0, Delete: 0 });
  });

  it("protected deletes are all reported, and the other deletes go on (TestMultipleProtectedDeletes)", async () => {
    const s = fixtureStack();
    const protectedItem = (name: string) => ({ name, props: { value: name }, opts: { protect: true } });
    // d depends on c: c is deleted in a later wave than the protected ones.
    await s.run("up", [
      protectedItem("a"),
      protectedItem("b"),
      { name: "c", props: { value: "c" } },
      { name: "d", props: { value: "d" }, opts: { dependsOn: ["c"] } },
    ]);
    const r = await s.run("up", []);
    expect(r.ok).toBe(false);
    expect(r.errors.filter((e) => e.includes("because it is protected"))).toHaveLength(2);
    expect(r.providerHost.calls.Delete).toBe(2);
    expect(s.names().sort()).toEqual(["a", "b"]);
    expect(Object.values(s.store().items).map((i) => i.value)).toEqual(["a", "b"]);
  });

  it("retainOnDelete drops the resource from state without calling Delete", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "r", props: { value: "stay" }, opts: { retainOnDelete: true } }]);
    const r = await s.run("up", []);
    expect(r.errors).toEqual([]);
    expect(r.planText).toBe(`- delete  ${ITEM} r [retain]`);
    expect(r.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual([]);
    expect(s.store().items["1"]).toEqual({ value: "stay" });
  });

  it("ignoreChanges keeps the old value of an ignored property", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "i", props: { value: "v1", group: "g1" } }]);
    const r = await s.run("up", [
      { name: "i", props: { value: "v2", group: "g2" }, opts: { ignoreChanges: ["group"] } },
    ]);
    expect(r.planText).toBe(`~ update  ${ITEM} i [value]`);
    expect(s.store().items["1"]).toEqual({ value: "v2", group: "g1" });
  });

  it("replaceOnChanges does nothing for a dynamic resource: its host reports no changed keys (an update)", async () => {
    // step_generator.go applyReplaceOnChanges matches the keys the provider's Diff reported; the
    // dynamic-provider host (cmd/dynamic-provider diff) sends only changes, replaces and
    // deleteBeforeReplace. The plugin reports its keys: test/e2e/package tests replaceOnChanges there.
    const s = fixtureStack();
    await s.run("up", [{ name: "x", props: { value: "v1" } }]);
    const r = await s.run("preview", [{ name: "x", props: { value: "v2" }, opts: { replaceOnChanges: ["value"] } }]);
    expect(r.planText).toBe(`~ update  ${ITEM} x [value]`);
  });

  it("a replacement checks the inputs again, with no olds (continueStepsFromDiff)", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "x", props: { value: "v1", group: "g1", traceCheck: true } }]);
    await s.run("up", [{ name: "x", props: { value: "v1", group: "g2", traceCheck: true } }]);
    const checks = s
      .store()
      .log.filter((l) => l.op === "check")
      .map((l) => l.id);
    // The create's check, then the update's two: with the old inputs, then with none.
    expect(checks).toEqual(["v1:0", "v1:4", "v1:0"]);
  });

  it("import fails for a dynamic resource, as under the Pulumi CLI (pulumi/pulumi#3550)", async () => {
    // The engine's import Read carries only the id, so the host cannot find `__provider` to load the
    // provider. Products must not promise the `import` option on dynamic resources.
    const s = fixtureStack();
    await s.run("up", [{ name: "orig", props: { value: "found" }, opts: { retainOnDelete: true } }]);
    await s.run("up", []); // forget it: it now exists only in the store, as if created by hand
    const r = await s.run("preview", [{ name: "adopted", props: { value: "found" }, opts: { import: "1" } }]);
    expect(r.ok).toBe(false);
    expect(r.plan).toEqual([
      expect.objectContaining({ op: "same" }),
      expect.objectContaining({ op: "import", name: "adopted" }),
    ]);
    expect(r.errors).toEqual([
      // A step that fails while it runs in a preview: `Preview failed: <error>` (engine/update.go
      // previewActions.OnResourceStepPost).
      expect.stringMatching(/::adopted: Preview failed: code must be a string, not undefined$/),
      "error: preview failed",
    ]);
    expect(r.providerHost.calls).toMatchObject({ Read: 1, Check: 0, Create: 0 });
  });

  it("Resource.get reads through ReadResource with only the id and __provider", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "src", props: { value: "seen", group: "g7" } }]);
    const r = await s.run("up", [
      { name: "src", props: { value: "seen", group: "g7" } },
      { name: "looked-up", get: "1" },
    ]);
    expect(r.errors).toEqual([]);
    expect(r.plan.find((x) => x.name === "looked-up")?.op).toBe("read");
    expect(r.planText).toBe(`> read    ${ITEM} looked-up`);
    expect(r.outputs["serials"]).toEqual({ src: 100, "looked-up": 100 });
    expect(r.providerHost.calls).toMatchObject({ Read: 1, Create: 0 });
    const external = s.state().resources.find((x) => x.urn.endsWith("::looked-up"));
    expect(external).toMatchObject({ external: true, id: "1" });

    // No longer read: forgotten, never deleted.
    const gone = await s.run("up", [{ name: "src", props: { value: "seen", group: "g7" } }]);
    expect(gone.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["src"]);
  });
});
