/**
 * A pipeline killed mid-`up` (issue 53): the `pulumi up` process group gets SIGKILL while the service
 * holds a create request of a `Role` and one of a `GroupRoles` (whose first array went already), so the
 * service makes roles Pulumi never hears of and records as pending creates. Then the recovery
 * docs/faults.md gives, step by step, through the real CLI (`npm run test:cli` only: the stand-in has no
 * lock, no pending operations and no `pulumi cancel`), for both SDKs; outcomes read from the service.
 */
import { describe, expect, it } from "vitest";
import { runPulumiArgs } from "../../tools/pulumi-cli/run";
import { engineKind, SDK_KINDS, specStackPerFile, type Stack } from "./harness";

const ROLES_POST = (g: number) => `/api/v0/groups/${g}/roles`;

describe.runIf(engineKind() === "cli")("a pulumi up killed while it creates roles", () => {
  describe.each(SDK_KINDS)("%s resources", (sdk) => {
    let s: Stack;
    specStackPerFile((stack) => (s = stack), sdk);

    /** The spec program: Role "renewals" (group 43) and a catalogue of A, B, C (group 42), one role per request. */
    const config = (take: { roleId?: number; adopt?: boolean } = {}) => ({
      "roles-spec:spec": JSON.stringify([
        {
          name: "renewals",
          args: { groupId: 43, name: "Renewals" },
          ...(take.roleId ? { opts: { import: `43/${take.roleId}` } } : {}),
        },
      ]),
      "roles-spec:groupRoles": JSON.stringify([
        {
          name: "catalogue",
          args: {
            groupId: 42,
            roles: { a: { name: "A" }, b: { name: "B" }, c: { name: "C" } },
            ...(take.adopt ? { adoptExisting: true } : {}),
          },
        },
      ]),
      ...(sdk === "package" ? { "roles-spec:sdk": "package" } : {}),
      "grouproles:maxBatchSize": "1",
    });
    const run = (args: string[], take?: Parameters<typeof config>[0], killWhen?: () => Promise<boolean>) =>
      runPulumiArgs(s.options("up", config(take)), args, killWhen);
    const held = async (g: number) => Object.fromEntries((await s.h.listRoles(g)).map((r) => [r.name, r.roleId]));

    it("recovers as docs/faults.md says: cancel, refresh --clear-pending-creates, take over, up", async () => {
      // The service holds every create request of the Role, and the catalogue's after its first, 20 s: a
      // window for both to be in flight at once however slow the machine (the kill waits for that).
      const held20s = { method: "POST", action: "latency", latencyMs: 20_000, times: 0 } as const;
      await s.h.fault({ ...held20s, path: ROLES_POST(43) });
      await s.h.fault({ ...held20s, path: ROLES_POST(42), skip: 1 });
      const bothInFlight = async () => {
        const { inFlight } = await s.h.requests();
        const posting = (g: number) => inFlight.some((r) => r.method === "POST" && r.path === ROLES_POST(g));
        return posting(43) && posting(42);
      };
      const killed = await run(["up", "--yes", "--skip-preview"], {}, bothInFlight);
      expect(killed.ok).toBe(false);
      expect(killed.stderr).toContain("killed with SIGKILL");
      // The service finishes what it was sent: the Role's role, and the catalogue's (its requests go side
      // by side, so which of A, B, C were sent before the kill varies: the recovery must not care).
      await s.h.idle("/api/v0/groups");
      await s.h.admin("DELETE", "/faults");
      const made43 = await held(43);
      const made42 = await held(42);
      expect(Object.keys(made43)).toEqual(["Renewals"]);
      expect(Object.keys(made42).length).toBeGreaterThan(0);

      // 1. The killed process left the stack locked: Pulumi says so and names `pulumi cancel`.
      const locked = await run(["refresh", "--yes", "--skip-preview"]);
      expect(locked.ok).toBe(false);
      expect(`${locked.stderr}${locked.stdout}`).toContain("the stack is currently locked");
      expect(`${locked.stderr}${locked.stdout}`).toContain("pulumi cancel");
      expect((await run(["cancel", "--yes"])).ok).toBe(true);
      // 2. Pulumi forgets the interrupted creates (the roles stay in the service).
      const cleared = await run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
      expect(cleared.ok, cleared.errors.join("\n") + cleared.stderr).toBe(true);
      // 3. The preview names each role the interrupted creates made, and the option that takes it over. A
      // refused Check ends Pulumi's preview, so each resource's refusal is read with the other one taken over.
      const roleRefused = await run(["preview"], { adopt: true });
      expect(roleRefused.ok).toBe(false);
      const refusal = roleRefused.errors.join("\n");
      expect(refusal).toContain(`already has a role named "Renewals" (id 43/${made43.Renewals})`);
      expect(refusal).toContain("The one an interrupted `pulumi up` of this stack made while creating this Role");
      expect(refusal).toContain(
        `with the resource option \`import: "43/${made43.Renewals}"\` on this Role takes it over`,
      );
      const catalogueRefused = await run(["preview"], { roleId: made43.Renewals });
      expect(catalogueRefused.ok).toBe(false);
      const catalogue = catalogueRefused.errors.join("\n");
      for (const [name, roleId] of Object.entries(made42))
        expect(catalogue).toContain(`"${name}" is held by roleId ${roleId}`);
      expect(catalogue).toContain("If a `pulumi up` of this stack was interrupted while creating this resource");
      expect(catalogue).toContain("one `pulumi up` with `adoptExisting: true` on this resource takes them over");
      // 4. Taken over for one `up`: no role made twice, the IDs kept, C created.
      await s.h.clearRequests();
      const taken = await run(["up", "--yes"], { roleId: made43.Renewals, adopt: true });
      expect(taken.ok, taken.errors.join("\n") + taken.stderr).toBe(true);
      expect(await held(43)).toEqual(made43);
      const after42 = await held(42);
      for (const [name, roleId] of Object.entries(made42)) expect(after42[name], name).toBe(roleId);
      expect(Object.keys(after42).sort()).toEqual(["A", "B", "C"]);
      // 5. The options removed again: a no-op preview, no pending operation left to warn about.
      const quiet = await run(["preview", "--expect-no-changes"]);
      expect(quiet.ok, quiet.errors.join("\n") + quiet.stderr).toBe(true);
      expect(quiet.stdout).not.toContain("pending operations");
    });
  });
});
