import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/role/inputs";
import { provider, providerAgainstEmulator } from "./provider-harness";
import type { EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
beforeAll(async () => {
  h = await providerAgainstEmulator();
  await h.clearRequests();
});
afterAll(() => h.close());

const valid = { groupId: 42, name: "Support" };

describe("check refuses bad input before any request", () => {
  it.each([
    ["groupId missing", { name: "x" }, "groupId", "groupId is required (a positive integer)"],
    [
      "groupId a string",
      { groupId: "42", name: "x" },
      "groupId",
      'groupId must be a positive integer, got string "42"',
    ],
    ["groupId fractional", { groupId: 4.2, name: "x" }, "groupId", "groupId must be a positive integer, got 4.2"],
    ["groupId negative", { groupId: -1, name: "x" }, "groupId", "groupId must be a positive integer, got -1"],
    ["groupId zero", { groupId: 0, name: "x" }, "groupId", "groupId must be a positive integer"],
    ["name missing", { groupId: 42 }, "name", "name is required"],
    ["name empty", { groupId: 42, name: "" }, "name", "name must not be empty"],
    ["name blank", { groupId: 42, name: "   \t" }, "name", "name must not be blank"],
    ["name too long", { groupId: 42, name: "x".repeat(71) }, "name", "name must be at most 70 characters, got 71"],
    ["name a number", { groupId: 42, name: 7 }, "name", "name must be a string, got number 7"],
    [
      "description too long",
      { ...valid, description: "d".repeat(256) },
      "description",
      "description must be at most 255 characters, got 256",
    ],
    [
      "description not a string",
      { ...valid, description: ["a"] },
      "description",
      "description must be a string, got an array",
    ],
    [
      "settings an array",
      { ...valid, settings: [true] },
      "settings",
      "settings must be a map of setting name to boolean, got an array",
    ],
    [
      "setting not boolean",
      { ...valid, settings: { viewVideo: "yes" } },
      "settings.viewVideo",
      'settings.viewVideo must be true or false, got string "yes"',
    ],
    ["setting null", { ...valid, settings: { viewVideo: null } }, "settings.viewVideo", "remove the key"],
    [
      "setting nested",
      { ...valid, settings: { viewVideo: { on: true } } },
      "settings.viewVideo",
      "must be true or false, got an object",
    ],
    [
      "setting typo",
      { ...valid, settings: { viewVidoe: true } },
      "settings.viewVidoe",
      'unknown setting "viewVidoe": did you mean "viewVideo"?',
    ],
    ["setting case", { ...valid, settings: { ViewVideo: true } }, "settings.ViewVideo", 'did you mean "viewVideo"?'],
    [
      "service spelling",
      { ...valid, settings: { agentAccessibility: true } },
      "settings.agentAccessibility",
      'did you mean "agentAccessibilty"?',
    ],
    ["unknown property", { ...valid, colour: "red" }, "colour", 'unknown property "colour"'],
  ])("%s", async (_label, news, property, reason) => {
    const { failures } = await provider.check({}, news);
    expect(failures).toContainEqual({ property, reason: expect.stringContaining(reason) });
  });

  it("lists every problem at once", async () => {
    const { failures } = await provider.check({}, { groupId: -1, name: "", settings: { viewVidoe: 1 } });
    expect(failures.map((f) => f.property)).toEqual(["groupId", "name", "settings.viewVidoe", "settings.viewVidoe"]);
  });

  it("made no HTTP request at all", async () => {
    expect((await h.requests()).total).toBe(0);
  });
});

describe("check accepts valid input", () => {
  it("never fails on unknown values during preview", async () => {
    const u = UNKNOWN;
    expect((await provider.check({}, { groupId: u, name: u, description: u, settings: u })).failures).toEqual([]);
    expect((await provider.check({}, { groupId: 1, name: "x", settings: { viewVideo: u } })).failures).toEqual([]);
  });

  it("including unknown keys not close to a known one", async () => {
    const news = { ...valid, description: "d".repeat(255), settings: { viewVideo: true, brandNewFeature2027: false } };
    expect(await provider.check({}, news)).toEqual({ inputs: news, failures: [] });
    expect((await provider.check({}, { groupId: 1, name: "x".repeat(70) })).failures).toEqual([]);
  });

  it("and confirms the credentials once per group it will create in (a list), nothing else", async () => {
    const log = await h.requests();
    expect(log.counts).toEqual({ "GET /api/v0/groups/:groupId/roles": 2 });
    expect(log.entries.map((e) => e.path).sort()).toEqual(["/api/v0/groups/1/roles", "/api/v0/groups/42/roles"]);
  });
});
