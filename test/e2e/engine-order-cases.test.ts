/**
 * The five cases of the issue "Cross-resource promises from the program's structure", as a user meets
 * them: each asserts what a user is promised (a green preview predicts its `up`, no role is lost, the
 * `up` ends), read from the service. They need engine behaviour the stand-in does not have yet
 * (`--target`, `--replace`, `replaceOnChanges`' second Check, step durations that differ between
 * preview and `up`), so they run through the real CLI only (`npm run test:cli`).
 */
import { describe, expect, it } from "vitest";
import { catalogueSpec, roleSpec, engineKind, runMixed, specStackPerFile, type Stack } from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

const cat = catalogueSpec;
const role = roleSpec;
/** Name to roleId, as the service lists the group. */
const held = async (groupId = 42) => Object.fromEntries((await s.h.listRoles(groupId)).map((r) => [r.name, r.roleId]));
const urn = (type: "Role" | "GroupRoles", name: string) =>
  `urn:pulumi:dev::roles-spec::pulumi-nodejs:dynamic/grouproles:${type}::${name}`;

describe.runIf(engineKind() === "cli")("the engine-order cases through the real CLI", () => {
  it("1. a move between catalogues with a slow resource before the receiver: a green preview keeps the role", async () => {
    const before = [
      cat("one", { a: { name: "A" }, b: { name: "B" } }),
      cat("two", { c: { name: "C" } }, { adoptExisting: true }),
    ];
    const first = await runMixed(s, "up", before, [role("anchor", "Anchor")]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const ids = await held();
    const after = [
      cat("two", { c: { name: "C" }, a: { name: "A" } }, { adoptExisting: true }, { dependsOn: ["fresh"] }),
      cat("one", { b: { name: "B" } }, {}, { dependsOn: ["anchor"] }),
    ];
    const roles = [role("fresh", "Fresh"), role("anchor", "Anchor")];
    const preview = await runMixed(s, "preview", after, roles);
    if (!preview.ok) return; // refused in the preview: nothing promised
    const up = await runMixed(s, "up", after, roles);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect((await held()).A).toBe(ids.A);
  });

  it("2. replaceOnChanges on a rename whose old name another Role takes: the up ends and both names exist", async () => {
    s.sdk = "package";
    try {
      const first = await runMixed(s, "up", [], [role("a", "x"), role("b", "z")]);
      expect(first.ok, first.errors.join("\n")).toBe(true);
      const after = [role("a", "y", { replaceOnChanges: ["name"] }), role("b", "x")];
      const preview = await runMixed(s, "preview", [], after);
      if (!preview.ok) return;
      s.flags = { timeoutMs: 150_000 };
      const up = await runMixed(s, "up", [], after);
      expect(up.errors.join("\n")).not.toMatch(/timed out|SIGKILL/);
      expect(up.ok, up.errors.join("\n")).toBe(true);
      expect(Object.keys(await held()).sort()).toEqual(["x", "y"]);
    } finally {
      s.sdk = "dynamic";
      s.flags = undefined;
    }
  });

  it("3. deleteBeforeReplace of a catalogue moved to another group while another adopts its role: the role keeps its ID", async () => {
    const first = await runMixed(s, "up", [cat("old", { a: { name: "A" }, b: { name: "B" } })]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const ids = await held();
    const after = [
      {
        ...cat("old", { a: { name: "A" }, b: { name: "B" } }, {}, { deleteBeforeReplace: true }),
        args: { groupId: 43, roles: { a: { name: "A" }, b: { name: "B" } } },
      },
      cat("keep", { a: { name: "A" } }, { adoptExisting: true }),
    ];
    const preview = await runMixed(s, "preview", after);
    if (!preview.ok) return;
    const up = await runMixed(s, "up", after);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect((await held()).A).toBe(ids.A);
  });

  it("4. up --target of an exclusive catalogue leaves the Role of its group alone", async () => {
    const roles = [role("r", "R")];
    const before = [cat("owner", { x: { name: "X" } }, { exclusive: true }, { dependsOn: ["r"] })];
    const first = await runMixed(s, "up", before, roles);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const after = [cat("owner", { x: { name: "X" }, y: { name: "Y" } }, { exclusive: true }, { dependsOn: ["r"] })];
    s.flags = { targets: [urn("GroupRoles", "owner")] };
    try {
      const up = await runMixed(s, "up", after, roles);
      expect(up.ok, up.errors.join("\n")).toBe(true);
    } finally {
      s.flags = undefined;
    }
    expect(Object.keys(await held()).sort()).toEqual(["R", "X", "Y"]);
  });

  it("5. up --replace of a Role whose name stays: refused in the preview, saying why and what works", async () => {
    const roles = [role("r", "R")];
    const first = await runMixed(s, "up", [], roles);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const before = await held();
    s.flags = { replaces: [urn("Role", "r")] };
    try {
      const preview = await runMixed(s, "preview", [], roles);
      expect(preview.ok).toBe(false);
      expect(preview.errors.join("\n")).toContain("If this is `pulumi up --replace` of this Role");
    } finally {
      s.flags = undefined;
    }
    expect(await held()).toEqual(before);
  });
});
