/**
 * A refresh of an unchanged stack changes nothing, whatever options the resources use: `pulumi refresh`
 * plans no update and `pulumi preview --refresh --expect-no-changes` passes right after an `up` (the
 * drift check the README recommends). Both resources, every input, both SDK kinds; the service is the
 * witness that nothing drifted.
 */
import { describe, expect, it } from "vitest";
import {
  catalogPlan,
  catalogueSpec,
  rolePlan,
  roleSpec,
  runMixed,
  SDK_KINDS,
  specStackPerFile,
  type Stack,
} from "./harness";

describe.each(SDK_KINDS)("%s resources: a refresh of an unchanged stack", (sdk) => {
  let s: Stack;
  specStackPerFile((stack) => (s = stack), sdk);

  it("plans nothing, and preview --refresh --expect-no-changes passes, for every input", async () => {
    const roles = [
      {
        ...roleSpec("r", "Reports"),
        args: { groupId: 42, name: "Reports", description: "read only", settings: { viewVideo: true } },
      },
    ];
    const catalogues = [
      catalogueSpec(
        "owner",
        {
          a: { name: "Agents", description: "first line", settings: { remoteAssist: true, viewVideo: false } },
          k: { name: "Kept", retain: true },
        },
        { exclusive: true, adoptExisting: true },
        { dependsOn: ["r"] },
      ),
    ];
    const up = await runMixed(s, "up", catalogues, roles);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const before = await s.h.listRoles(42);

    const refreshed = await runMixed(s, "refresh", catalogues, roles);
    expect(refreshed.ok, refreshed.errors.join("\n")).toBe(true);
    expect([...rolePlan(refreshed), ...catalogPlan(refreshed)]).toEqual([]);

    s.flags = { refresh: true, expectNoChanges: true };
    try {
      const check = await runMixed(s, "preview", catalogues, roles);
      expect(check.ok, check.errors.join("\n") + check.planText).toBe(true);
    } finally {
      s.flags = undefined;
    }
    expect(await s.h.listRoles(42)).toEqual(before);
  });
});
