// The engine stand-in's own tests: failures, secrets, and parallelism.

import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ITEM, TOKEN, fixtureStack, stackDirs } from "./fixture-stack";

afterAll(() => {
  expect(stackDirs.length).toBeGreaterThan(0);
  expect(
    stackDirs.filter((d) => existsSync(d)),
    "temporary stack folders left behind",
  ).toEqual([]);
});

describe("engine stand-in failures and secrets", () => {
  it("a provider error fails the run, is reported against the resource, and keeps what succeeded", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "ok1", props: { value: "fine" } }]);
    const r = await s.run("up", [
      { name: "ok1", props: { value: "fine" } },
      { name: "ok2", props: { value: "fine too" } },
      { name: "bad", props: { value: "fail" }, opts: { dependsOn: ["ok2"] } },
    ]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      `error: urn:pulumi:dev::engine-fixture::${ITEM}::bad: fixture refused to create item with value 'fail'`,
      "error: update failed",
    ]);
    // ok2 was created before bad was attempted; nothing was deleted; the checkpoint parses.
    expect(s.names().sort()).toEqual(["ok1", "ok2"]);
    expect(Object.keys(s.store().items).sort()).toEqual(["1", "2"]);

    // Removing a resource in the same failed run must not delete it: deletes need a successful program.
    const again = await s.run("up", [{ name: "bad", props: { value: "fail" } }]);
    expect(again.ok).toBe(false);
    expect(again.providerHost.calls.Delete).toBe(0);
    expect(s.names().sort()).toEqual(["ok1", "ok2"]);
  });

  it("a failed update and a failed delete leave the old state in place", async () => {
    const s = fixtureStack();
    await s.run("up", [
      { name: "u", props: { value: "v1" } },
      { name: "stuck", props: { value: "undeletable" } },
    ]);
    const before = s.state().resources.find((x) => x.urn.endsWith("::u"));
    const upd = await s.run("up", [
      { name: "u", props: { value: "fail" } },
      { name: "stuck", props: { value: "undeletable" } },
    ]);
    expect(upd.errors).toEqual([
      expect.stringMatching(/::u: fixture refused to update item 1 to value 'fail'$/),
      "error: update failed",
    ]);
    expect(s.state().resources.find((x) => x.urn.endsWith("::u"))?.outputs).toEqual(before?.outputs);

    const del = await s.run("up", [{ name: "u", props: { value: "v1" } }]);
    expect(del.errors).toEqual([
      expect.stringMatching(/::stuck: fixture refused to delete item 2$/),
      "error: update failed",
    ]);
    expect(s.names().sort()).toEqual(["stuck", "u"]);
  });

  it("a partial create is kept in state with its id, properties and init errors; the next up updates it", async () => {
    const s = fixtureStack();
    const r = await s.run("up", [{ name: "half", props: { value: "partial" } }]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      expect.stringMatching(/::half: fixture created item 1 but could not finish it$/),
      "error: update failed",
    ]);
    const kept = s.state().resources.find((x) => x.urn.endsWith("::half"));
    expect(kept).toMatchObject({ id: "1", initErrors: ["fixture created item 1 but could not finish it"] });
    expect(kept?.outputs).toMatchObject({ value: "partial", serial: -1 });

    // Unchanged inputs: no diff, yet the engine runs an update to finish the job, then clears the errors.
    const again = await s.run("up", [{ name: "half", props: { value: "partial" } }]);
    expect(again.ok, again.errors.join("\n")).toBe(true);
    expect(again.planText).toContain(`~ update  ${ITEM} half`);
    expect(again.providerHost.calls.Create).toBe(0);
    const finished = s.state().resources.find((x) => x.urn.endsWith("::half"));
    expect(finished?.initErrors).toBeUndefined();
    expect(finished?.outputs).toMatchObject({ serial: 100 });
    expect((await s.run("up", [{ name: "half", props: { value: "partial" } }])).planText).toBe("");
  });

  it("a partial update records the properties the provider returned, with init errors", async () => {
    const s = fixtureStack();
    await s.run("up", [{ name: "u", props: { value: "v1" } }]);
    const r = await s.run("up", [{ name: "u", props: { value: "partial-update" } }]);
    expect(r.errors).toEqual([
      expect.stringMatching(/::u: fixture updated item 1 but could not finish it$/),
      "error: update failed",
    ]);
    expect(s.state().resources.find((x) => x.urn.endsWith("::u"))).toMatchObject({
      outputs: { value: "partial-update", serial: -2 },
      initErrors: ["fixture updated item 1 but could not finish it"],
    });
  });

  it("check failures are reported with the property and reason, before any create", async () => {
    const s = fixtureStack();
    const r = await s.run("preview", [{ name: "v", props: { value: "invalid" } }]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      `error: urn:pulumi:dev::engine-fixture::${ITEM}::v: ${ITEM} resource 'v': property value value {invalid} has a problem: value must not be 'invalid'`,
    ]);
    expect(r.providerHost.calls.Create).toBe(0);
  });

  it("an exception in the program fails the run and deletes nothing", async () => {
    // Through cmd/run: the exit code path (inline programs: inline-host.test.ts).
    const s = fixtureStack("process");
    await s.run("up", [{ name: "keep", props: { value: "k" } }]);
    const r = await s.run("up", [], { config: { "fixture:spec": "not json", "fixture:store": s.storeFile } });
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("SyntaxError");
    expect(r.providerHost.calls.Delete).toBe(0);
    expect(s.names()).toEqual(["keep"]);
  });

  it("secret config reaches configure unwrapped and never lands in the checkpoint as plaintext", async () => {
    // Through cmd/run, which hands the program its config in PULUMI_CONFIG.
    const s = fixtureStack("process");
    const r = await s.run("up", [{ name: "x", props: { value: "v" } }]);
    expect(r.outputs["token"]).toBe(TOKEN); // the program saw it through PULUMI_CONFIG
    const store = s.store();
    expect(store.tokenLength).toBe(TOKEN.length); // configure saw the plaintext, not the secret envelope
    expect(store.tokenStartsWith).toBe(TOKEN.slice(0, 3));
    const text = s.stateText();
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('"ciphertext"');
    // Encrypted, not merely encoded.
    expect(text).not.toContain(Buffer.from(JSON.stringify(TOKEN)).toString("base64"));
    // And it round-trips: the next run still knows the output is the secret.
    const again = await s.run("up", [{ name: "x", props: { value: "v" } }]);
    expect(again.planText).toBe("");
  });

  it("runs resource operations concurrently, bounded by parallel", async () => {
    // Each create waits for `meetAt` creates to run at once, then 300 ms more for any extra one to show up.
    const spec = (meetAt: number) =>
      Array.from({ length: 6 }, (_, i) => ({ name: `p${i}`, props: { value: `v${i}`, meetAt, delayMs: 300 } }));
    const wide = fixtureStack();
    expect((await wide.run("up", spec(6))).errors).toEqual([]);
    expect(wide.store().maxActive).toBe(6);
    const narrow = fixtureStack();
    expect((await narrow.run("up", spec(2), { parallel: 2 })).errors).toEqual([]);
    expect(narrow.store().maxActive).toBe(2);
  });
});
