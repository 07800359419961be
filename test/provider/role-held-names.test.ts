/**
 * A new Role whose name a role of the group holds (provider/role/held-names.ts), at the provider level,
 * called in the engine's order (a registration's Check, then its Diff); each test is one deployment
 * (a fresh ledger) starting from roles an earlier one made. Refused in the create's Check unless a
 * registration before it renames the holder away (the create then waits for that step); the message
 * names the holder and, when a resource of the program declares it, says so. Outcomes: the failures,
 * the service's roles and its request log.
 */
import { describe, expect, it } from "vitest";
import * as groupRoles from "../../provider/group-roles";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { inputs, stateOf } from "./group-roles-harness";
import { provider, providerSuite } from "./provider-harness";

const h = providerSuite();
const make = (name: string) => provider.create({ groupId: 42, name });
const reasons = async (news: Record<string, unknown>) =>
  (await provider.check({}, news)).failures.map((f) => `${f.property}: ${f.reason}`);

describe("a create of a name a role of the group holds", () => {
  it("nothing frees it (e.g. a Role renamed in code): refused, naming the holder, aliases, import; one list, no write", async () => {
    const held = await make("Y");
    resetDeploymentLedger();
    await h.clearRequests();
    const [reason] = await reasons({ groupId: 42, name: "Y" });
    expect(reason).toMatch(
      /^name: creating role "Y" in group 42: group 42 already has a role named "Y" \(id 42\/\d+\)/,
    );
    expect(reason).toContain(`(id ${held.id})`);
    expect(reason).toContain('`[{ name: "<old resource name>" }]` for a rename');
    expect(reason).toContain("`[{ parent: pulumi.rootStackResource }]` for a resource moved from the top level");
    expect(reason).toContain(`\`import: "${held.id}"\``);
    expect((await h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
    // Another group, or another name, is free; the list is taken once per group and deployment.
    expect(await reasons({ groupId: 42, name: "Z" })).toEqual([]);
    expect(await reasons({ groupId: 43, name: "Y" })).toEqual([]);
    expect((await h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 2 });
  });

  it("a Role in its dependsOn renames the holder away: no failure; without dependsOn, refused naming that Role", async () => {
    const held = await make("Y");
    resetDeploymentLedger();
    const holderUrn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/grouproles:Role::holder";
    const news = { groupId: 42, name: "Y2", __structure: { urn: holderUrn } };
    await provider.check(held.outs, news);
    await provider.diff(held.id, held.outs, news);
    expect(await reasons({ groupId: 42, name: "Other" })).toEqual([]); // any registration between
    const [unordered] = await reasons({ groupId: 42, name: "Y" });
    // Named as the program names it (the URN's last part), beside the role it holds.
    expect(unordered).toContain(`The Role "holder" (role "Y", id ${held.id}) frees the name in this change`);
    expect(unordered).toContain(
      `give this Role the resource option \`dependsOn\` on the Role "holder" (role "Y", id ${held.id})`,
    );
    const ordered = { groupId: 42, name: "Y", __structure: { urn: "u:new", dependsOn: [{ urn: holderUrn }] } };
    expect(await reasons(ordered)).toEqual([]);
    await provider.update(held.id, held.outs, news); // its step ends before the dependent registers
    await provider.create(ordered);
    expect((await h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Y", "Y2"]);
  });

  it("a catalogue registered before it keeps the holder: refused as declared twice, never advising an import", async () => {
    const { outs } = await groupRoles.create(inputs({ a: { name: "A" } }));
    resetDeploymentLedger();
    const kept = inputs({ a: { name: "A" } });
    await groupRoles.check(stateOf(outs), kept);
    await groupRoles.diff("42", stateOf(outs), kept);
    const [reason] = await reasons({ groupId: 42, name: "A" });
    // Named as the ledger knows it (issue 53: the holder in the same program was never named).
    expect(reason).toContain('The GroupRoles of group 42 declaring "A" declares that role under that name');
    expect(reason).not.toContain("aliases");
  });

  it("the engine's Check of a replacement right after the resource's own Diff: the holder is the role replaced", async () => {
    const held = await make("Y");
    resetDeploymentLedger();
    // `replaceOnChanges: ["description"]`: Check, Diff (a change), then Check again without olds, for one URN.
    const news = { groupId: 42, name: "Y", description: "now", __structure: { urn: "u:held" } };
    await provider.check(held.outs, news);
    // The name stays: the Diff asks the engine to delete the old role first, should it replace.
    expect(await provider.diff(held.id, held.outs, news)).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: true,
    });
    expect(await reasons(news)).toEqual([]);
    // The program overriding that (`deleteBeforeReplace: false`): the new role cannot be made while the old holds the name.
    resetDeploymentLedger();
    const createFirst = { ...news, __structure: { urn: "u:held", deleteBeforeReplace: false } };
    await provider.check(held.outs, createFirst);
    await provider.diff(held.id, held.outs, createFirst);
    expect((await reasons(createFirst))[0]).toContain('already has a role named "Y"');
  });

  it("the import option, or a create replacing an unconfirmed one, takes the holder over: no failure", async () => {
    const held = await make("Y");
    resetDeploymentLedger();
    expect(await reasons({ groupId: 42, name: "Y", importId: held.id })).toEqual([]);
    resetDeploymentLedger();
    // An earlier create never confirmed (ID 42/unconfirmed): its Diff is a replacement whose create
    // adopts the role that create made (provider/role/adoption.ts findUnconfirmed).
    const record = { groupId: 42, name: "Y", roleId: 0, inUse: false, userCount: 0 };
    await provider.check(record, { groupId: 42, name: "Y" });
    await provider.diff("42/unconfirmed", record, { groupId: 42, name: "Y" });
    expect(await reasons({ groupId: 42, name: "Y" })).toEqual([]);
  });
});
