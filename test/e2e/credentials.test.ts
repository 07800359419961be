/**
 * Credentials that work in a pipeline, through the engine stand-in (the real Node runtime and
 * dynamic-provider host) against the emulator: a program managing roles in three groups with an API
 * key per group, tokens fetched once per group and reused; wrong credentials failing in the preview,
 * naming the group and the credential; a no-op preview sending nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  rolePlan,
  runMixed,
  runSpec,
  specProgram,
  stackFor,
  type GroupRolesSpec,
  type RoleSpec,
  type Stack,
} from "./harness";

const KEYS = { "41": "api-key-41-7f2e", "42": "api-key-42-91ab", "43": "api-key-43-c3d0" };
let s: Stack;
beforeAll(async () => {
  s = await stackFor(
    specProgram,
    "roles-spec",
    { "grouproles:partnerUserId": "ci-pipeline" },
    {
      tokens: ["test-admin-every-group", "admin-only-token:1"],
      apiKeys: Object.entries(KEYS).map(([g, k]) => `${g}:${k}`),
    },
    (_h) => ({ "grouproles:apiKeys": JSON.stringify(KEYS) }),
    undefined,
    // Through cmd/run, as the CLI runs it: the one spec-program suite that keeps that path in `npm test`
    // (the config, secrets among it, reaches the program in PULUMI_CONFIG).
    "process",
  );
});
afterAll(() => s?.close());
beforeEach(() => s.fresh());

const withAuthUrl = () => ({ "grouproles:authUrl": s.h.emu.authUrl });
const roles = (suffix = ""): RoleSpec[] =>
  [41, 42, 43].map((g) => ({
    name: `support-${g}`,
    args: { groupId: g, name: `Support${suffix}`, settings: { viewVideo: true } },
  }));
const names = async (g: number) => (await s.h.listRoles(g)).map((r) => r.name);

describe("a program managing three groups with an API key per group", () => {
  it("up creates in every group with one authorization per group; update and destroy do the same", async () => {
    await s.h.clearRequests();
    const up = await runSpec(s, "up", roles(), withAuthUrl());
    expect(up.ok, up.errors.join("\n")).toBe(true);
    for (const g of [41, 42, 43]) expect(await names(g)).toEqual(["Support"]);
    let log = await s.h.requests();
    expect(log.counts["POST /authorize"]).toBe(3);
    const asked = log.entries
      .filter((e) => e.route === "/authorize")
      .map((e) => JSON.parse(e.body).partnerId as number);
    expect(asked.sort()).toEqual([41, 42, 43]);

    await s.h.clearRequests();
    const renamed = await runSpec(s, "up", roles(" team"), withAuthUrl());
    expect(renamed.ok, renamed.errors.join("\n")).toBe(true);
    for (const g of [41, 42, 43]) expect(await names(g)).toEqual(["Support team"]);
    log = await s.h.requests();
    expect(log.counts["POST /authorize"]).toBe(3);

    const destroyed = await runSpec(s, "destroy", [], withAuthUrl());
    expect(destroyed.ok, destroyed.errors.join("\n")).toBe(true);
    for (const g of [41, 42, 43]) expect(await names(g)).toEqual([]);
  });

  it("a no-op preview checks each group's credential: one authorization and one list per group, nothing else", async () => {
    expect((await runSpec(s, "up", roles(), withAuthUrl())).ok).toBe(true);
    await s.h.clearRequests();
    const preview = await runSpec(s, "preview", roles(), withAuthUrl());
    expect(preview.ok).toBe(true);
    expect(rolePlan(preview)).toEqual([]);
    expect((await s.h.requests()).counts).toEqual({ "POST /authorize": 3, "GET /api/v0/groups/:groupId/roles": 3 });
    // A key revoked since: the no-op preview (a drift check) finds it, for that group only (issue 53).
    const revoked = { "grouproles:apiKeys": JSON.stringify({ ...KEYS, "43": "revoked" }) };
    const drift = await runSpec(s, "preview", roles(), withAuthUrl(), revoked);
    expect(drift.ok).toBe(false);
    expect(drift.errors.join("\n")).toContain("the credentials are not accepted for group 43");
    expect(drift.errors.some((e) => e.includes("support-41") || e.includes("support-42"))).toBe(false);
  });
});

describe("credentials fail in the preview, naming the group and the credential", () => {
  it("a wrong API key for one group: the preview fails for that group only, before any write", async () => {
    await s.h.clearRequests();
    const wrong = { "grouproles:apiKeys": JSON.stringify({ ...KEYS, "42": "not-the-key-of-42" }) };
    const preview = await runSpec(s, "preview", roles(), withAuthUrl(), wrong);
    expect(preview.ok).toBe(false);
    const message = preview.errors.join("\n");
    expect(message).toContain("Role::support-42");
    expect(message).toContain(
      "the credentials are not accepted for group 42: authorizing for group 42 (webservices) with the API key of group 42 (grouproles:apiKeys) was refused",
    );
    expect(message).not.toContain("not-the-key-of-42");
    expect(preview.errors.some((e) => e.includes("support-41") || e.includes("support-43"))).toBe(false);
    const writes = Object.keys((await s.h.requests()).counts).filter(
      (k) => !k.startsWith("GET") && k !== "POST /authorize",
    );
    expect(writes).toEqual([]);
  });

  it("a static token not granted the group: the preview names the group and the credential", async () => {
    const preview = await runSpec(
      s,
      "preview",
      roles().slice(1, 2),
      {},
      { "grouproles:accessToken": "admin-only-token" },
    );
    expect(preview.ok).toBe(false);
    expect(preview.errors.join("\n")).toContain(
      "the credentials are not accepted for group 42: GET /api/v0/groups/42/roles: service answered 403 forbidden: access token is not granted group 42: the access token (grouproles:accessToken) is not granted group 42",
    );
  });
});

describe("a GroupRoles catalogue checks its credentials in the preview the same way", () => {
  const catalogue = (roles: GroupRolesSpec["args"]["roles"]): GroupRolesSpec => ({
    name: "catalogue",
    args: { groupId: 42, roles },
  });
  const wrong = { "grouproles:apiKeys": JSON.stringify({ ...KEYS, "42": "not-the-key-of-42" }) };
  const refused =
    "the credentials are not accepted for group 42: authorizing for group 42 (webservices) with the API key of group 42 (grouproles:apiKeys) was refused";

  it("a create, a rename and a removal previewed with a key not of the group fail, naming it; nothing is written", async () => {
    const two = { a: { name: "Agents" }, b: { name: "Billing" } };
    const create = await runMixed(s, "preview", [catalogue(two)], [], withAuthUrl(), wrong);
    expect(create.ok).toBe(false);
    expect(create.errors.join("\n")).toContain(refused);

    expect((await runMixed(s, "up", [catalogue(two)], [], withAuthUrl())).ok).toBe(true);
    await s.h.clearRequests();
    const rename = await runMixed(
      s,
      "preview",
      [catalogue({ ...two, b: { name: "Invoices" } })],
      [],
      withAuthUrl(),
      wrong,
    );
    expect(rename.ok).toBe(false);
    expect(rename.errors.join("\n")).toContain(refused);
    // The removal's in-use list is refused the same way (it is the group's list, asked with the same key).
    const removal = await runMixed(s, "preview", [catalogue({ a: two.a })], [], withAuthUrl(), wrong);
    expect(removal.ok).toBe(false);
    expect(removal.errors.join("\n")).toContain(
      "authorizing for group 42 (webservices) with the API key of group 42 (grouproles:apiKeys) was refused",
    );
    expect(removal.errors.join("\n")).not.toContain("not-the-key-of-42");
    const writes = Object.keys((await s.h.requests()).counts).filter(
      (k) => !k.startsWith("GET") && k !== "POST /authorize",
    );
    expect(writes).toEqual([]);
    expect((await s.h.listRoles(42)).map((r) => r.name).sort()).toEqual(["Agents", "Billing"]);
  });
});
