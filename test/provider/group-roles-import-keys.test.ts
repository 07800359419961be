/**
 * A GroupRoles read that knows only the group (an import): every role becomes an entry keyed by its
 * name in lower camel case, and names that give the same key get `2`, `3`... in role ID order, however
 * many share it (names with no letters of A-Z all start from `role`).
 */
import { expect, it } from "vitest";
import { ROUTES, emulatorPerFile, groupRoles, type GroupRolesHarness } from "./group-roles-harness";

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

it("keys by name, clashes numbered in role ID order, a numbered key a name already holds skipped", async () => {
  const names = ["日本", "Role2", "中文", "Role 3", "Support agents", "Support-Agents", "한국"];
  const made = await h.create(
    42,
    names.map((name) => ({ name })),
  );
  await h.clearRequests();
  const { props, inputs } = await groupRoles.read("42");
  const keys = ["role", "role2", "role3", "role32", "supportAgents", "supportAgents2", "role4"];
  expect(Object.fromEntries(Object.entries(props!.roles).map(([k, r]) => [k, r.roleId]))).toEqual(
    Object.fromEntries(keys.map((k, i) => [k, made[i]!.roleId])),
  );
  expect(Object.fromEntries(Object.entries(inputs!.roles).map(([k, e]) => [k, e.name]))).toEqual(
    Object.fromEntries(keys.map((k, i) => [k, names[i]])),
  );
  expect((await h.requests()).counts).toEqual({ [ROUTES.LIST]: 1, [ROUTES.DETAILS]: names.length });
});
