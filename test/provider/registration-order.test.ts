/**
 * What only the order of registrations could settle (provider/shared/registration-order.ts): each
 * refusal on a ledger as the engine's order leaves it, its wording, and that the order that works
 * passes. Every message names the resource that came first and the way that is sure.
 */
import { describe, expect, it } from "vitest";
import { DeploymentLedger } from "../../provider/shared/deployment-ledger";
import {
  allRefusals,
  lateDeclare,
  lateFreeing,
  lateKeep,
  lateTakeover,
  releaseRefusals,
} from "../../provider/shared/registration-order";
import type { Structure } from "../../provider/shared/structure";

const GIVER = 'the GroupRoles of group 42 declaring "Keep"';

/** The structure the SDK hands a resource: its URN and the URNs of its `dependsOn`. */
const structure = (urn: string, dependsOn: string[] = []): Structure => ({
  urn,
  dependsOn: new Map(dependsOn.map((u) => [u, { names: [], roleIds: [] }])),
});

describe("lateTakeover and unorderedTakeover: a role one resource deletes in its update and another takes over", () => {
  it("refused in the receiver when the giver was checked first, with the dependsOn that orders them and the two-step way", () => {
    const l = new DeploymentLedger();
    const giver = l.registrations.register(GIVER, structure("u:giver"));
    l.names.release(42, 7, "Mover", giver, false);
    const receiver = l.registrations.register("receiver", structure("u:receiver"));
    const err = lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "group 42: roles.m" }, { name: "Mover" });
    expect(err?.code).toBe("ERR_NAME_TAKEN");
    expect(err?.message).toBe(
      `group 42: roles.m: role "Mover" (roleId 7) of group 42 is removed from ${GIVER}, which deletes it in its own ` +
        "update, and nothing orders that update after this resource takes it over. To move the role (keeping its " +
        `ID and users), give ${GIVER} the resource option \`dependsOn\` on this resource (and remove this ` +
        "resource's own `dependsOn` on it, if it has one; the order of the code does not decide). Or move it in two " +
        "steps: mark its entry `retain: true` and run `pulumi up`, then move it (the role is then adopted by name or `import`).",
    );
    // By ID (an import) the same.
    expect(
      lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "x" }, { name: "Other", roleId: 7 }),
    ).toBeDefined();
  });

  it("refused in the giver when the receiver was checked first but is not in the giver's dependsOn", () => {
    const l = new DeploymentLedger();
    const receiver = l.registrations.register("the receiver", structure("u:receiver"));
    l.wants.addName(42, "Mover", receiver, true);
    const giver = l.registrations.register(GIVER, structure("u:giver"));
    const release = l.names.release(42, 7, "Mover", giver, false);
    const err = releaseRefusals(
      { ledger: l, groupId: 42, release: release, reg: giver, what: "group 42: roles.m" },
      "ordered",
    )[0];
    expect(err?.code).toBe("ERR_NAME_TAKEN");
    expect(err?.message).toContain("give this resource the resource option `dependsOn` on the receiver");
    // Checked in this order or the other, the move is refused: the preview and the `up` agree.
    expect(lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "x" }, { name: "Mover" })).toBeDefined();
  });

  it("passes when the receiver is in the giver's dependsOn (handed over), the delete comes after every step, or nobody lets it go", () => {
    const l = new DeploymentLedger();
    const receiver = l.registrations.register("receiver", structure("u:receiver"));
    l.wants.addName(42, "Mover", receiver, true);
    const giver = l.registrations.register(GIVER, structure("u:giver", ["u:receiver"]));
    const release = l.names.release(42, 7, "Mover", giver, false);
    expect(release.handedTo).toBe(receiver);
    expect(
      releaseRefusals({ ledger: l, groupId: 42, release: release, reg: giver, what: "x" }, "ordered")[0],
    ).toBeUndefined();
    expect(lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "x" }, { name: "Mover" })).toBeUndefined();
    const replaced = l.registrations.register("replaced");
    const deferred = l.names.release(42, 8, "Moved", replaced, true);
    expect(
      lateTakeover({ ledger: l, groupId: 42, reg: l.registrations.register("later"), what: "x" }, { name: "Moved" }),
    ).toBeUndefined();
    expect(
      releaseRefusals({ ledger: l, groupId: 42, release: deferred, reg: replaced, what: "x" }, "ordered")[0],
    ).toBeUndefined();
    expect(
      lateTakeover({ ledger: l, groupId: 42, reg: l.registrations.register("any"), what: "x" }, { name: "Free" }),
    ).toBeUndefined();
  });
});

