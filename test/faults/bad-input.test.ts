/**
 * Bad-input corpus (issue 8): invalid Role args (through the provider's `check`, which is what
 * `pulumi preview` runs), role lookups, presence lookups and signals. Every one must fail with an error
 * naming the field, before any HTTP request. The provider and every call are pointed at one emulator
 * that nothing else uses and nothing resets, and each case asserts that its request log did not grow
 * (a final case shows the same log does count a valid call).
 *
 * Unicode: length limits count UTF-16 code units (as the vendor's .NET stack does), in `check`, the
 * lookups and the emulator alike: a name of 35 astral-plane emoji (70 units) is valid; 36 are refused,
 * and the message gives the count in code units. Lone
 * surrogates (not Unicode) and control characters are refused in names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { setStackConfig } from "../../config/stack-config";
import { findVisitor, getRole, getRoles, getVisitorPresence, signalVisitor } from "../../sdk";
import { startHarness, type EmulatorHarness } from "../support/emulator";

type Case = [label: string, field: string, run: () => Promise<unknown> | unknown];

let h: EmulatorHarness;
let options: { baseUrl: string; presenceUrl: string; accessToken: string };
beforeAll(async () => {
  h = await startHarness();
  options = { baseUrl: h.emu.baseUrl, presenceUrl: h.emu.presenceUrl, accessToken: h.emu.token };
  // `check` gets its settings as the host gives them: a request it made would land in this log too.
  const config: Record<string, string> = {
    "grouproles:baseUrl": options.baseUrl,
    "grouproles:accessToken": options.accessToken,
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
});
afterAll(async () => {
  setStackConfig(undefined);
  await h?.close();
});

/** Runs `fn` and returns it with the number of requests the emulator logged meanwhile. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = (await h.requests()).total;
  const result = await fn();
  return { result, requests: (await h.requests()).total - before };
}

const emoji = "😀";
const ok = { groupId: 42, name: "Support" };
function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
}
const manyKeys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`feature${i}`, true]));
const circular: Record<string, unknown> = { a: 1 };
circular.self = circular;

/** Role args through `check`: the failure must name the property (the reason names it too). */
const roleCases: Array<[string, string, Record<string, unknown>]> = [
  ["name empty", "name", { groupId: 42, name: "" }],
  ["name blank", "name", { groupId: 42, name: "   " }],
  ["name only line breaks and tabs", "name", { groupId: 42, name: "\n\t\r" }],
  ["name 71 characters", "name", { groupId: 42, name: "x".repeat(71) }],
  ["name of 36 astral emoji (72 UTF-16 units)", "name", { groupId: 42, name: emoji.repeat(36) }],
  ["name of 70 characters plus a combining accent", "name", { groupId: 42, name: `${"e".repeat(69)}e\u0301` }],
  ["name with a lone surrogate", "name", { groupId: 42, name: "Sup\uD800port" }],
  ["name with a NUL", "name", { groupId: 42, name: "Sup\u0000port" }],
  ["name with a line break", "name", { groupId: 42, name: "Support\nTeam" }],
  ["name a number", "name", { groupId: 42, name: 42 }],
  ["name null", "name", { groupId: 42, name: null }],
  ["name missing", "name", { groupId: 42 }],
  ["name an object", "name", { groupId: 42, name: { en: "Support" } }],
  ["description 256 characters", "description", { ...ok, description: "d".repeat(256) }],
  ["description of 128 emoji (256 UTF-16 units)", "description", { ...ok, description: emoji.repeat(128) }],
  ["description a number", "description", { ...ok, description: 5 }],
  ["description with a lone low surrogate", "description", { ...ok, description: "a\uDC00b" }],
  ["groupId zero", "groupId", { ...ok, groupId: 0 }],
  ["groupId negative", "groupId", { ...ok, groupId: -7 }],
  ["groupId fractional", "groupId", { ...ok, groupId: 1.5 }],
  ["groupId negative fractional", "groupId", { ...ok, groupId: -0.5 }],
  ["groupId a numeric string", "groupId", { ...ok, groupId: "42" }],
  ["groupId NaN", "groupId", { ...ok, groupId: NaN }],
  ["groupId Infinity", "groupId", { ...ok, groupId: Infinity }],
  ["groupId above 2^53", "groupId", { ...ok, groupId: 2 ** 53 + 2 }],
  ["groupId a boolean", "groupId", { ...ok, groupId: true }],
  ["settings an array", "settings", { ...ok, settings: [true] }],
  ["settings a string", "settings", { ...ok, settings: "viewVideo" }],
  ["settings null", "settings", { ...ok, settings: null }],
  ["setting value a string", "settings.viewVideo", { ...ok, settings: { viewVideo: "true" } }],
  ["setting value 1", "settings.viewVideo", { ...ok, settings: { viewVideo: 1 } }],
  ["setting value null", "settings.viewVideo", { ...ok, settings: { viewVideo: null } }],
  ["setting value deeply nested", "settings.viewVideo", { ...ok, settings: { viewVideo: nested(500) } }],
  ["setting name a typo", "settings.remoteAsist", { ...ok, settings: { remoteAsist: true } }],
  ["setting name empty", "settings.", { ...ok, settings: { "": true } }],
  ["setting name with a dot", "settings.view.video", { ...ok, settings: { "view.video": true } }],
  [
    "setting name __proto__",
    "settings.__proto__",
    { ...ok, settings: JSON.parse('{"__proto__": true}') as Record<string, unknown> },
  ],
  ["setting name an emoji", `settings.${emoji}`, { ...ok, settings: { [emoji]: true } }],
  ["setting name 300 characters", "settings.", { ...ok, settings: { ["k".repeat(300)]: true } }],
  ["5000 settings", "settings", { ...ok, settings: manyKeys }],
  ["unknown property", "nmae", { ...ok, nmae: "Support" }],
  ["import ID malformed", "import", { ...ok, importId: "42-1001" }],
  ["import ID in another group", "import", { ...ok, importId: "43/1001" }],
];

