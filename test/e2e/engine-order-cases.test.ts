/**
 * The five cases of the issue "Cross-resource promises from the program's structure", as a user meets
 * them: each asserts what a user is promised (the preview refuses what the `up` could not keep, the
 * `dependsOn` it names then works, no role is lost, the `up` ends), read from the service. Through the
 * stand-in (`npm test`) and the real CLI (`npm run test:cli`), at `--parallel` 1, 2 and the default.
 * Case 1's slow resource is a real step that takes time on either engine, so the preview and the `up`
 * register the giver and the receiver in different orders.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  catalogueSpec,
  engineKind,
  roleSpec,
  runMixed,
  specStackPerFile,
  startFrom,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
specStackPerFile((stack) => (s = stack));

const cat = catalogueSpec;
const role = roleSpec;
/** Name to roleId, as the service lists the group. */
const held = async (groupId = 42) => Object.fromEntries((await s.h.listRoles(groupId)).map((r) => [r.name, r.roleId]));
const start = (key: string, cats: GroupRolesSpec[], roles: RoleSpec[] = []) => startFrom(s, key, cats, roles);
const urn = (type: "Role" | "GroupRoles", name: string) =>
  `urn:pulumi:dev::roles-spec::pulumi-nodejs:dynamic/grouproles:${type}::${name}`;

