/**
 * The protocol both resources share (provider/shared/resource-protocol.ts), on its own: which
 * registration a Check opens and when it replaces an earlier one, what a Check's refusal and a Diff's
 * outcome leave settled, and which registration a step runs for. The resources' suites show the same end to
 * end; here each rule is pinned without a service (no input names a group, so no request is made).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";
import { checkRegistration, diffRegistration, runStep } from "../../provider/shared/resource-protocol";
import type { Registration } from "../../provider/shared/registrations";

const inputs = (urn: string) => ({ name: "A", __structure: { urn, dependsOn: [] } });
/** A resource's Check: refused with `refusal` (an input failure) when given, a create declaring nothing. */
const checking = (refusal?: string) => ({
  what: "check of a Role",
  described: "Role a",
  inputFailures: () => (refusal ? [{ property: "name", reason: refusal }] : []),
  declareCreate: async () => [],
});
const unchanged = { changes: false, replaces: [] as string[] };

describe("the protocol every resource's calls go through", () => {
  // Settings that can work (a Check refuses every input without them); no input names a group, so nothing is sent.
  beforeEach(() => {
    vi.stubEnv("GROUPROLES_BASE_URL", "http://127.0.0.1:9");
    vi.stubEnv("GROUPROLES_ACCESS_TOKEN", "t");
    return () => vi.unstubAllEnvs();
  });

  it("a Check without olds for a URN checked before is the replacement's; with olds it is another Check of the same", () =>
    inNewDeployment(async () => {
      const l = deploymentLedger();
      await checkRegistration({}, inputs("u:a"), checking());
      const first = l.registrations.stepOf({ urn: "u:a", dependsOn: new Map() }, "x");
      await checkRegistration({ name: "A" }, inputs("u:a"), checking());
      expect(first.replaced).toBe(false);
      const second = l.registrations.stepOf({ urn: "u:a", dependsOn: new Map() }, "x");
      await checkRegistration({}, inputs("u:a"), checking());
      expect([first.replaced, second.replaced]).toEqual([false, true]);
    }));

  it("a Check refused by its inputs settles its registration as failed and notes the failure", () =>
    inNewDeployment(async () => {
      const l = deploymentLedger();
      const result = await checkRegistration({}, inputs("u:a"), checking("too long"));
      expect(result.failures).toEqual([{ property: "name", reason: "too long" }]);
      const reg = l.registrations.stepOf({ urn: "u:a", dependsOn: new Map() }, "x");
      expect(reg.described).toBe("x"); // the Check's registration is settled: a step opens its own
      expect(l.run.failure).toBe("check of a Role");
      await checkRegistration({}, inputs("u:b"), checking());
      expect(l.run.failure).toBe("check of a Role"); // a passing Check notes nothing
    }));

  it("a Check under settings that cannot work refuses before the inputs' own checks or any declaration", () =>
    inNewDeployment(async () => {
      vi.unstubAllEnvs();
      vi.stubEnv("GROUPROLES_BASE_URL", "");
      const declareCreate = vi.fn(async () => []);
      const result = await checkRegistration({}, inputs("u:a"), { ...checking("too long"), declareCreate });
      expect(result.failures).toEqual([
        { property: "", reason: expect.stringContaining("the provider configuration cannot work") },
      ]);
      expect(declareCreate).not.toHaveBeenCalled();
      expect(deploymentLedger().run.failure).toBe("check of a Role");
    }));

  it("a Diff with no change, or one that replaces, settles its registration; a change leaves it to its step", () =>
    inNewDeployment(async () => {
      const l = deploymentLedger();
      const diffed = async (outcome: { changes: boolean; replaces: string[] }): Promise<Registration> => {
        await checkRegistration({ name: "A" }, inputs(`u:${l.registrations.any}`), checking());
        let reg: Registration | undefined;
        await diffRegistration(
          "diff of a Role",
          "Role a",
          async (r) => {
            reg = r;
            return outcome;
          },
          unchanged,
        );
        return reg as Registration;
      };
      const none = await diffed(unchanged);
      const replaced = await diffed({ changes: true, replaces: ["groupId"] });
      const updated = await diffed({ changes: true, replaces: [] });
      expect([none, replaced, updated].map((r) => [r.settled, r.succeeded])).toEqual([
        [true, true],
        [true, true],
        [false, false],
      ]);
      // The update's step runs for it, and settles it with its outcome.
      expect(await runStep(inputs(updated.structure.urn ?? ""), "Role a", async (r) => r)).toBe(updated);
      expect([updated.settled, updated.succeeded]).toEqual([true, true]);
    }));
});
