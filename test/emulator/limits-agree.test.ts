/**
 * The client and the emulator state the service's rules separately (client/rules.ts and
 * emulator/service-rules.ts), so that a wrong limit on one side meets the other. This test holds them
 * to the same answers: every boundary value is judged by the client's rule and by the running emulator
 * (over HTTP), and the two must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ROLE_DESCRIPTION_MAX,
  ROLE_NAME_MAX,
  idRule,
  problemOf,
  roleDescriptionRule,
  roleNameRule,
  visitorIdRule,
  VISITOR_FUNC_PATTERN,
  VISITOR_MESSAGE_MAX_BYTES,
} from "../../client/rules";
import { checkVisitorMessage } from "../../client/visitor-message";
import { DESCRIPTION_MAX, INVOKE_FUNC, MAX_SIGNAL_BYTES, NAME_MAX } from "../../emulator/service-rules";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.emu.close());

const emoji = "😀";
let group = 700;

/** The emulator's verdict on a create body: true when it accepts it. */
async function emulatorAccepts(item: Record<string, unknown>): Promise<boolean> {
  const r = await http("POST", h.rolesUrl(group++), { body: [item] });
  if (r.status !== 200 && r.status !== 400) throw new Error(`unexpected ${r.status}: ${r.text}`);
  return r.status === 200;
}

describe("the client's rules and the emulator's agree", () => {
  it("on the limits as numbers", () => {
    expect([ROLE_NAME_MAX, ROLE_DESCRIPTION_MAX, VISITOR_MESSAGE_MAX_BYTES]).toEqual([
      NAME_MAX,
      DESCRIPTION_MAX,
      MAX_SIGNAL_BYTES,
    ]);
  });

  it.each([
    ["at the limit", 0],
    ["one byte over", 1],
  ])("on a visitor message's size: %s", async (_label, over) => {
    const frame = '{"mtype":"signal","data":{"p":""}}';
    const message = { mtype: "signal", data: { p: "x".repeat(VISITOR_MESSAGE_MAX_BYTES - frame.length + over) } };
    const client = (() => {
      try {
        checkVisitorMessage(message);
        return true;
      } catch {
        return false;
      }
    })();
    // Size is judged before presence: a message of an accepted size meets a 404 (no such visitor).
    const r = await http("POST", `${h.emu.directServers[0]}/signalvisitor?groupid=1&visitorid=nobody`, {
      body: message,
    });
    expect(r.status === 413 ? false : r.status === 404 ? true : r.status).toBe(client);
  });

  it.each([
    ["70 letters", "x".repeat(70)],
    ["71 letters", "x".repeat(71)],
    ["35 emoji (70 UTF-16 units)", emoji.repeat(35)],
    ["36 emoji (72 UTF-16 units)", emoji.repeat(36)],
    ["empty", ""],
    ["blank", "   "],
    ["a line break", "a\nb"],
    ["a lone surrogate", "a\uD800"],
    ["accents", "é".repeat(70)],
    ["only zero width spaces", "\u200B\u200B"],
    ["only a Hangul filler", "\u3164"],
    ["a line separator", "a\u2028b"],
    ["a paragraph separator", "a\u2029b"],
    ["a right-to-left override", "admin\u202Etxt.exe"],
    ["a pop directional isolate", "a\u2069"],
    ["a byte order mark", "\uFEFFAdmin"],
    ["only a byte order mark", "\uFEFF"],
    ["an emoji with a zero width joiner", "\u{1F469}\u200D\u{1F4BB} Devs"],
    ["a variation selector", "\u2764\uFE0F Team"],
    ["Hebrew with a right-to-left mark", "\u05E9\u05DC\u05D5\u05DD\u200F"],
  ])("on a name: %s", async (_label, name) => {
    const client = problemOf(roleNameRule, name, "name") === undefined;
    expect(await emulatorAccepts({ name })).toBe(client);
  });

  it.each([
    ["70 letters", "x".repeat(70)],
    ["71 letters", "x".repeat(71)],
    ["36 emoji (72 UTF-16 units)", emoji.repeat(36)],
    ["blank", "  "],
  ])("on a rename (PUT): %s", async (_label, name) => {
    const client = problemOf(roleNameRule, name, "name") === undefined;
    const g = group++;
    const [made] = await h.create(g, [{ name: "Before" }]);
    const r = await http("PUT", h.rolesUrl(g), { body: [{ roleId: made!.roleId, name }] });
    if (r.status !== 200 && r.status !== 400) throw new Error(`unexpected ${r.status}: ${r.text}`);
    expect(r.status === 200).toBe(client);
    // What the group holds afterwards, read back: the rename applied, or nothing changed.
    expect((await h.list(g)).map((x) => x["name"])).toEqual([client ? name : "Before"]);
  });

  it.each([
    ["255 letters", "d".repeat(255)],
    ["256 letters", "d".repeat(256)],
    ["128 emoji (256 units)", emoji.repeat(128)],
    ["a lone surrogate", "\uDC00"],
  ])("on a description: %s", async (_label, description) => {
    const client = problemOf(roleDescriptionRule, description, "description") === undefined;
    expect(await emulatorAccepts({ name: "D", description })).toBe(client);
  });

  it.each([0, -1, 1.5, 2 ** 53, 7])("on a role ID: %s", async (roleId) => {
    const client = problemOf(idRule, roleId, "roleId") === undefined;
    const r = await http("PUT", h.rolesUrl(group++), { body: [{ roleId, name: "N" }] });
    // A valid ID of a role that does not exist is 404, an invalid one 400.
    expect(r.status === 404).toBe(client);
    expect([400, 404]).toContain(r.status);
  });

  it.each([
    ["62 characters", "v".repeat(62)],
    ["63 characters", "v".repeat(63)],
    ["allowed marks", "a-b_c~d"],
    ["a space", "a b"],
    ["a dot", "a.b"],
  ])("on a visitor ID: %s", async (_label, visitorId) => {
    const client = problemOf(visitorIdRule, visitorId, "visitorId") === undefined;
    const r = await http(
      "GET",
      `${h.emu.presenceUrl}/findvisitor?groupid=1&visitorid=${encodeURIComponent(visitorId)}`,
    );
    expect(r.status === 200).toBe(client);
  });

  it.each([
    "SERVICE.Cobrowse.Visitor.startSession",
    "SERVICE.Cobrowse.Agent.startSession",
    "alert",
    "SERVICE.$x.Visitor._y",
  ])("on an invoke function: %s", (func) => {
    expect(INVOKE_FUNC.test(func)).toBe(VISITOR_FUNC_PATTERN.test(func));
  });
});
