/**
 * What the refusals and partial-failure errors of GroupRoles tell a user: the group, how many roles,
 * every role by key, name and ID (as the service holds them), who holds a declared name, and the ways
 * out. Refusals are reached through the provider against the emulator; messages that need several
 * resources of one deployment to fail in a given order (a move refused, a name not freed in time) are
 * built directly from what the provider hands them.
 */
import { describe, expect, it, vi } from "vitest";
import { ConflictError } from "../../client/status-errors";
import { heldRole, removedInUse } from "../../provider/group-roles/errors";
import { namesTaken, someLines, someNames, type NameConflict } from "../../provider/group-roles/name-errors";
import { DeploymentLedger, deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";
import {
  catalogue,
  createdIn,
  emulatorPerFile,
  groupRoles,
  inputs,
  oneDeploymentGroupRoles,
  stateOf,
  type GroupRolesHarness,
} from "./group-roles-harness";
import { rejection } from "../support/rejection";

// The engine's output, which only a plugin the engine started has: recorded here instead.
const logged = vi.hoisted(() => [] as string[]);
vi.mock("../../provider/shared/engine-log", () => ({
  engineLog: async (_severity: string, message: string) => void logged.push(message),
}));

let h: GroupRolesHarness;
emulatorPerFile((harness) => (h = harness));

/** Creates roles by hand and gives each its user count: the roles, as the service lists them. */
async function byHand(users: Record<string, number>): Promise<Record<string, number>> {
  await h.create(
    42,
    Object.keys(users).map((name) => ({ name })),
  );
  const ids = await h.held(42);
  for (const [name, n] of Object.entries(users)) if (n) await h.setUsers(42, ids[name]!, n);
  await h.clearRequests();
  return ids;
}

async function heldCatalogue(users: Record<string, number>, extra: Record<string, unknown> = {}) {
  const { outs } = await createdIn(h, { a: { name: "Agents" }, b: { name: "Billing" }, c: { name: "Care" } }, extra);
  const keys = { Agents: "a", Billing: "b", Care: "c" } as const;
  for (const [name, n] of Object.entries(users))
    await h.setUsers(42, outs.roles[keys[name as keyof typeof keys]]!.roleId, n);
  await h.clearRequests();
  return outs;
}

describe("in-use refusals: the group, the count, each role as the service holds it, the ways out", () => {
  it("an update removing roles users hold", async () => {
    const outs = await heldCatalogue({ Agents: 1, Billing: 3 });
    const ids = await h.held(42);
    const two = await rejection(groupRoles.update("42", stateOf(outs), inputs({ c: { name: "Care" } })));
    expect(two.code).toBe("ERR_ROLE_IN_USE");
    expect(two.message).toContain(
      "group 42: 2 roles removed from `roles` are in use and cannot be deleted; nothing was changed:\n" +
        `  roles.a: "Agents" (roleId ${ids.Agents}) is held by 1 user\n` +
        `  roles.b: "Billing" (roleId ${ids.Billing}) is held by 3 users\n`,
    );
    for (const wayOut of ["keep the entry in `roles`", "unassign its users in the service", "`retain: true`"])
      expect(two.message).toContain(wayOut);
    const one = await rejection(
      groupRoles.update("42", stateOf(outs), inputs({ b: { name: "Billing" }, c: { name: "Care" } })),
    );
    expect(one.message).toContain("group 42: 1 role removed from `roles` is in use and cannot be deleted");
    expect(await h.held(42)).toEqual(ids);
  });

  it("a destroy of roles users hold", async () => {
    const outs = await heldCatalogue({ Agents: 2, Care: 5 });
    const ids = await h.held(42);
    const two = await rejection(groupRoles.delete("42", stateOf(outs)));
    expect(two.code).toBe("ERR_ROLE_IN_USE");
    expect(two.message).toContain(
      "deleting the roles of group 42: 2 roles are in use and cannot be deleted; none of its roles was deleted:\n" +
        `  roles.a: "Agents" (roleId ${ids.Agents}) is held by 2 users\n` +
        `  roles.c: "Care" (roleId ${ids.Care}) is held by 5 users\n`,
    );
    for (const wayOut of [
      "unassign their users in the service first",
      "give the resource the option `retainOnDelete: true` and run `pulumi destroy --run-program` again",
      "mark their entries `retain: true`, run `pulumi up`, then destroy.",
    ])
      expect(two.message).toContain(wayOut);
    await h.setUsers(42, ids.Care!, 0);
    const one = await rejection(groupRoles.delete("42", stateOf(outs)));
    expect(one.message).toContain("deleting the roles of group 42: 1 role is in use and cannot be deleted");
    expect(await h.held(42)).toEqual(ids);
  });

  it("the same delete in an up whose program dropped the catalogue: the way out is an up, not a destroy", async () => {
    const outs = await heldCatalogue({ Agents: 2 });
    const ids = await h.held(42);
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck(); // the program ran: this delete is an up's
      const err = await rejection(oneDeploymentGroupRoles.delete("42", stateOf(outs)));
      expect(err.code).toBe("ERR_ROLE_IN_USE");
      expect(err.message).toContain(
        "put the resource back in the program with those entries marked `retain: true` (or with the option " +
          "`retainOnDelete: true`), run `pulumi up`, then remove it.",
      );
      expect(err.message).not.toContain("destroy");
    });
    expect(await h.held(42)).toEqual(ids);
  });

  it("a groupId change (a replacement) of roles users hold, in the preview", async () => {
    const outs = await heldCatalogue({ Agents: 1, Billing: 4 });
    const ids = await h.held(42);
    const moved = inputs({ a: { name: "Agents" }, b: { name: "Billing" }, c: { name: "Care" } }, { groupId: 43 });
    const two = await rejection(groupRoles.diff("42", stateOf(outs), moved));
    expect(two.code).toBe("ERR_ROLE_IN_USE");
    expect(two.message).toContain(
      "moving the roles of group 42 to group 43 would delete them from group 42, and 2 roles are in use; " +
        "nothing was changed:\n" +
        `  roles.a: "Agents" (roleId ${ids.Agents}) is held by 1 user\n` +
        `  roles.b: "Billing" (roleId ${ids.Billing}) is held by 4 users\n`,
    );
    for (const wayOut of [
      "unassign their users in group 42 first",
      "keep those roles in group 42: mark their entries `retain: true`",
      "run `pulumi up`, then change groupId.",
    ])
      expect(two.message).toContain(wayOut);
    await h.setUsers(42, ids.Agents!, 0);
    const one = await rejection(groupRoles.diff("42", stateOf(outs), moved));
    expect(one.message).toContain("and 1 role is in use; nothing was changed:");
  });

  it("an exclusive catalogue whose group has roles users hold that the program does not declare", async () => {
    const outs = await heldCatalogue({}, { exclusive: true });
    const hand = await byHand({ Hand: 4, Helper: 1, Idle: 0 });
    const two = await rejection(groupRoles.diff("42", stateOf(outs), inputs(outs.roles, { exclusive: true })));
    expect(two.code).toBe("ERR_ROLE_IN_USE");
    expect(two.message).toContain(
      "group 42: this GroupRoles has `exclusive: true`, so it removes the roles of the group the program does not " +
        "declare, and 2 roles of them are in use; nothing was changed:\n" +
        `  "Hand" (roleId ${hand.Hand}) is held by 4 users, and no resource of this program declares it\n` +
        `  "Helper" (roleId ${hand.Helper}) is held by 1 user, and no resource of this program declares it\n`,
    );
    for (const wayOut of [
      "declare it (an entry with its name",
      "`adoptExisting: true` takes it over",
      "unassign its users in the service",
      "leave `exclusive` off",
    ])
      expect(two.message).toContain(wayOut);
    await h.setUsers(42, hand.Helper!, 0);
    const one = await rejection(groupRoles.update("42", stateOf(outs), inputs(outs.roles, { exclusive: true })));
    expect(one.message).toContain("and 1 role of them is in use; nothing was changed:");
    expect(await h.held(42)).toEqual(expect.objectContaining(hand));
  });

  it("a role the service lists without a user count is held by users, not by 'undefined users'", () => {
    const err = removedInUse(42, [heldRole("a", { roleId: 7, name: "Agents", inUse: true })]);
    expect(err.message).toContain('  roles.a: "Agents" (roleId 7) is held by users\n');
  });
});