/** Lookups, presence and signals: must throw ERR_CONFIGURATION naming the field. */
const callCases: Case[] = [
  ["getRole groupId negative", "groupId", () => getRole({ groupId: -1, name: "Support" }, options)],
  ["getRole groupId fractional", "groupId", () => getRole({ groupId: 2.5, name: "Support" }, options)],
  [
    "getRole groupId a string",
    "groupId",
    () => getRole({ groupId: "42" as unknown as number, name: "Support" }, options),
  ],
  ["getRole neither name nor roleId", "name or roleId", () => getRole({ groupId: 42 }, options)],
  [
    "getRole both name and roleId",
    "name or roleId",
    () => getRole({ groupId: 42, name: "Support", roleId: 1 }, options),
  ],
  ["getRole name blank", "name", () => getRole({ groupId: 42, name: "  " }, options)],
  ["getRole name 71 characters", "name", () => getRole({ groupId: 42, name: "n".repeat(71) }, options)],
  [
    "getRole name of 36 emoji (72 UTF-16 units)",
    "name",
    () => getRole({ groupId: 42, name: emoji.repeat(36) }, options),
  ],
  ["getRole name with a lone surrogate", "name", () => getRole({ groupId: 42, name: "\uDBFFx" }, options)],
  ["getRole roleId zero", "roleId", () => getRole({ groupId: 42, roleId: 0 }, options)],
  ["getRole roleId negative", "roleId", () => getRole({ groupId: 42, roleId: -3 }, options)],
  ["getRole roleId fractional", "roleId", () => getRole({ groupId: 42, roleId: 7.25 }, options)],
  ["getRole roleId a string", "roleId", () => getRole({ groupId: 42, roleId: "7" as unknown as number }, options)],
  ["getRoles groupId zero", "groupId", () => getRoles({ groupId: 0 }, options)],
  ["getRoles args null", "groupId", () => getRoles(null as unknown as { groupId: number }, options)],
  [
    "getVisitorPresence visitorId empty",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "" }, options),
  ],
  [
    "getVisitorPresence visitorId with a space",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "a b" }, options),
  ],
  [
    "getVisitorPresence visitorId 63 characters",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "v".repeat(63) }, options),
  ],
  [
    "getVisitorPresence visitorId with a slash",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "../admin" }, options),
  ],
  [
    "getVisitorPresence visitorId with a query",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "v1&groupid=7" }, options),
  ],
  [
    "getVisitorPresence visitorId accented",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "émile" }, options),
  ],
  [
    "getVisitorPresence visitorId emoji",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: emoji }, options),
  ],
  [
    "getVisitorPresence visitorId trailing newline",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: "visitor1\n" }, options),
  ],
  [
    "getVisitorPresence visitorId a number",
    "visitorId",
    () => getVisitorPresence({ groupId: 42, visitorId: 7 as unknown as string }, options),
  ],
  [
    "getVisitorPresence groupId negative",
    "groupId",
    () => getVisitorPresence({ groupId: -42, visitorId: "v1" }, options),
  ],
  ["findVisitor groupId zero", "groupId", () => findVisitor({ groupId: 0, visitorId: "v1" }, options)],
  ["findVisitor groupId fractional", "groupId", () => findVisitor({ groupId: 3.2, visitorId: "v1" }, options)],
  [
    "findVisitor visitorId with a percent escape",
    "visitorId",
    () => findVisitor({ groupId: 42, visitorId: "v%2F1" }, options),
  ],
  [
    "signalVisitor visitorId with a colon",
    "visitorId",
    () => signalVisitor({ groupId: 42, visitorId: "a:b", message: { mtype: "signal", data: {} } }, options),
  ],
  [
    "signalVisitor message null",
    "message",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: null as never }, options),
  ],
  [
    "signalVisitor message a string",
    "message",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: "hello" as never }, options),
  ],
  [
    "signalVisitor unknown mtype",
    "message.mtype",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "shout", data: {} } as never }, options),
  ],
  [
    "signalVisitor invoke without SERVICE form",
    "message.data.func",
    () =>
      signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "invoke", data: { func: "alert" } } }, options),
  ],
  [
    "signalVisitor invoke with padding",
    "message.data.func",
    () =>
      signalVisitor(
        {
          groupId: 42,
          visitorId: "v1",
          message: { mtype: "invoke", data: { func: " SERVICE.Cobrowse.Visitor.start" } },
        },
        options,
      ),
  ],
  [
    "signalVisitor invoke data a string",
    "message.data",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "invoke", data: "x" } as never }, options),
  ],
  [
    "signalVisitor signal data an array",
    "message.data",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: [1, 2] as never } }, options),
  ],
  [
    "signalVisitor signal data with a Date",
    "message.data.when",
    () =>
      signalVisitor(
        { groupId: 42, visitorId: "v1", message: { mtype: "signal", data: { when: new Date() } } },
        options,
      ),
  ],
  [
    "signalVisitor signal data with NaN",
    "message.data.n",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: { n: NaN } } }, options),
  ],
  [
    "signalVisitor signal data with a function",
    "message.data.f",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: { f: () => 1 } } }, options),
  ],
  [
    "signalVisitor signal data with undefined",
    "message.data.u",
    () =>
      signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: { u: undefined } } }, options),
  ],
  [
    "signalVisitor signal data circular",
    "message.data",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: circular } }, options),
  ],
  [
    "signalVisitor signal data nested 100000 deep",
    "message.data",
    () => signalVisitor({ groupId: 42, visitorId: "v1", message: { mtype: "signal", data: nested(100_000) } }, options),
  ],
];

