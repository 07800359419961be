// The engine stand-in's own tests: preview / up / refresh / destroy of the fixture program.
// The tests in this file run in order against one stack, as a user would drive it.

import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ITEM, STACK_LINE, TOKEN, fixtureStack, type ItemSpec } from "./fixture-stack";
import { UNKNOWN } from "../../tools/engine";

/** State text without secret ciphertexts, which get a fresh nonce on every write. */
const stable = (text: string) => text.replace(/"ciphertext": "[^"]*"/g, '"ciphertext": "…"');

describe("engine stand-in lifecycle", () => {
  const s = fixtureStack();
  const a: ItemSpec = { name: "a", props: { value: "one", group: "g1" } };
  const b: ItemSpec = { name: "b", props: { value: "two", group: "g1" }, opts: { dependsOn: ["a"] } };

  it("preview plans creates, leaves outputs unknown, and touches neither state nor provider", async () => {
    const r = await s.run("preview", [a, b]);
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.planText).toBe([STACK_LINE, `+ create  ${ITEM} a`, `+ create  ${ITEM} b`].join("\n"));
    expect(r.outputs["ids"]).toBe(UNKNOWN);
    expect(r.outputs["serials"]).toBe(UNKNOWN);
    expect(r.providerHost.calls).toMatchObject({ Configure: 1, Check: 2, Diff: 0, Create: 0, Update: 0, Delete: 0 });
    expect(s.stateText()).toBe("");
  });

  it("up creates the resources and records them in the checkpoint", async () => {
    const r = await s.run("up", [a, b]);
    expect(r.errors).toEqual([]);
    expect(r.planText).toBe([STACK_LINE, `+ create  ${ITEM} a`, `+ create  ${ITEM} b`].join("\n"));
    expect(r.outputs).toEqual({ ids: { a: "1", b: "2" }, serials: { a: 100, b: 200 }, token: TOKEN });
    expect(r.providerHost.calls.Create).toBe(2);
    expect(Object.keys(s.store().items)).toEqual(["1", "2"]);
    expect(s.names()).toEqual(["a", "b"]);
    const bState = s.state().resources.find((x) => x.urn.endsWith("::b"));
    expect(bState?.dependencies).toEqual([expect.stringMatching(/::a$/)]);
    expect(r.providerHost.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("a second up plans nothing and calls only Check and Diff", async () => {
    const before = s.stateText();
    const r = await s.run("up", [a, b]);
    expect(r.ok).toBe(true);
    expect(r.planText).toBe("");
    expect(r.plan.map((p) => p.op)).toEqual(["same", "same", "same"]);
    expect(r.providerHost.calls).toMatchObject({ Check: 2, Diff: 2, Create: 0, Update: 0, Delete: 0 });
    expect(stable(s.stateText())).toBe(stable(before));
  });

  it("preview of a changed input shows ~ update with the property, and changes nothing", async () => {
    const before = s.stateText();
    const r = await s.run("preview", [{ ...a, props: { value: "uno", group: "g1" } }, b]);
    expect(r.planText).toBe(`~ update  ${ITEM} a [value]`);
    expect(r.plan.find((p) => p.name === "a")).toMatchObject({ op: "update", changedProperties: ["value"] });
    expect(r.outputs["serials"]).toBe(UNKNOWN); // an output not among the inputs is unknown until applied
    expect(r.providerHost.calls.Update).toBe(0);
    expect(s.stateText()).toBe(before);
  });

  it("up applies the update in place", async () => {
    const r = await s.run("up", [{ ...a, props: { value: "uno", group: "g1" } }, b]);
    expect(r.planText).toBe(`~ update  ${ITEM} a [value]`);
    expect(r.outputs["ids"]).toEqual({ a: "1", b: "2" });
    expect(s.store().items["1"]?.value).toBe("uno");
    a.props = { value: "uno", group: "g1" };
  });

  it("a replace-triggering change previews as +- and up creates the new one before deleting the old", async () => {
    const moved = { ...a, props: { value: "uno", group: "g2" } };
    const p = await s.run("preview", [moved, b]);
    expect(p.planText).toBe(`+- replace ${ITEM} a [group]`);
    expect(p.providerHost.calls).toMatchObject({ Create: 0, Delete: 0 });

    const r = await s.run("up", [moved, b]);
    expect(r.errors).toEqual([]);
    expect(r.planText).toBe(`+- replace ${ITEM} a [group]`);
    expect(r.plan.find((x) => x.name === "a")?.deleteBeforeReplace).toBe(false);
    expect(r.outputs["ids"]).toEqual({ a: "3", b: "2" });
    expect(s.store().log.slice(-2)).toEqual([
      { op: "create", id: "3" },
      { op: "delete", id: "1" },
    ]);
    expect(s.names().sort()).toEqual(["a", "b"]);
    a.props = moved.props;
  });

  it("deleteBeforeReplace deletes the old one first", async () => {
    const moved = { ...a, props: { value: "uno", group: "g3" }, opts: { deleteBeforeReplace: true } };
    const r = await s.run("up", [moved, b]);
    expect(r.planText).toBe(`+- replace ${ITEM} a [group]`);
    expect(s.store().log.slice(-2)).toEqual([
      { op: "delete", id: "3" },
      { op: "create", id: "4" },
    ]);
    a.props = moved.props;
  });

  it("resources removed from the program are deleted after it finishes, dependents first", async () => {
    const c: ItemSpec = { name: "c", props: { value: "three" } };
    await s.run("up", [a, b, c]);
    expect(s.names().sort()).toEqual(["a", "b", "c"]);
    const r = await s.run("up", [c]);
    expect(r.errors).toEqual([]);
    expect(r.planText).toBe([`- delete  ${ITEM} b`, `- delete  ${ITEM} a`].join("\n"));
    expect(
      s
        .store()
        .log.filter((l) => l.op === "delete")
        .slice(-2),
    ).toEqual([
      { op: "delete", id: "2" },
      { op: "delete", id: "4" },
    ]);
    expect(s.names()).toEqual(["c"]);
  });

  it("refresh drops a resource deleted out of band and keeps the rest", async () => {
    const d: ItemSpec = { name: "d", props: { value: "four" } };
    await s.run("up", [{ name: "c", props: { value: "three" } }, d]);
    const store = s.store();
    const cId = s.state().resources.find((x) => x.urn.endsWith("::c"))?.id ?? "";
    delete store.items[cId];
    writeFileSync(s.storeFile, JSON.stringify(store));
    const r = await s.run("refresh");
    expect(r.errors).toEqual([]);
    expect(r.plan.find((x) => x.name === "c")?.op).toBe("delete");
    expect(r.plan.find((x) => x.name === "d")?.op).toBe("same");
    expect(r.providerHost.calls).toMatchObject({ Read: 2, Delete: 0 });
    expect(s.names()).toEqual(["d"]);
  });

  it("refresh records drift and the next preview proposes to undo it", async () => {
    const store = s.store();
    const dId = s.state().resources.find((x) => x.urn.endsWith("::d"))?.id ?? "";
    store.items[dId] = { value: "changed by hand" };
    writeFileSync(s.storeFile, JSON.stringify(store));
    const r = await s.run("refresh");
    // No property named: a refresh leaves the inputs as they were, and the dynamic provider names none (the CLI).
    expect(r.planText).toBe(`~ refresh ${ITEM} d`);
    expect(s.state().resources.find((x) => x.urn.endsWith("::d"))?.outputs["value"]).toBe("changed by hand");
    // The CLI's [diff: ...] for an update compares old and new inputs, which are equal here.
    const p = await s.run("preview", [{ name: "d", props: { value: "four" } }]);
    expect(p.planText).toBe(`~ update  ${ITEM} d`);
    expect((await s.run("up", [{ name: "d", props: { value: "four" } }])).providerHost.calls.Update).toBe(1);
    expect(s.store().items[dId]?.value).toBe("four");
  });

  it("children of a component get the parent's type in their URN and are deleted before it", async () => {
    const spec: ItemSpec[] = [
      { name: "d", props: { value: "four" } },
      { name: "grp", component: true },
      { name: "kid", props: { value: "k" }, opts: { parent: "grp" } },
    ];
    const r = await s.run("up", spec);
    expect(r.errors).toEqual([]);
    expect(r.plan.find((x) => x.name === "kid")?.urn).toBe(
      `urn:pulumi:dev::engine-fixture::fixture:index:Group$${ITEM}::kid`,
    );
    expect(r.planText).toBe([`+ create  fixture:index:Group grp`, `+ create  ${ITEM} kid`].join("\n"));
    const gone = await s.run("up", [spec[0]!]);
    expect(gone.planText).toBe([`- delete  ${ITEM} kid`, `- delete  fixture:index:Group grp`].join("\n"));
  });

  it("destroy deletes everything, the stack included", async () => {
    const r = await s.run("destroy");
    expect(r.errors).toEqual([]);
    expect(r.planText).toBe([`- delete  ${ITEM} d`, "- delete  pulumi:pulumi:Stack engine-fixture-dev"].join("\n"));
    expect(s.store().items).toEqual({});
    expect(s.state().resources).toEqual([]);
  });
});