describe("an exclusive catalogue reports the roles it removes", () => {
  it("would be removed in the preview, were (or was) removed at up: names and IDs", async () => {
    const outs = await heldCatalogue({}, { exclusive: true });
    const hand = await byHand({ "Hand 1": 0, "Hand 2": 0 });
    logged.length = 0;
    await groupRoles.diff("42", stateOf(outs), inputs(outs.roles, { exclusive: true }));
    expect(logged).toEqual([
      "GroupRoles of group 42 (exclusive): 2 roles the program does not declare would be removed:\n" +
        `  "Hand 1" (roleId ${hand["Hand 1"]}, no users)\n` +
        `  "Hand 2" (roleId ${hand["Hand 2"]}, no users)`,
    ]);
    logged.length = 0;
    await groupRoles.update("42", stateOf(outs), inputs(outs.roles, { exclusive: true }));
    expect(logged).toEqual([
      expect.stringMatching(
        /^GroupRoles of group 42 \(exclusive\): 2 roles the program does not declare were removed:\n/,
      ),
    ]);
    await byHand({ "Hand 3": 0 });
    logged.length = 0;
    await groupRoles.update("42", stateOf(outs), inputs(outs.roles, { exclusive: true }));
    expect(logged).toEqual([
      expect.stringMatching(
        /^GroupRoles of group 42 \(exclusive\): 1 role the program does not declare was removed:\n/,
      ),
    ]);
    expect(Object.keys(await h.held(42)).sort()).toEqual(["Agents", "Billing", "Care"]);
  });

  it("two exclusive catalogues of one group: the second names the first and how to resolve it", async () => {
    const one = await createdIn(h, { a: { name: "Agents" } });
    const two = await createdIn(h, { b: { name: "Billing" } });
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck(); // a preview's Diffs: the program runs (a refresh's refuse nothing)
      await oneDeploymentGroupRoles.diff(
        "42",
        stateOf(one.outs),
        inputs({ a: { name: "Agents" } }, { exclusive: true }),
      );
      const err = await rejection(
        oneDeploymentGroupRoles.diff("42", stateOf(two.outs), inputs({ b: { name: "Billing" } }, { exclusive: true })),
      );
      expect(err.message).toContain(
        'group 42: another GroupRoles of this program (the one declaring "Agents") also has `exclusive: true`',
      );
      expect(err.message).toContain(
        "each would remove the roles the other declares. Keep one exclusive catalogue per group: merge them, or " +
          "leave `exclusive` off on one.",
      );
    });
  });
});

