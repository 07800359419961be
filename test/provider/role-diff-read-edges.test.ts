/**
 * Role diff, read and delete at their edges, against the emulator: credentials refused for a planned
 * write, a replacement of a role already gone, a read by ID alone (import, `get`), a 404 that proves
 * nothing, and the service's own refusal kept as the cause of an in-use delete.
 */
import { describe, expect, it } from "vitest";
import { provider, providerSuite } from "./provider-harness";
import { rejection } from "../support/rejection";

const h = providerSuite();

const LIST = "/api/v0/groups/42/roles";

describe("diff", () => {
  it("a planned write whose credentials the group refuses fails the diff (the preview), naming the group", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Old" });
    await h.fault({ method: "GET", path: LIST, action: "status", status: 403, times: 0 });
    const err = await rejection(provider.diff(id, outs, { groupId: 42, name: "New" }));
    expect(err?.code).toBe("ERR_FORBIDDEN");
    expect(err?.message).toContain("the credentials are not accepted for group 42");
  });

  it("an update of a role deleted by hand since the last refresh fails the preview (the up would meet a 404)", async () => {
    // Found by the simulation (docs/simulation.md, a Role deleted by hand, then renamed in the program
    // without a refresh): the preview was green, the up met a 404.
    const { id, outs } = await provider.create({ groupId: 42, name: "Gone" });
    await h.api("POST", "/groups/42/delete-roles", [outs.roleId]);
    const err = await rejection(provider.diff(id, outs, { groupId: 42, name: "Renamed" }));
    expect(err?.code).toBe("ERR_ROLE_NOT_APPLIED");
    expect(err?.message).toMatch(
      /^updating role "Gone" \(id 42\/\d+\): the service no longer has this role .*`pulumi refresh` drops it/,
    );
    // A role the list leaves out but whose own read answers is not gone: the diff goes on.
    const kept = await provider.create({ groupId: 42, name: "Kept" });
    await h.fault({ method: "GET", path: LIST, action: "wrong-shape" });
    expect((await provider.diff(kept.id, kept.outs, { groupId: 42, name: "Kept 2" })).changes).toBe(true);
  });

  it("moving a role already deleted by hand is a plain replacement: nothing to refuse", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Gone" });
    await h.api("POST", "/groups/42/delete-roles", [outs.roleId]);
    expect(await provider.diff(id, outs, { groupId: 43, name: "Gone" })).toEqual({
      changes: true,
      replaces: ["groupId"],
      deleteBeforeReplace: false,
      diffs: ["groupId"],
    });
  });
});

describe("read", () => {
  it("by ID alone, a role without a description: the inputs for the program hold no description key", async () => {
    const [made] = (await h.api("POST", "/groups/42/roles", [{ name: "Bare" }])).json as Array<{ roleId: number }>;
    const r = await provider.read(`42/${made.roleId}`, {});
    // The host serializes these inputs as a protobuf Struct, which refuses a key whose value is undefined.
    expect(r.inputs).toStrictEqual({ groupId: 42, name: "Bare" });
  });

  it("by ID alone, a failure names the role by its ID", async () => {
    const [made] = (await h.api("POST", "/groups/42/roles", [{ name: "Bare" }])).json as Array<{ roleId: number }>;
    await h.fault({ method: "GET", path: `${LIST}/${made.roleId}`, action: "status", status: 403 });
    const err = await rejection(provider.read(`42/${made.roleId}`, {}));
    expect(err?.message).toContain(`reading role 42/${made.roleId}: `);
    expect(err?.message).not.toContain("undefined");
  });

  it("a 404 on the role while the group's list still holds it is an error, not a role gone", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Here" });
    await h.fault({ method: "GET", path: `${LIST}/${outs.roleId}`, action: "status", status: 404 });
    const err = await rejection(provider.read(id, outs));
    expect(err?.code).toBe("ERR_NOT_FOUND");
    expect(err?.message).toContain(`the group's list still holds role ${outs.roleId}`);
    expect((await h.listRoles(42)).map((r) => r.roleId)).toEqual([outs.roleId]);
  });
});

describe("delete", () => {
  it("a role assigned between the check and the delete: the service's 409 is kept as the cause", async () => {
    const { id, outs } = await provider.create({ groupId: 42, name: "Agents" });
    await h.fault({ method: "POST", path: "/api/v0/groups/42/delete-roles", action: "status", status: 409 });
    const err = await rejection(provider.delete(id, outs));
    expect(err?.code).toBe("ERR_ROLE_IN_USE");
    expect(err?.status).toBe(409);
    // Somewhere down the chain of causes (a destroy's report wraps the in-use error, which wraps the 409).
    const causes: string[] = [];
    for (let e = err?.cause as Error | undefined; e; e = e.cause as Error | undefined) causes.push(e.message);
    expect(causes.some((m) => m.includes("POST /api/v0/groups/42/delete-roles"))).toBe(true);
  });
});
