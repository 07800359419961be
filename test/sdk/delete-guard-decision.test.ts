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
      groupId: 42,
      roles: [{ roleId: 7, name: "Support" }],
      retainOnDelete: true,
    });
  });

  it("reads a catalogue's entries, leaving out those with retain: true, keeping one only declared", () => {
    const held = heldBy({
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
    expect(heldBy({ name: "x", type: "aws:s3:Bucket", oldOutputs: { groupId: 1 } })).toBeUndefined();
  });
});

describe("losses", () => {
  const role = (roleId?: number) =>
    heldBy({
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

  it("leaves a resource the program still declares to its provider (a replacement's or a destroy's delete)", async () => {
    const claims = new ProgramClaims();
    claims.note(ROLE, "support", {});
    expect(losses(role(7), claims, [summary(7, "Support", 2)])).toEqual([]);
    const other = new ProgramClaims();
    other.note(ROLE, "support2", {});
    other.note("grouproles:index:Role", "support", {});
    expect(losses(role(7), other, [summary(7, "Support", 2)])).toHaveLength(1);
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
});