describe("names held by roles the resource does not manage", () => {
  it("a create meeting a name made by hand: the whole message, as a user reads it", async () => {
    const hand = await byHand({ Support: 0 });
    const err = await rejection(groupRoles.create(inputs({ s: { name: "Support" }, t: { name: "Triage" } })));
    expect(err.code).toBe("ERR_NAME_TAKEN");
    expect(err.status).toBeUndefined(); // refused before any request: no reply to have a status
    expect(err.message).toBe(
      "group 42 already has a role with a name this resource declares; nothing was changed:\n" +
        `  roles.s: "Support" is held by roleId ${hand.Support}, which this resource does not manage\n` +
        "To take a role that holds the name of an added entry over and converge it to the program, set " +
        "`adoptExisting: true` on this resource: that is also how an entry moves here from another GroupRoles or " +
        "from a Role of this program in one change (the role keeps its ID and is not deleted; the resource that " +
        "lets it go needs the resource option `dependsOn` on this one). " +
        "If a Role or GroupRoles of this program renames or removes that role in this same change, it had not " +
        "registered yet: give this resource `dependsOn` on it, so that this one registers after its change and finds " +
        "the name free. If a `pulumi up` of this stack was interrupted while creating this resource (killed or " +
        "cancelled: Pulumi listed a pending create for it), those are the roles it made: run `pulumi refresh " +
        "--clear-pending-creates`, then one `pulumi up` with `adoptExisting: true` on this resource takes them over " +
        "(docs/faults.md). Or choose other names, or rename or delete those roles in the service first.",
    );
    expect(await h.held(42)).toEqual(hand);
  });

  it("a create's Check meeting a held name: the entry's path (not the whole map), and what `--replace` of this resource needs", async () => {
    const hand = await byHand({ Support: 0 });
    await inNewDeployment(async () => {
      const { failures } = await oneDeploymentGroupRoles.check(
        {},
        inputs({ s: { name: "Support" }, t: { name: "Triage" } }),
      );
      expect(failures.map((f) => f.property)).toEqual(["roles.s"]);
      expect(failures[0]!.reason).toContain(
        `roles.s: "Support" is held by roleId ${hand.Support}, which this resource does not manage`,
      );
      expect(failures[0]!.reason).toContain(
        "If this is `pulumi up --replace` of this resource, those may be its own roles: Pulumi sends a forced " +
          "replacement no Diff, so the provider cannot tell. Set `adoptExisting: true` on it for that run",
      );
    });
    await inNewDeployment(async () => {
      // With adoptExisting the create takes the role over: nothing to refuse, no hint.
      const { failures } = await oneDeploymentGroupRoles.check(
        {},
        inputs({ s: { name: "Support" } }, { adoptExisting: true }),
      );
      expect(failures).toEqual([]);
    });
    expect(await h.held(42)).toEqual(hand);
  });

  it("a new catalogue taking over a role another deletes in its update, unordered: refused at the entry's path", async () => {
    const giver = await createdIn(h, { m: { name: "Mover" }, k: { name: "Keep" } });
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck();
      const removed = inputs({ k: { name: "Keep" } });
      await oneDeploymentGroupRoles.check(stateOf(giver.outs), removed);
      await oneDeploymentGroupRoles.diff("42", stateOf(giver.outs), removed);
      const { failures } = await oneDeploymentGroupRoles.check(
        {},
        inputs({ x: { name: "X" }, m: { name: "Mover" } }, { adoptExisting: true }),
      );
      expect(failures.map((f) => f.property)).toEqual(["roles.m"]);
      expect(failures[0]!.reason).toContain("nothing orders that update after this resource takes it over");
    });
  });

  it("a giver registered after the receiver that takes its role over: one refusal for the entry, one advice", async () => {
    const giver = await createdIn(h, { a: { name: "Agents" }, b: { name: "Billing" } });
    const receiver = await createdIn(h, { c: { name: "Care" } });
    await inNewDeployment(async () => {
      deploymentLedger().run.noteProgramCheck();
      const takes = inputs({ c: { name: "Care" }, a: { name: "Agents" } }, { adoptExisting: true });
      await oneDeploymentGroupRoles.check(stateOf(receiver.outs), takes);
      await oneDeploymentGroupRoles.diff("42", stateOf(receiver.outs), takes);
      const gives = inputs({ b: { name: "Billing" } });
      await oneDeploymentGroupRoles.check(stateOf(giver.outs), gives);
      const err = await rejection(oneDeploymentGroupRoles.diff("42", stateOf(giver.outs), gives));
      expect(err.message).toContain('roles.a: role "Agents"');
      expect(err.message).toContain("give this resource the resource option `dependsOn` on");
      // Not also "takes the name for another role", whose advice is the opposite `dependsOn`.
      expect(err.message).not.toContain("cannot be applied in this registration order");
      expect(err.message).not.toContain("for another role");
    });
  });

  it("a rename onto held names cannot take them over: no adoptExisting advice unless an entry is added", async () => {
    const { outs } = await createdIn(h, { a: { name: "Agents" }, b: { name: "Billing" } });
    const hand = await byHand({ Support: 0, Triage: 0 });
    const renamed = await rejection(
      groupRoles.update("42", stateOf(outs), inputs({ a: { name: "Support" }, b: { name: "Triage" } })),
    );
    expect(renamed.message).toMatch(
      /^group 42 already has roles with names this resource declares; nothing was changed:\n/,
    );
    expect(renamed.message).toContain(
      `  roles.a: "Support" is held by roleId ${hand.Support}, which this resource does not manage (a rename cannot take a role over)\n` +
        `  roles.b: "Triage" is held by roleId ${hand.Triage}, which this resource does not manage (a rename cannot take a role over)\n`,
    );
    expect(renamed.message).not.toContain("adoptExisting");
    // A holder unknown to the deployment may be another resource's role that registers later.
    expect(renamed.message).toContain("give this resource `dependsOn` on it");
    // One added entry among them: adoptExisting is the way out for it.
    const mixed = await rejection(
      groupRoles.update(
        "42",
        stateOf(outs),
        inputs({ a: { name: "Support" }, b: { name: "Billing" }, t: { name: "Triage" } }),
      ),
    );
    expect(mixed.message).toContain("set `adoptExisting: true` on this resource");
  });

  const conflict = (kind: NameConflict["kind"], added = true, key: string = kind): NameConflict => ({
    key,
    name: `${kind} name`,
    holderId: 100 + key.length,
    added,
    kind,
  });
  const adoptAdvice = "`adoptExisting: true` on this resource";
  const programAdvice =
    "declare each role in one resource only; to move a role, remove it from the other resource in the same change.";
  const waitAdvice = "The other resource's change did not free the name: see its error, then run `pulumi up` again.";
  const laterAdvice =
    "A name another resource frees can be taken only by a resource that depends on it: give this resource " +
    "`dependsOn` on the one that renames or removes the holder; a role a replaced or removed resource deletes " +
    "frees its name only after every change: apply that in two steps.";

  it("each kind of holder is named, with the advice that fits it and no other", () => {
    // Only the advice that fits: nothing else between the line and the last way out.
    expect(namesTaken(42, [conflict("program")]).message).toBe(
      "group 42 already has a role with a name this resource declares; nothing was changed:\n" +
        '  roles.program: "program name" is held by roleId 107, which another resource of this program (a Role or GroupRoles of the group) declares\n' +
        `Role names are unique within a group: ${programAdvice} Or choose other names, or rename or delete those roles in the service first.`,
    );

    const released = namesTaken(42, [conflict("released")]).message;
    expect(released).toContain(
      '  roles.released: "released name" is held by roleId 108, which another resource of this program lets go in this change (an entry moved here)\n',
    );
    expect(released).toContain(adoptAdvice);
    expect(released).not.toContain(programAdvice);

    const retained = namesTaken(42, [conflict("retained")]).message;
    expect(retained).toContain(
      '  roles.retained: "retained name" is held by roleId 108, the role of an entry removed from this resource with `retain: true` (kept in the service, no longer managed)\n',
    );
    expect(retained).not.toContain(adoptAdvice);
    // No other advice before it: the way out is not an "Or".
    expect(retained).toMatch(/\)\nChoose other names, or rename or delete those roles in the service first\.$/);
    expect(retained).not.toContain("dependsOn");

    const wait = namesTaken(42, [conflict("wait")]).message;
    expect(wait).toContain(
      '  roles.wait: "wait name" is held by roleId 104, which another resource of this program renames away or deletes in this change, but its change failed\n',
    );
    expect(wait).toContain(waitAdvice);
    expect(wait).not.toContain(programAdvice);
    expect(wait).not.toContain(laterAdvice);
    expect(wait).toContain("Or choose other names, or rename or delete those roles in the service first.");
    const freer = new DeploymentLedger().registrations.register('the Role "X" (id 42/9)');
    expect(namesTaken(42, [{ ...conflict("wait"), freedBy: freer }]).message).toContain(
      'is held by roleId 104, which the Role "X" (id 42/9) renames away or deletes in this change, but its change failed',
    );

    const later = namesTaken(42, [conflict("later")]).message;
    expect(later).toContain(
      "  roles.later: \"later name\" is held by roleId 105, which another resource of this program frees in this change, but nothing orders that before this resource's change (it is not in this resource's `dependsOn`, or deletes the role after every other change)\n",
    );
    expect(later).toContain(laterAdvice);
    expect(later).not.toContain(waitAdvice);
    // An added entry could take it over with adoptExisting, unless the resource has it already.
    expect(namesTaken(42, [conflict("later", true)]).message).toContain(adoptAdvice);
    const laterAdopting = namesTaken(42, [conflict("later", true)], { adopts: true }).message;
    expect(laterAdopting).not.toContain(adoptAdvice);
    expect(laterAdopting).toContain(laterAdvice);

    // Mixed: each advice shows once one conflict calls for it.
    const mixed = namesTaken(42, [
      conflict("outside", false),
      conflict("program", true),
      conflict("wait", true),
    ]).message;
    expect(mixed).toContain(programAdvice);
    expect(mixed).toContain(waitAdvice);
    expect(mixed).not.toContain(adoptAdvice); // the only outside one is a rename, the added ones are not adoptable
    const adoptable = namesTaken(42, [conflict("outside", true), conflict("program", false, "other")]).message;
    expect(adoptable).toContain(adoptAdvice);
  });

  it("met by a create's request: says what that request changed, keeps the 409 as its cause", () => {
    const reply = new ConflictError("name taken", { status: 409 });
    const err = namesTaken(42, [conflict("outside")], {
      outcome: "the request that met them created nothing",
      cause: reply,
    });
    expect(err.message).toMatch(
      /^group 42 already has a role with a name this resource declares; the request that met them created nothing:\n/,
    );
    expect(err.status).toBe(409);
    expect(err.cause).toMatchObject({ name: "ConflictError", code: "ERR_CONFLICT", message: "name taken" });
  });
});