describe("lateDeclare: declaring a role an exclusive catalogue registered before cannot see", () => {
  // Found by the simulation (docs/simulation.md, history 113): a Role created beside an exclusive
  // catalogue registered first passed its preview and up, and from then on every preview refused it.
  it("refused in the group of an exclusive catalogue registered before, naming the dependsOn", () => {
    const l = new DeploymentLedger();
    const exclusive = l.registrations.register('the GroupRoles of group 42 declaring "C"');
    expect(l.exclusives.claim(42, "c", 'the one declaring "C"', exclusive)).toBeUndefined();
    const role = l.registrations.register("role");
    expect(
      lateDeclare({ ledger: l, groupId: 42, reg: role, what: 'creating role "New" in group 42' }, "New")?.message,
    ).toBe(
      'creating role "New" in group 42: the GroupRoles of group 42 declaring "C" has `exclusive: true` and ' +
        'registers before this resource, so it cannot see that this resource declares role "New": the next ' +
        "`pulumi up` would remove that role as one the program does not declare. Give the GroupRoles of group 42 " +
        'declaring "C" the resource option `dependsOn` on this resource, so that it registers after it and sees the ' +
        "role declared; or declare the role in that catalogue.",
    );
    expect(lateDeclare({ ledger: l, groupId: 42, reg: exclusive, what: "x" }, "New")).toBeUndefined(); // its own entries
    expect(lateDeclare({ ledger: l, groupId: 43, reg: role, what: "x" }, "New")).toBeUndefined(); // another group
  });

  it("passes when the catalogue registers after the resource (it then sees the declaration)", () => {
    const l = new DeploymentLedger();
    const role = l.registrations.register("role");
    const exclusive = l.registrations.register("catalogue");
    l.exclusives.claim(42, "c", "catalogue", exclusive);
    expect(lateDeclare({ ledger: l, groupId: 42, reg: role, what: "x" }, "New")).toBeUndefined();
  });
});

describe("lateKeep: keeping a role an earlier registration deletes (an exclusive catalogue's removal)", () => {
  it("refused, naming the dependsOn that lets the catalogue see it kept", () => {
    const l = new DeploymentLedger();
    const exclusive = l.registrations.register('the GroupRoles of group 42 declaring "C"');
    l.names.release(42, 5, "Hand", exclusive, false);
    const role = l.registrations.register("role");
    expect(
      lateKeep(
        { ledger: l, groupId: 42, reg: role, what: 'updating role "Hand" (id 42/5)' },
        { name: "Hand", roleId: 5 },
      )?.message,
    ).toBe(
      'updating role "Hand" (id 42/5): this resource keeps role "Hand" (roleId 5), which the GroupRoles of group 42 ' +
        'declaring "C" removes in this change (it registers before this resource, sees no resource declaring the ' +
        'role, and deletes it in its own update). Give the GroupRoles of group 42 declaring "C" the resource option ' +
        "`dependsOn` on this resource (and remove this resource's own `dependsOn` on it, if it has one; the order " +
        "of the code does not decide), so that it registers after it and leaves the role alone; or declare the " +
        "role in one resource only.",
    );
    expect(
      lateKeep({ ledger: l, groupId: 42, reg: exclusive, what: "x" }, { name: "Hand", roleId: 5 }),
    ).toBeUndefined(); // its own
    expect(lateKeep({ ledger: l, groupId: 42, reg: role, what: "x" }, { name: "Other", roleId: 6 })).toBeUndefined();
  });
});

