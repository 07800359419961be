/**
 * What each host tells the engine about a change, and what the engine does with it: the plugin
 * reports the changed keys (so `replaceOnChanges` works) and, for a GroupRoles, each entry's change (a
 * detailed diff, which a pull request's preview shows); the dynamic-provider host forwards neither
 * (cmd/dynamic-provider diff sends only changes, replaces and deleteBeforeReplace), so there
 * `replaceOnChanges` has no effect. Through the engine stand-in, which matches `replaceOnChanges`
 * against the reported keys only, as step_generator.go applyReplaceOnChanges does.
 */
import { describe, expect, it } from "vitest";
import {
  runMixed,
  SDK_KINDS,
  specStackPerFile,
  type GroupRolesSpec,
  type RoleSpec,
  type SdkKind,
  type Stack,
} from "./harness";

let s: Stack;

describe.each(SDK_KINDS)("%s resources", (sdk: SdkKind) => {
  specStackPerFile((stack) => (s = stack), sdk);

  it("replaceOnChanges: a replacement where the provider reports the key (the plugin), else an update", async () => {
    const role = (description: string): RoleSpec => ({
      name: "r",
      args: { groupId: 42, name: "R", description },
      opts: { replaceOnChanges: ["description"], deleteBeforeReplace: true },
    });
    expect((await runMixed(s, "up", [], [role("one")])).ok).toBe(true);
    const preview = await runMixed(s, "preview", [], [role("two")]);
    expect(preview.ok, preview.errors.join("\n")).toBe(true);
    const step = preview.plan.find((p) => p.name === "r");
    expect(step?.op).toBe(sdk === "package" ? "replace" : "update");
    expect(step?.changedProperties).toEqual(["description"]);
  });

  it("a catalogue's preview names each entry added, updated or removed, where the host can carry it", async () => {
    const cat = (roles: GroupRolesSpec["args"]["roles"]): GroupRolesSpec => ({
      name: "c",
      args: { groupId: 42, roles },
    });
    expect((await runMixed(s, "up", [cat({ a: { name: "A" }, b: { name: "B" } })])).ok).toBe(true);
    const preview = await runMixed(s, "preview", [cat({ b: { name: "B2" }, c: { name: "C" } })]);
    const step = preview.plan.find((p) => p.name === "c");
    expect(step?.changedProperties).toEqual(["roles"]);
    expect(step?.detailedDiff).toEqual(
      sdk === "package" ? { "roles.a": "delete", "roles.b": "update", "roles.c": "add" } : undefined,
    );
  });
});