describe.each([
  { parallel: 1, label: "--parallel 1" },
  { parallel: 2, label: "--parallel 2" },
  { parallel: undefined, label: "the default --parallel" },
])(
  `the engine-order cases through ${engineKind() === "cli" ? "the real CLI" : "the engine stand-in"} at $label`,
  ({ parallel }) => {
    beforeEach(() => {
      s.parallel = parallel;
    });
    // A test resource whose create takes 1.5 s (the spec program's `slow`), new in the change: in the `up`
    // whatever depends on it registers 1.5 s late, in the preview (no creates) at once. So the preview
    // and the `up` see the giver and the receiver register in opposite orders, on either engine.
    const SLOW = { "roles-spec:slow": JSON.stringify([{ name: "database", ms: 1500 }]) };
    for (const slowBefore of ["receiver", "giver"] as const) {
      it(`1. a move between catalogues with a slow resource before the ${slowBefore}: refused without dependsOn; kept with it`, async () => {
        const before = [
          cat("one", { a: { name: "A" }, b: { name: "B" } }),
          cat("two", { c: { name: "C" } }, { adoptExisting: true }),
        ];
        await start("case 1", before, [role("anchor", "Anchor")]);
        const ids = await held();
        const late = (names: string[]) => [...names, "database"];
        const receiver = (deps: string[]) =>
          cat("two", { c: { name: "C" }, a: { name: "A" } }, { adoptExisting: true }, { dependsOn: deps });
        const giver = (deps: string[]) => cat("one", { b: { name: "B" } }, {}, { dependsOn: deps });
        const after = [
          receiver(slowBefore === "receiver" ? late(["fresh"]) : ["fresh"]),
          giver(slowBefore === "giver" ? late(["anchor"]) : ["anchor"]),
        ];
        const roles = [role("fresh", "Fresh"), role("anchor", "Anchor")];
        // Nothing orders `one`'s update after `two`'s takeover: refused, whichever registers first.
        const preview = await runMixed(s, "preview", after, roles, SLOW);
        expect(preview.ok).toBe(false);
        expect(preview.errors.join("\n")).toContain("`dependsOn`");
        // The refused catalogue names the other as the program does (issue 43), whichever refused.
        expect(preview.errors.join("\n")).toMatch(
          /GroupRoles::one: .*the GroupRoles "two" \(group 42, declaring|GroupRoles::two: .*the GroupRoles "one" \(group 42, declaring/s,
        );
        expect(await held()).toEqual(ids);
        // The way the message names: the giver depends on the receiver. Green preview, and the up keeps A.
        const ordered = [after[0]!, giver([...(after[1]!.opts!.dependsOn as string[]), "two"])];
        const green = await runMixed(s, "preview", ordered, roles, SLOW);
        expect(green.ok, green.errors.join("\n")).toBe(true);
        // `dependsOn` changed `__structure`, an internal input the CLI's plan does not list (rows.go `getDiffInfo`).
        expect(green.planText).toMatch(/update +\S+GroupRoles one \[roles\]/);
        const up = await runMixed(s, "up", ordered, roles, SLOW);
        expect(up.ok, up.errors.join("\n")).toBe(true);
        expect((await held()).A).toBe(ids.A);
        expect(Object.keys(await held()).sort()).toEqual(["A", "Anchor", "B", "C", "Fresh"]);
      });
    }

    it("2. replaceOnChanges on a rename whose old name another Role takes: refused in the preview, no up hangs", async () => {
      s.sdk = "package";
      try {
        await start("case 2", [], [role("a", "x"), role("b", "z")]);
        const after = [role("a", "y", { replaceOnChanges: ["name"] }), role("b", "x")];
        // `a`'s old role keeps "x" until it is deleted, after every other step: nothing frees it in time.
        const preview = await runMixed(s, "preview", [], after);
        expect(preview.ok).toBe(false);
        expect(preview.errors.join("\n")).toContain('already has a role named "x"');
        expect(Object.keys(await held()).sort()).toEqual(["x", "z"]);
        // The harness's `up` is `pulumi up --yes --skip-preview` on either engine: it must end (it hung 150 s
        // before), refused. `a`'s new role "y" may be made before `b` is refused, in the order the engine
        // registers them; "x" and "z" stay.
        s.flags = { timeoutMs: 150_000 };
        const up = await runMixed(s, "up", [], after);
        expect(up.errors.join("\n")).not.toMatch(/timed out|SIGKILL/);
        expect(up.ok).toBe(false);
        const names = Object.keys(await held());
        expect(names).toEqual(expect.arrayContaining(["x", "z"]));
        expect(["x", "y", "z"]).toEqual(expect.arrayContaining(names));
      } finally {
        s.sdk = "dynamic";
        s.flags = undefined;
      }
    });

    it("3. deleteBeforeReplace of a catalogue moved to another group while another adopts its role: refused, or kept with dependsOn", async () => {
      await start("case 3", [cat("old", { a: { name: "A" }, b: { name: "B" } })]);
      const ids = await held();
      const after = [
        {
          ...cat("old", { a: { name: "A" }, b: { name: "B" } }, {}, { deleteBeforeReplace: true }),
          args: { groupId: 43, roles: { a: { name: "A" }, b: { name: "B" } } },
        },
        cat("keep", { a: { name: "A" } }, { adoptExisting: true }),
      ];
      // The original is deleted at the head of its own replacement, before or after `keep` adopts A.
      const preview = await runMixed(s, "preview", after);
      expect(preview.ok).toBe(false);
      expect(preview.errors.join("\n")).toContain("`dependsOn`");
      const ordered = [after[1]!, { ...after[0]!, opts: { deleteBeforeReplace: true, dependsOn: ["keep"] } }];
      const up = await runMixed(s, "up", ordered);
      expect(up.ok, up.errors.join("\n")).toBe(true);
      expect((await held()).A).toBe(ids.A);
    });

    it("4. up --target of an exclusive catalogue leaves the Role of its group alone", async () => {
      const roles = [role("r", "R")];
      const before = [cat("owner", { x: { name: "X" } }, { exclusive: true }, { dependsOn: ["r"] })];
      await start("case 4", before, roles);
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
      await start("case 5", [], roles);
      const before = await held();
      s.flags = { replaces: [urn("Role", "r")] };
      try {
        const preview = await runMixed(s, "preview", [], roles);
        expect(preview.ok).toBe(false);
        expect(preview.errors.join("\n")).toContain("This Role's own, under `pulumi up --replace`");
      } finally {
        s.flags = undefined;
      }
      expect(await held()).toEqual(before);
    });
  },
);

describe(`a move under --target or --exclude through ${engineKind() === "cli" ? "the real CLI" : "the engine stand-in"}`, () => {
  it("the giver alone (--target it, or --exclude the receiver): refused in the preview, the role kept; the full up moves it", async () => {
    const first = await runMixed(s, "up", [
      cat("one", { a: { name: "A" }, b: { name: "B" } }),
      cat("two", { c: { name: "C" } }, { adoptExisting: true }),
    ]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const ids = await held();
    const after = [
      cat("two", { c: { name: "C" }, a: { name: "A" } }, { adoptExisting: true }),
      cat("one", { b: { name: "B" } }, {}, { dependsOn: ["two"] }),
    ];
    // The receiver gets no Check and no step: the giver's update would delete A with nobody taking it.
    for (const flags of [{ targets: [urn("GroupRoles", "one")] }, { excludes: [urn("GroupRoles", "two")] }]) {
      s.flags = flags;
      try {
        const preview = await runMixed(s, "preview", after);
        expect(preview.ok, JSON.stringify(flags)).toBe(false);
        expect(preview.errors.join("\n")).toContain("does not run in this deployment");
        const up = await runMixed(s, "up", after);
        expect(up.ok).toBe(false);
      } finally {
        s.flags = undefined;
      }
      expect(await held()).toEqual(ids);
    }
    const up = await runMixed(s, "up", after);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(await held()).toEqual(ids);
  });

  it("an exclusive catalogue beside a Role it depends on that --exclude leaves out: removes nothing that run (history 10385)", async () => {
    // The Role moves to group 43 in the program, but `--exclude` keeps it (and its role in 42) as it is:
    // what it declares (43) is not what its state holds (R in 42), which no provider call shows.
    const owner = [cat("owner", { x: { name: "X" } }, { exclusive: true }, { dependsOn: ["r"] })];
    const first = await runMixed(s, "up", owner, [role("r", "R")]);
    expect(first.ok, first.errors.join("\n")).toBe(true);
    const ids = await held();
    const moved = [role("r", "R", undefined, 43)];
    s.flags = { excludes: [urn("Role", "r")] };
    try {
      const up = await runMixed(s, "up", owner, moved);
      expect(up.ok, up.errors.join("\n")).toBe(true);
      const notes = up.diagnostics.map((d) => d.message).join("\n");
      expect(notes).toContain(
        'removes no role in this run, since "r" in its `dependsOn` is left out of this deployment',
      );
    } finally {
      s.flags = undefined;
    }
    expect(await held()).toEqual(ids); // R kept: the Role's state still records it
    // The full up moves the Role (a replacement: created in 43, its old role deleted).
    const full = await runMixed(s, "up", owner, moved);
    expect(full.ok, full.errors.join("\n")).toBe(true);
    expect(Object.keys(await held())).toEqual(["X"]);
    expect((await s.h.listRoles(43)).map((r) => r.name)).toEqual(["R"]);
  });
});