describe("bad-input corpus: a clear error naming the field, and no HTTP request", () => {
  it.each(roleCases)("Role args: %s", async (_label, field, news) => {
    const {
      result: { failures },
      requests,
    } = await counting(() => provider.check({}, news));
    expect(requests, "HTTP requests made").toBe(0);
    expect(failures.length, JSON.stringify(failures)).toBeGreaterThan(0);
    const named = failures.find((f) => f.property === field || (field.endsWith(".") && f.property.startsWith(field)));
    expect(named, JSON.stringify(failures)).toBeDefined();
    expect(named!.reason.length).toBeGreaterThan(10);
  });

  it.each(callCases)("%s", async (_label, field, run) => {
    const attempt = () =>
      Promise.resolve()
        .then(run)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
    const { result, requests } = await counting(attempt);
    expect(requests, "HTTP requests made").toBe(0);
    const err = result as (Error & { code?: string }) | undefined;
    expect(err, "expected an error").toBeInstanceOf(Error);
    expect(err!.code).toBe("ERR_CONFIGURATION");
    expect(err!.message).toContain(field);
  });

  it("an emoji name is measured in UTF-16 code units, and the message says so", async () => {
    const { failures } = await provider.check({}, { groupId: 42, name: emoji.repeat(36) });
    expect(failures[0].reason).toBe(
      "name must be at most 70 characters, got 72 (UTF-16 code units: an emoji counts 2)",
    );
    expect((await provider.check({}, { groupId: 42, name: emoji.repeat(35) })).failures).toEqual([]);
    expect((await provider.check({}, { groupId: 42, name: "é".repeat(70) })).failures).toEqual([]);
  });

  it("the emulator agrees: 35 emoji pass, 36 are refused, a lone surrogate is refused", async () => {
    // An emulator of its own: the corpus's emulator must see no request at all.
    const other = await startHarness();
    try {
      expect((await other.api("POST", "/groups/9/roles", [{ name: emoji.repeat(35) }])).status).toBe(200);
      expect((await other.api("POST", "/groups/9/roles", [{ name: emoji.repeat(36) }])).status).toBe(400);
      expect((await other.api("POST", "/groups/9/roles", [{ name: "a\uD800" }])).status).toBe(400);
      expect((await other.api("POST", "/groups/9/roles", [{ name: "a\u0000b" }])).status).toBe(400);
    } finally {
      await other.close();
    }
  });

  it("the log the cases read does count requests: a valid lookup and a valid check's create are seen", async () => {
    expect((await counting(() => getRoles({ groupId: 42 }, options))).requests).toBe(1);
    expect((await counting(() => provider.create({ groupId: 42, name: "Counted" }))).requests).toBeGreaterThan(0);
  });

  it("tried at least 40 bad inputs, each refused before any HTTP request", () => {
    const corpus = roleCases.length + callCases.length;
    console.log(
      `bad-input corpus: ${corpus} invalid inputs tried (${roleCases.length} Role args, ${callCases.length} lookups, presence and signal calls)`,
    );
    expect(corpus).toBeGreaterThanOrEqual(40);
    expect(new Set([...roleCases, ...callCases].map(([label]) => label)).size).toBe(corpus);
  });
});