describe("lists in messages are bounded", () => {
  it("at most ten lines, then how many more", () => {
    const line = (n: number) => `  line ${n}`;
    const ten = Array.from({ length: 10 }, (_, i) => i);
    expect(someLines(ten, line).split("\n")).toEqual(ten.map(line));
    const twelve = Array.from({ length: 12 }, (_, i) => i);
    expect(someLines(twelve, line).split("\n")).toEqual([...ten.map(line), "  ... and 2 more"]);
  });

  it("at most five names (or the given number), quoted, then how many more", () => {
    expect(someNames(["A", "B", "C", "D", "E"])).toBe('"A", "B", "C", "D", "E"');
    expect(someNames(["A", "B", "C", "D", "E", "F", "G"])).toBe('"A", "B", "C", "D", "E" and 2 more');
    expect(someNames(["A", "B", "C", "D"], 3)).toBe('"A", "B", "C" and 1 more');
  });

  it("a removal of twelve held roles names ten and counts the rest", async () => {
    const { outs } = await createdIn(h, catalogue(12));
    for (const r of Object.values(outs.roles)) await h.setUsers(42, r.roleId, 1);
    const err = await rejection(groupRoles.update("42", stateOf(outs), inputs({})));
    expect(err.message).toContain("group 42: 12 roles removed from `roles` are in use");
    expect(err.message).toContain(
      `  roles.r9: "Role 9" (roleId ${outs.roles.r9!.roleId}) is held by 1 user\n  ... and 2 more\n`,
    );
    expect(err.message).not.toContain('"Role 10"');
  });
});

describe("a partial apply", () => {
  it("keeps the failed request's error as the cause of its init error", async () => {
    await h.configure({ "grouproles:maxBatchSize": "1" });
    await h.fault({ method: "POST", path: "/api/v0/groups/42/roles", action: "status", status: 422, skip: 1 });
    const err = await rejection(groupRoles.create(inputs(catalogue(2))));
    expect(err.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(Object.keys(await h.held(42))).toEqual(["Role 0"]);
    expect(err.cause).toMatchObject({ code: "ERR_VALIDATION", message: expect.stringContaining("422") });
  });
});
