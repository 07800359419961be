/**
 * A destroy that deletes some roles and then fails says so, through the engine stand-in against the
 * emulator: which roles this destroy deleted (by resource), that the failed resource stays, and what to
 * do next for a destroy (fix it, run `pulumi destroy` again), never "nothing was changed" nor advice for
 * an `up`. The order of the deletes is made certain with `dependsOn` (a destroy deletes dependents
 * first, one wave at a time: deployment_executor.go `performPostSteps`); the faults come from the
 * emulator (`POST /_emulator/faults`). Outcomes are read from the service (its roles) and the state.
 */
import { describe, expect } from "vitest";
import {
  isGroupRolesType,
  runMixed,
  kindTests,
  SDK_KINDS,
  specStackPerFile,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

let s: Stack;
const DELETE_ROLES = "/api/v0/groups/42/delete-roles";

describe.each(SDK_KINDS)("%s resources: a destroy that fails half-way", (sdk) => {
  specStackPerFile((stack) => (s = stack), sdk);
  const { once, both } = kindTests(sdk);

  const names = async () => (await s.h.listRoles(42)).map((r) => r.name).sort();
  const left = (r: { resources: Array<{ type: string; urn: string }> }) =>
    r.resources.filter((x) => isGroupRolesType(x.type)).map((x) => x.urn.split("::").pop());
  /** The catalogue x {a: A, b: B} and the Role y "Y"; `catalogueFirst`: x is deleted before y. */
  const stack = (catalogueFirst: boolean): [GroupRolesSpec[], RoleSpec[], Record<string, string>] =>
    catalogueFirst
      ? // x depends on y: a destroy deletes x (its dependent) first.
        [
          [
            {
              name: "x",
              args: { groupId: 42, roles: { a: { name: "A" }, b: { name: "B" } } },
              opts: { dependsOn: ["y"] },
            },
          ],
          [{ name: "y", args: { groupId: 42, name: "Y" } }],
          {},
        ]
      : // y depends on x (declared first): a destroy deletes y first.
        [
          [{ name: "x", args: { groupId: 42, roles: { a: { name: "A" }, b: { name: "B" } } } }],
          [{ name: "y", args: { groupId: 42, name: "Y" }, opts: { dependsOn: ["x"] } }],
          { "roles-spec:order": "catalogues-first" },
        ];
  const upFirst = async (catalogueFirst: boolean, config: Record<string, string> = {}) => {
    const [cats, roles, order] = stack(catalogueFirst);
    const up = await runMixed(s, "up", cats, roles, { ...order, ...config });
    expect(up.ok, up.errors.join("\n")).toBe(true);
    const y = (await s.h.listRoles(42)).find((r) => r.name === "Y")!;
    // The destroy runs the program (`--run-program`: docs/delete-hooks.md), whose config configures the provider.
    return { y, destroy: () => runMixed(s, "destroy", cats, roles, { ...order, ...config }) };
  };

  once(
    "a Role's delete fails after the catalogue's roles went: the message says what this destroy deleted",
    async () => {
      const { y, destroy } = await upFirst(true);
      // The catalogue's one delete-roles request passes; the Role's fails, every attempt.
      await s.h.fault({ method: "POST", path: DELETE_ROLES, action: "status", status: 500, skip: 1, times: 0 });
      const r = await destroy();
      expect(r.ok).toBe(false);
      const message = r.errors.join("\n");
      expect(message).toContain(`Role::y: deleting role "Y" (id 42/${y.roleId}): POST ${DELETE_ROLES}`);
      expect(message).toContain(
        'This destroy deleted 2 roles so far: "A" and "B" (the GroupRoles of group 42 declaring "A", "B"). ' +
          "The resource whose delete failed stays in the stack. Fix what the error says, then run the same `pulumi destroy` " +
          "again (with `--run-program` if you gave it): it deletes only what is left",
      );
      expect(message).not.toContain("nothing was changed");
      expect(await names()).toEqual(["Y"]);
      expect(left(r)).toEqual(["y"]);
      // The advice: once the service answers, `pulumi destroy` again finishes it.
      await s.h.admin("DELETE", "/faults");
      const again = await destroy();
      expect(again.ok, again.errors.join("\n")).toBe(true);
      expect(await names()).toEqual([]);
      expect(left(again)).toEqual([]);
    },
  );

  both(
    "an in-use Role: its hook refuses with a destroy's ways out (not `declare it again`), and the one it names works",
    async () => {
      const { y, destroy } = await upFirst(true);
      await s.h.setUsers(42, y.roleId, 2);
      const r = await destroy();
      expect(r.ok).toBe(false);
      const message = r.errors.join("\n");
      // The before-delete hook (sdk/delete-guard) refuses before the provider is called; the program still
      // declares the Role, so it names what works for a destroy as well as for a replacement.
      expect(message).toContain(
        `Role 'y' is being deleted while this program still declares it, which would delete a role that users hold: ` +
          `role "Y" (id 42/${y.roleId}), held by 2 users.`,
      );
      const urn = r.resources.find((x) => x.urn.endsWith("::y"))!.urn;
      expect(message).toContain(
        `make Pulumi forget the resource now, keeping its roles: \`pulumi state delete '${urn}'\``,
      );
      expect(message).toContain(
        "run `pulumi up` without the replacement first, so that the replacement or `pulumi destroy --run-program` leaves the role",
      );
      expect(message).not.toContain("declare it again");
      expect(await names()).toEqual(["Y"]);
      // The advice as given: the option in the program, `pulumi up` (the engine and the hook read it from
      // the state), then the destroy again.
      const [cats, roles, order] = stack(true);
      const retained = roles.map((x) => ({ ...x, opts: { ...x.opts, retainOnDelete: true } }));
      const sameDestroy = await runMixed(s, "destroy", cats, retained, order);
      expect(sameDestroy.ok).toBe(false);
      const recorded = await runMixed(s, "up", cats, retained, order);
      expect(recorded.ok, recorded.errors.join("\n")).toBe(true);
      const again = await runMixed(s, "destroy", cats, retained, order);
      expect(again.ok, again.errors.join("\n")).toBe(true);
      expect(left(again)).toEqual([]);
      expect((await s.h.listRoles(42)).map((x) => [x.name, x.userCount])).toEqual([["Y", 2]]);
    },
  );

  once(
    "a catalogue's delete fails half-way after a Role went: both named, the catalogue's first part too",
    async () => {
      // One role per request, so that the catalogue's second request can fail after its first.
      const { y, destroy } = await upFirst(false, { "grouproles:maxBatchSize": "1" });
      await s.h.fault({ method: "POST", path: DELETE_ROLES, action: "status", status: 500, skip: 2, times: 0 });
      const r = await destroy();
      expect(r.ok).toBe(false);
      const message = r.errors.join("\n");
      expect(message).toContain(
        "GroupRoles::x: deleting the roles of group 42: deleted roles.a, then deleting roles.b: ",
      );
      expect(message).toContain(
        `This destroy deleted 2 roles so far: "Y" (the Role of group 42, id 42/${y.roleId}); "A" (the GroupRoles of ` +
          'group 42 declaring "A", "B").',
      );
      expect(await names()).toEqual(["B"]);
      expect(left(r)).toEqual(["x"]);
      await s.h.admin("DELETE", "/faults");
      expect((await destroy()).ok).toBe(true);
      expect(await names()).toEqual([]);
    },
  );
});