describe("lateFreeing: freeing a name an earlier registration gives to another role", () => {
  it("a chain: the taker comes first; dependsOn on this resource makes it come after", () => {
    const l = new DeploymentLedger();
    const taker = l.registrations.register('the Role "A" (id 42/1)');
    l.declarations.declare(42, 1, { currentName: "A", plannedName: "B", reg: taker });
    const freer = l.registrations.register("freer");
    const err = lateFreeing(
      { ledger: l, groupId: 42, reg: freer, what: 'updating role "B" (id 42/2)' },
      { name: "B", roleId: 2, plannedName: "C" },
    );
    expect(err?.message).toBe(
      'updating role "B" (id 42/2): this resource renames role "B" (roleId 2) to "C", and the Role "A" (id 42/1) ' +
        'takes the name "B" for another role in this change; Pulumi registers it before this resource, so its ' +
        'write may run before this one has freed "B". Give the Role "A" (id 42/1) the resource option `dependsOn` ' +
        "on this resource (and remove this resource's own `dependsOn` on it, if it has one; the order of the code " +
        "does not decide), so that it registers after it and finds the name free; or apply the change in two steps.",
    );
  });

  it("a swap: no order of two resources works; two steps, or one GroupRoles", () => {
    const l = new DeploymentLedger();
    const a = l.registrations.register("A");
    l.declarations.declare(42, 1, { currentName: "X", plannedName: "Y", reg: a });
    const b = l.registrations.register("B");
    const err = lateFreeing({ ledger: l, groupId: 42, reg: b, what: "w" }, { name: "Y", roleId: 2, plannedName: "X" });
    expect(err?.message).toContain("The two swap names, which no order of two resources can apply in one `pulumi up`");
    expect(err?.message).toContain("declare both roles in one GroupRoles");
  });

  it("a delete of a role whose name an earlier create gives a new role; nothing when the taker comes later", () => {
    const l = new DeploymentLedger();
    const creator = l.registrations.register('the Role "N" of group 42');
    l.wants.addName(42, "N", creator, false);
    const giver = l.registrations.register("giver");
    expect(
      lateFreeing({ ledger: l, groupId: 42, reg: giver, what: "roles.n" }, { name: "N", roleId: 3 })?.message,
    ).toContain(
      'this resource deletes role "N" (roleId 3), and the Role "N" of group 42 takes the name "N" for a new role',
    );
    const l2 = new DeploymentLedger();
    const first = l2.registrations.register("first");
    expect(lateFreeing({ ledger: l2, groupId: 42, reg: first, what: "x" }, { name: "N", roleId: 3 })).toBeUndefined();
    l2.wants.addName(42, "N", l2.registrations.register("later"), false);
    // A later taker waits for this step, or is refused in its own Check: not this resource's refusal.
    expect(lateFreeing({ ledger: l2, groupId: 42, reg: first, what: "x" }, { name: "N", roleId: 3 })).toBeUndefined();
  });
});

describe("allRefusals: a registration refused for several roles names every one", () => {
  it("two givers registered before one receiver: both named, numbered; one alone is itself", () => {
    const l = new DeploymentLedger();
    const g1 = l.registrations.register('the GroupRoles of group 42 declaring "X"');
    l.names.release(42, 1, "A", g1, false);
    const g2 = l.registrations.register('the GroupRoles of group 42 declaring "Y"');
    l.names.release(42, 2, "B", g2, false);
    const receiver = l.registrations.register("receiver");
    const a = lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "roles.a" }, { name: "A" });
    const b = lateTakeover({ ledger: l, groupId: 42, reg: receiver, what: "roles.b" }, { name: "B" });
    const all = allRefusals([a, undefined, b])!.message;
    expect(all.split("\n")[0]).toBe("2 roles cannot be applied in this registration order:");
    expect(all).toContain(
      '1. roles.a: role "A" (roleId 1) of group 42 is removed from the GroupRoles of group 42 declaring "X"',
    );
    expect(all).toContain(
      '2. roles.b: role "B" (roleId 2) of group 42 is removed from the GroupRoles of group 42 declaring "Y"',
    );
    expect(allRefusals([undefined, a])).toBe(a);
    expect(allRefusals([])).toBeUndefined();
  });
});
