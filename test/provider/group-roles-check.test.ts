/**
 * GroupRoles `check`: each entry by the rules of a Role, with the same messages and paths like
 * `roles.support.name`; two entries with one name; keys; all before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as groupRoles from "../../provider/group-roles";
import { UNKNOWN } from "../../provider/role/inputs";
import { provider, providerAgainstEmulator } from "./provider-harness";
import type { EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await providerAgainstEmulator();
  await h.clearRequests();
});
afterAll(() => h.close());

const check = async (news: Record<string, unknown>) => (await groupRoles.check({}, news)).failures;
const withEntry = (entry: unknown, extra: Record<string, unknown> = {}) => ({
  groupId: 42,
  roles: { support: entry, ...extra },
});

describe("GroupRoles check", () => {
  // Role inputs that fail, each as an entry: the same rule must fail with the same message.
  it.each([
    ["name missing", {}],
    ["name empty", { name: "" }],
    ["name blank", { name: "   \t" }],
    ["name too long", { name: "x".repeat(71) }],
    ["name of emoji too long", { name: "😀".repeat(36) }],
    ["name a number", { name: 7 }],
    ["name with a line break", { name: "a\nb" }],
    ["description too long", { name: "S", description: "d".repeat(256) }],
    ["description not a string", { name: "S", description: ["a"] }],
    ["settings an array", { name: "S", settings: [true] }],
    ["setting not boolean", { name: "S", settings: { viewVideo: "yes" } }],
    ["setting null", { name: "S", settings: { viewVideo: null } }],
    ["setting typo", { name: "S", settings: { viewVidoe: true } }],
    ["setting of a bad shape", { name: "S", settings: { "view video": true } }],
    [
      "too many settings",
      { name: "S", settings: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`s${i}`, true])) },
    ],
  ])("%s: as a Role's, under roles.support", async (_label, fields) => {
    const asRole = (await provider.check({}, { groupId: 42, ...fields })).failures;
    expect(asRole.length).toBeGreaterThan(0);
    const expected = asRole.map((f) => ({
      property: `roles.support.${f.property}`,
      reason: f.reason.startsWith(f.property) ? `roles.support.${f.reason}` : f.reason,
    }));
    expect(await check(withEntry(fields))).toEqual(expected);
  });

  it("names the first problems exactly", async () => {
    expect(await check(withEntry({ name: "" }))).toEqual([
      { property: "roles.support.name", reason: "roles.support.name must not be empty" },
    ]);
    expect(await check(withEntry({ name: "S", settings: { viewVidoe: true } }))).toEqual([
      {
        property: "roles.support.settings.viewVidoe",
        reason: 'unknown setting "viewVidoe": did you mean "viewVideo"?',
      },
    ]);
  });

  it("two entries with one name are refused, naming both keys", async () => {
    const failures = await check({
      groupId: 42,
      roles: { a: { name: "Support" }, b: { name: "Sales" }, c: { name: "Support" } },
    });
    expect(failures).toEqual([
      {
        property: "roles.c.name",
        reason: expect.stringMatching(
          /^roles\.c\.name "Support" is also the name of roles\.a; role names are unique within a group/,
        ),
      },
    ]);
  });

  it.each([
    ["groupId missing", { roles: {} }, "groupId", "groupId is required (a positive integer)"],
    [
      "groupId a string",
      { groupId: "42", roles: {} },
      "groupId",
      'groupId must be a positive integer, got string "42"',
    ],
    ["roles missing", { groupId: 42 }, "roles", "roles is required"],
    [
      "roles an array",
      { groupId: 42, roles: [{ name: "S" }] },
      "roles",
      "roles must be a map of a stable key to a role, got an array",
    ],
    [
      "entry a string",
      withEntry("Support"),
      "roles.support",
      'roles.support must be a role: { name, description?, settings?, retain? }, got string "Support"',
    ],
    [
      "retain not boolean",
      withEntry({ name: "S", retain: "yes" }),
      "roles.support.retain",
      'roles.support.retain must be true or false, got string "yes"',
    ],
    [
      "unknown entry field",
      withEntry({ name: "S", colour: "red" }),
      "roles.support.colour",
      'unknown property "colour" of roles.support',
    ],
    ["blank key", { groupId: 42, roles: { " ": { name: "S" } } }, "roles. ", "role keys must not be empty or blank"],
    [
      "exclusive not boolean",
      { groupId: 42, roles: {}, exclusive: "yes" },
      "exclusive",
      'exclusive must be true or false, got string "yes"',
    ],
    [
      "adoptExisting not boolean",
      { groupId: 42, roles: {}, adoptExisting: 1 },
      "adoptExisting",
      "adoptExisting must be true or false, got number 1",
    ],
    [
      "unknown property",
      { groupId: 42, roles: {}, name: "x" },
      "name",
      'unknown property "name"; GroupRoles takes groupId, roles, adoptExisting and exclusive',
    ],
  ])("%s", async (_label, news, property, reason) => {
    expect(await check(news)).toContainEqual({ property, reason: expect.stringContaining(reason) });
  });

  it("entry keys of 1 to 100 characters pass; an empty one, a blank one and one of 101 fail, naming the rule", async () => {
    // groupId 0 fails too, so that no check confirms credentials: this describe sends no request.
    const roles = (key: string) => ({ groupId: 0, roles: { [key]: { name: "Support" } } });
    const keyFailures = async (key: string) =>
      (await check(roles(key))).filter((f) => f.reason.startsWith("role keys"));
    expect(await keyFailures("k")).toEqual([]);
    expect(await keyFailures("k".repeat(100))).toEqual([]);
    expect(await keyFailures("k".repeat(101))).toEqual([
      {
        property: `roles.${"k".repeat(40)}…`,
        reason: `role keys must be at most 100 characters, got 101 (key ${JSON.stringify("k".repeat(40))})`,
      },
    ]);
    expect(await keyFailures("")).toEqual([
      { property: "roles.", reason: 'role keys must not be empty or blank (key "")' },
    ]);
    expect((await keyFailures("  ")).map((f) => f.reason)).toEqual(['role keys must not be empty or blank (key "  ")']);
  });

  it("made no HTTP request at all", async () => {
    expect((await h.requests()).total).toBe(0);
  });
});

describe("GroupRoles check of valid input", () => {
  it("accepts a valid catalogue, and unknown values during preview", async () => {
    const news = {
      groupId: 42,
      adoptExisting: true,
      roles: {
        support: { name: "Support", description: "d", settings: { viewVideo: true }, retain: false },
        sales: { name: "Sales" },
      },
    };
    expect(await groupRoles.check({}, news)).toEqual({ inputs: news, failures: [] });
    const u = UNKNOWN;
    expect(await check({ groupId: u, roles: u })).toEqual([]);
    expect(
      await check({ groupId: 42, roles: { a: u, b: { name: u, settings: { viewVideo: u } }, c: { name: u } } }),
    ).toEqual([]);
  });

  it("confirms the credentials of the group it will create in with one list, nothing else", async () => {
    expect((await h.requests()).counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 1 });
  });
});
