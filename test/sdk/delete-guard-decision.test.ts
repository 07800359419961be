/**
 * The before-delete hook's decision on its own (sdk/delete-guard): what a removed `Role` or
 * `GroupRoles` holds, read from the state the engine hands the hook, and which of those roles users
 * hold now, given the group's list and what the rest of the program takes over.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RoleSummary } from "../../client";
import { ProgramClaims } from "../../sdk/delete-guard/claims";
import { losses, refusal } from "../../sdk/delete-guard/decide";
import { heldBy, kindOf } from "../../sdk/delete-guard/held";

const ROLE = "pulumi-nodejs:dynamic/grouproles:Role";
const CATALOGUE = "grouproles:index:GroupRoles";
const summary = (roleId: number, name: string, userCount: number): RoleSummary => ({
  roleId,
  name,
  inUse: userCount > 0,
  userCount,
});
const nothingClaimed = new ProgramClaims();
/** Lets the Outputs a note made run their callbacks. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("heldBy", () => {
  it("reads a Role's group, ID and name from its outputs, and retainOnDelete from __structure", () => {
    const held = heldBy({
      urn: `urn:pulumi:dev::p::${ROLE}::support`,
      name: "support",
      type: ROLE,
      oldInputs: { groupId: 42, name: "Support", __structure: { retainOnDelete: true } },
      oldOutputs: { groupId: 42, roleId: 7, name: "Support" },
    });
    expect(held).toEqual({
      kind: "Role",
      label: "Role 'support'",
      type: ROLE,
      name: "support",
      urn: `urn:pulumi:dev::p::${ROLE}::support`,
      groupId: 42,
      roles: [{ roleId: 7, name: "Support" }],
      retainOnDelete: true,
    });
  });

  it("reads a catalogue's entries, leaving out those with retain: true, keeping one only declared", () => {
    const held = heldBy({
      urn: `urn:pulumi:dev::p::${CATALOGUE}::team`,
      name: "team",
      type: CATALOGUE,
      oldInputs: {
        groupId: 42,
        roles: { a: { name: "A" }, kept: { name: "K", retain: true }, pending: { name: "P" } },
      },
      oldOutputs: { groupId: 42, roles: { a: { roleId: 1, name: "A" }, kept: { roleId: 2, name: "K" } } },
    });
    expect(held?.roles).toEqual([
      { key: "a", roleId: 1, name: "A" },
      { key: "pending", roleId: undefined, name: "P" },
    ]);
    expect(held?.retainOnDelete).toBe(false);
  });

  it("knows both SDKs' type tokens and nothing else", () => {
    expect(kindOf("grouproles:index:Role")).toBe("Role");
    expect(kindOf("pulumi-nodejs:dynamic/grouproles:GroupRoles")).toBe("GroupRoles");
    expect(kindOf("pulumi-nodejs:dynamic:Resource")).toBeUndefined();
    expect(heldBy({ urn: "u", name: "x", type: "aws:s3:Bucket", oldOutputs: { groupId: 1 } })).toBeUndefined();
  });
});

describe("losses", () => {
  const role = (roleId?: number) =>
    heldBy({
      urn: `urn:pulumi:dev::p::${ROLE}::support`,
      name: "support",
      type: ROLE,
      oldInputs: { groupId: 42, name: "Support" },
      oldOutputs: { groupId: 42, roleId, name: "Support" },
    })!;

  it("is the role when users hold it now, whatever the state said", () => {
    expect(losses(role(7), nothingClaimed, [summary(7, "Support", 2)])).toEqual([
      { roleId: 7, name: "Support", userCount: 2 },
    ]);
    expect(losses(role(7), nothingClaimed, [summary(7, "Support", 0)])).toEqual([]);
  });

  it("counts a role in use without a count", () => {
    expect(losses(role(7), nothingClaimed, [{ roleId: 7, name: "Support", inUse: true }])).toEqual([
      { roleId: 7, name: "Support", userCount: undefined },
    ]);
  });

  it("is nothing for a role gone, or a retained resource", () => {
    expect(losses(role(7), nothingClaimed, [summary(8, "Support", 3)])).toEqual([]);
    expect(losses({ ...role(7), retainOnDelete: true }, nothingClaimed, [summary(7, "Support", 3)])).toEqual([]);
  });

  it("finds a create never confirmed by its name", () => {
    expect(losses(role(undefined), nothingClaimed, [summary(9, "Support", 1)])).toEqual([
      { roleId: 9, name: "Support", userCount: 1 },
    ]);
  });

  it("lets through a role another resource imports or adopts by name, only in its group", async () => {
    const importing = new ProgramClaims();
    importing.note(ROLE, "other", { importId: "42/7" });
    const adopting = new ProgramClaims();
    adopting.note(CATALOGUE, "team", { groupId: 42, roles: { s: { name: "Support" } }, adoptExisting: true });
    const elsewhere = new ProgramClaims();
    elsewhere.note(CATALOGUE, "team", { groupId: 43, roles: { s: { name: "Support" } }, adoptExisting: true });
    const notAdopting = new ProgramClaims();
    notAdopting.note(CATALOGUE, "team", { groupId: 42, roles: { s: { name: "Support" } } });
    await settle();
    const listing = [summary(7, "Support", 2)];
    expect(losses(role(7), importing, listing)).toEqual([]);
    expect(losses(role(7), adopting, listing)).toEqual([]);
    expect(losses(role(7), elsewhere, listing)).toHaveLength(1);
    expect(losses(role(7), notAdopting, listing)).toHaveLength(1);
  });

  it("counts a resource the program still declares (a replacement's or a destroy's delete), but for a create never confirmed", async () => {
    const claims = new ProgramClaims();
    claims.note(ROLE, "support", {});
    const listing = [summary(7, "Support", 2)];
    expect(losses(role(7), claims, listing)).toEqual([{ roleId: 7, name: "Support", userCount: 2 }]);
    // Its replacement's create adopts the role an unconfirmed create made (provider/role/delete.ts).
    expect(losses(role(undefined), claims, listing)).toEqual([]);
    expect(losses(role(undefined), nothingClaimed, listing)).toHaveLength(1);
    // Still what another resource takes over, or a retained state, lets it through.
    claims.note(ROLE, "other", { importId: "42/7" });
    await settle();
    expect(losses(role(7), claims, listing)).toEqual([]);
    expect(losses({ ...role(7), retainOnDelete: true }, new ProgramClaims(), listing)).toEqual([]);
  });

  it("counts no resource's claim on its own role: a destroy deletes both halves (issue 52's user trial)", async () => {
    const catalogue = heldBy({
      urn: `urn:pulumi:dev::p::${CATALOGUE}::team`,
      name: "team",
      type: CATALOGUE,
      oldInputs: { groupId: 42, roles: { s: { name: "Support" } } },
      oldOutputs: { groupId: 42, roles: { s: { roleId: 7, name: "Support" } } },
    })!;
    const listing = [summary(7, "Support", 2)];
    // A Role that keeps its `import` in code; a catalogue with adoptExisting declaring its own entry's name.
    const importing = new ProgramClaims();
    importing.note(ROLE, "support", { importId: "42/7" });
    const adopting = new ProgramClaims();
    adopting.note(CATALOGUE, "team", { groupId: 42, roles: { s: { name: "Support" } }, adoptExisting: true });
    await settle();
    expect(losses(role(7), importing, listing)).toHaveLength(1);
    expect(losses(catalogue, adopting, listing)).toHaveLength(1);
    // Each one's claim is another resource's for the other: a move between them.
    expect(losses(role(7), adopting, listing)).toEqual([]);
    expect(losses(catalogue, importing, listing)).toEqual([]);
  });

  it("claims an adopting entry's name when its other fields are unknown in a preview", async () => {
    const claims = new ProgramClaims();
    const later = pulumi.output(pulumi.unknown as unknown as string);
    claims.note(CATALOGUE, "team", {
      groupId: 42,
      roles: { s: { name: "Support", description: later } as unknown as { name: string } },
      adoptExisting: true,
    });
    await settle();
    expect(losses(role(7), claims, [summary(7, "Support", 2)])).toEqual([]);
  });

  it("takes nothing over from a value unknown in a preview", async () => {
    const unknown = new ProgramClaims();
    unknown.note(ROLE, "other", { importId: pulumi.output(pulumi.unknown as unknown as string) });
    await settle();
    expect(losses(role(7), unknown, [summary(7, "Support", 2)])).toHaveLength(1);
  });
});

describe("refusal", () => {
  it("names the resource, each role with its ID and users, and every way that works", () => {
    const held = heldBy({
      urn: `urn:pulumi:dev::p::${CATALOGUE}::team`,
      name: "team",
      type: CATALOGUE,
      oldInputs: { groupId: 42, roles: { a: { name: "A" }, b: { name: "B" } } },
      oldOutputs: { groupId: 42, roles: { a: { roleId: 1, name: "A" }, b: { roleId: 2, name: "B" } } },
    })!;
    const text = refusal(held, [
      { key: "a", roleId: 1, name: "A", userCount: 1 },
      { key: "b", roleId: 2, name: "B", userCount: 3 },
    ]);
    expect(text).toBe(
      'GroupRoles \'team\' would delete 2 roles that users hold: entry "a": role "A" (id 42/1), held by 1 user; ' +
        'entry "b": role "B" (id 42/2), held by 3 users. A role users hold is never deleted, and nothing was changed. ' +
        "To go on: unassign its users in the service; or put the resource back with `retain: true` on those entries " +
        "(or the `retainOnDelete: true` option), run `pulumi up`, then remove it; or move it to another resource of " +
        'this program (a `Role` with `import: "42/1"`, or a `GroupRoles` entry of the same name with ' +
        "`adoptExisting: true`); or keep the resource in the program.",
    );
  });

  /** The plugin Role 'r1' (role "Ops", id 42/5) that the program still declares. */
  const declaredOps = () =>
    heldBy({
      urn: "urn:pulumi:dev::p::grouproles:index:Role::r1",
      name: "r1",
      type: "grouproles:index:Role",
      oldInputs: { groupId: 42, name: "Ops" },
      oldOutputs: { groupId: 42, roleId: 5, name: "Ops" },
    })!;

  it("for a resource still declared, names the replacement and the destroy, and their ways out", () => {
    const held = declaredOps();
    const text = refusal(held, [{ roleId: 5, name: "Ops", userCount: 1 }], { declared: true });
    expect(text).toBe(
      "Role 'r1' is being deleted while this program still declares it, which would delete a role that users hold: " +
        'role "Ops" (id 42/5), held by 1 user. A role users hold is never deleted, and nothing was changed. To go on: ' +
        "unassign its users in the service; or if this is a replacement (`pulumi up --replace`, `replaceOnChanges`, a " +
        "`groupId` change), make the change without one (a new name, description or settings is an update that keeps " +
        "the role, its ID and its users); or give the resource the `retainOnDelete: true` option and run `pulumi up` " +
        "without the replacement first, so that the replacement or `pulumi destroy --run-program` leaves the role in " +
        "the service, with its users (this check reads that option from the state, where `pulumi up` records it); or make " +
        "Pulumi forget the resource " +
        "now, keeping its roles: `pulumi state delete 'urn:pulumi:dev::p::grouproles:index:Role::r1'`.",
    );
  });

  it("for a resource still declared that the program now retains, says to record the option with `pulumi up` first", () => {
    const held = declaredOps();
    const text = refusal(held, [{ roleId: 5, name: "Ops", userCount: 1 }], { declared: true, retainsNow: true });
    expect(text).toContain(
      "held by 1 user. This program now gives it `retainOnDelete: true`, which this check reads from Pulumi's state, " +
        "where it is not yet: run `pulumi up` first (without `--replace`) to record it, then run this again.",
    );
    expect(refusal(held, [{ roleId: 5, name: "Ops", userCount: 1 }], { declared: true })).not.toContain("now gives it");
  });
});
