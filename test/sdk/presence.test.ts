/**
 * getVisitorPresence / findVisitor / signalVisitor against a real emulator with three named presence
 * servers and real WebSocket visitors spread over at least two of them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectVisitor, type VisitorConnection } from "../../emulator";
import {
  ConfigurationError,
  VisitorNotConnectedError,
  findVisitor,
  getVisitorPresence,
  signalVisitor,
  type ConnectionOptions,
  type VisitorMessage,
} from "../../sdk";
import { startHarness, type EmulatorHarness } from "../support/emulator";

const GROUP = 42;
let h: EmulatorHarness;
let opts: ConnectionOptions;

interface Visitor {
  id: string;
  conn: VisitorConnection;
  received: VisitorMessage[];
  /** Resolves with the next message this visitor receives. */
  next(): Promise<VisitorMessage>;
}

async function connect(id: string, groupId = GROUP): Promise<Visitor> {
  const received: VisitorMessage[] = [];
  const waiters: Array<(m: VisitorMessage) => void> = [];
  const conn = await connectVisitor({
    presenceUrl: h.emu.presenceUrl,
    groupId,
    visitorId: id,
    onSignal: (m) => {
      received.push(m as VisitorMessage);
      for (const w of waiters.splice(0)) w(m as VisitorMessage);
    },
  });
  return { id, conn, received, next: () => new Promise((resolve) => waiters.push(resolve)) };
}

/** Proves that every visitor in `others` received nothing so far: a marker sent now must arrive first. */
async function expectNothingElse(others: Visitor[]): Promise<void> {
  for (const v of others) {
    const before = v.received.length;
    const arrived = v.next();
    await signalVisitor(
      { groupId: GROUP, visitorId: v.id, message: { mtype: "signal", data: { marker: v.id } } },
      opts,
    );
    await arrived;
    // Frames on one socket arrive in order, so a stray message would sit before the marker.
    expect(v.received.slice(before)).toEqual([{ mtype: "signal", data: { marker: v.id } }]);
    expect(before).toBe(0);
  }
}

const visitors: Visitor[] = [];

beforeAll(async () => {
  h = await startHarness({ presenceServers: 3 });
  opts = { presenceUrl: h.emu.presenceUrl, accessToken: h.emu.token };
  for (let i = 0; visitors.length < 4 || new Set(visitors.map((v) => v.conn.server)).size < 2; i++) {
    if (i > 40) throw new Error("the emulator put every visitor on one named server");
    visitors.push(await connect(`visitor-${i}_x~y`));
  }
});

afterAll(async () => {
  await Promise.all(visitors.map((v) => v.conn.close()));
  await h?.close();
});

beforeEach(async () => {
  for (const v of visitors) v.received.length = 0;
  await h.clearRequests();
});

describe("getVisitorPresence", () => {
  it("returns the typed record of a present visitor, numbers as numbers", async () => {
    const v = visitors[0];
    const before = Date.now() / 1000;
    const p = await getVisitorPresence({ groupId: GROUP, visitorId: v.id }, opts);
    const port = Number(v.conn.server.split(":").pop());
    expect(p).toEqual({
      present: true,
      groupId: GROUP,
      visitorId: v.id,
      direct: v.conn.server,
      ds: v.conn.ds,
      directServer: "127.0.0.1",
      httpsPort: port,
      tlsPort: expect.any(Number),
      visitorPresent: expect.any(Number),
      timestamp: expect.any(Number),
    });
    expect(p.visitorPresent!).toBeLessThanOrEqual(p.timestamp!);
    expect(p.timestamp!).toBeGreaterThanOrEqual(Math.floor(before));
    expect((await h.requests()).counts).toEqual({ "GET /lookupvisitor": 1 });
  });

  it("reports each visitor on its own named server", async () => {
    const records = await Promise.all(
      visitors.map((v) => getVisitorPresence({ groupId: GROUP, visitorId: v.id }, opts)),
    );
    expect(records.map((r) => r.direct)).toEqual(visitors.map((v) => v.conn.server));
    expect(new Set(records.map((r) => r.ds)).size).toBeGreaterThanOrEqual(2);
  });

  it("answers present: false for an absent visitor, not an error", async () => {
    expect(await getVisitorPresence({ groupId: GROUP, visitorId: "never-here" }, opts)).toEqual({
      present: false,
      groupId: GROUP,
      visitorId: "never-here",
    });
    // Same id in another group is another visitor.
    expect((await getVisitorPresence({ groupId: GROUP + 1, visitorId: visitors[0].id }, opts)).present).toBe(false);
  });

  it("reads the presence URL and token from the environment when no options are given", async () => {
    const saved = { url: process.env.GROUPROLES_PRESENCE_URL, token: process.env.GROUPROLES_ACCESS_TOKEN };
    process.env.GROUPROLES_PRESENCE_URL = h.emu.presenceUrl;
    process.env.GROUPROLES_ACCESS_TOKEN = h.emu.token;
    try {
      expect((await getVisitorPresence({ groupId: GROUP, visitorId: visitors[1].id })).present).toBe(true);
      expect((await findVisitor({ groupId: GROUP, visitorId: visitors[1].id })).visitorFound).toBe(true);
    } finally {
      for (const [k, v] of [
        ["GROUPROLES_PRESENCE_URL", saved.url],
        ["GROUPROLES_ACCESS_TOKEN", saved.token],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe("findVisitor", () => {
  it("finds a present visitor on its named server", async () => {
    for (const v of visitors) {
      const port = Number(v.conn.server.split(":").pop());
      expect(await findVisitor({ groupId: GROUP, visitorId: v.id }, opts)).toEqual({
        visitorFound: true,
        ds: v.conn.ds,
        direct: v.conn.server,
        directServer: "127.0.0.1",
        httpsPort: port,
        tlsPort: expect.any(Number),
      });
    }
    expect((await h.requests()).counts).toEqual({ "GET /findvisitor": visitors.length });
  });

  it("answers { visitorFound: false } and nothing else for an absent visitor", async () => {
    expect(await findVisitor({ groupId: GROUP, visitorId: "never-here" }, opts)).toEqual({ visitorFound: false });
  });
});

describe("signalVisitor", () => {
  it("delivers a signal message to the right visitor only, through the visitor's named server", async () => {
    const [target, ...others] = visitors;
    const arrived = target.next();
    const result = await signalVisitor(
      {
        groupId: GROUP,
        visitorId: target.id,
        message: { mtype: "signal", data: { command: "chat", chatid: "7", nested: { n: 1, list: [true, null] } } },
      },
      opts,
    );
    expect(result).toEqual({ sent: true });
    expect(await arrived).toEqual({
      mtype: "signal",
      data: { command: "chat", chatid: "7", nested: { n: 1, list: [true, null] } },
    });
    const log = await h.requests();
    expect(
      log.entries.map((e) => `${e.server} ${e.method} ${e.path}${(e as typeof e & { query: string }).query}`),
    ).toEqual([
      `presence GET /findvisitor?groupid=${GROUP}&visitorid=${target.id}`,
      `direct POST /signalvisitor?groupid=${GROUP}&visitorid=${target.id}`,
    ]);
    await expectNothingElse(others);
    expect(target.received).toHaveLength(1);
  });

  it("delivers an invoke message to the right visitor only, on another named server", async () => {
    const target = visitors.find((v) => v.conn.server !== visitors[0].conn.server)!;
    const others = visitors.filter((v) => v !== target);
    const arrived = target.next();
    await signalVisitor(
      {
        groupId: GROUP,
        visitorId: target.id,
        message: { mtype: "invoke", data: { func: "SERVICE.Cobrowse.Visitor.startSession" } },
      },
      opts,
    );
    expect(await arrived).toEqual({ mtype: "invoke", data: { func: "SERVICE.Cobrowse.Visitor.startSession" } });
    await expectNothingElse(others);
    expect(target.received).toHaveLength(1);
  });

  it("raises VisitorNotConnectedError for a visitor that was never connected, without posting", async () => {
    const err = await signalVisitor(
      { groupId: GROUP, visitorId: "never-here", message: { mtype: "signal", data: {} } },
      opts,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VisitorNotConnectedError);
    expect(err).toMatchObject({ code: "ERR_VISITOR_NOT_CONNECTED", groupId: GROUP, visitorId: "never-here" });
    expect((await h.requests()).counts).toEqual({ "GET /findvisitor": 1 });
  });
});

describe("a visitor that disconnected", () => {
  it("is reported absent by lookup and find, and cannot be signalled", async () => {
    const v = await connect("leaving-visitor");
    expect((await getVisitorPresence({ groupId: GROUP, visitorId: v.id }, opts)).present).toBe(true);
    await v.conn.close();
    expect(await getVisitorPresence({ groupId: GROUP, visitorId: v.id }, opts)).toEqual({
      present: false,
      groupId: GROUP,
      visitorId: v.id,
    });
    expect(await findVisitor({ groupId: GROUP, visitorId: v.id }, opts)).toEqual({ visitorFound: false });
    const err = await signalVisitor(
      { groupId: GROUP, visitorId: v.id, message: { mtype: "signal", data: { late: true } } },
      opts,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VisitorNotConnectedError);
    expect((err as Error).message).toContain('"leaving-visitor"');
    expect(v.received).toEqual([]);
    expect((await h.requests()).counts["POST /signalvisitor"]).toBeUndefined();
  });
});

describe("validation, before any request", () => {
  const v = (): string => visitors[0].id;
  const signal = { mtype: "signal", data: {} } as const;
  const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
    [
      "groupId missing",
      () => getVisitorPresence({ visitorId: v() } as never, opts),
      /^groupId is required \(a positive integer\)$/,
    ],
    [
      "groupId zero",
      () => findVisitor({ groupId: 0, visitorId: v() }, opts),
      /^groupId must be a positive integer, got 0/,
    ],
    [
      "groupId negative",
      () => getVisitorPresence({ groupId: -3, visitorId: v() }, opts),
      /^groupId must be a positive integer/,
    ],
    [
      "groupId fractional",
      () => findVisitor({ groupId: 1.5, visitorId: v() }, opts),
      /^groupId must be a positive integer, got 1\.5/,
    ],
    [
      "groupId as text",
      () => signalVisitor({ groupId: "42" as never, visitorId: v(), message: signal }, opts),
      /^groupId must be a positive integer, got string "42"/,
    ],
    [
      "visitorId missing",
      () => findVisitor({ groupId: GROUP } as never, opts),
      /^visitorId must be 1 to 62 characters/,
    ],
    [
      "visitorId empty",
      () => getVisitorPresence({ groupId: GROUP, visitorId: "" }, opts),
      /^visitorId must be 1 to 62 characters/,
    ],
    ["visitorId 63 chars", () => findVisitor({ groupId: GROUP, visitorId: "a".repeat(63) }, opts), /\(63 characters\)/],
    [
      "visitorId with a space",
      () => getVisitorPresence({ groupId: GROUP, visitorId: "a b" }, opts),
      /letters, digits, '-', '_' and '~', got "a b"/,
    ],
    [
      "visitorId with a slash",
      () => signalVisitor({ groupId: GROUP, visitorId: "a/b", message: signal }, opts),
      /^visitorId must be/,
    ],
    ["args missing", () => findVisitor(undefined as never, opts), /^args must be an object/],
    [
      "message missing",
      () => signalVisitor({ groupId: GROUP, visitorId: v() } as never, opts),
      /^message must be an object \{ mtype, data \}, got undefined/,
    ],
    [
      "message not an object",
      () => signalVisitor({ groupId: GROUP, visitorId: v(), message: "hi" as never }, opts),
      /^message must be an object/,
    ],
    [
      "mtype unknown",
      () => signalVisitor({ groupId: GROUP, visitorId: v(), message: { mtype: "shout", data: {} } as never }, opts),
      /^message\.mtype must be "invoke" or "signal", got "shout"/,
    ],
    [
      "signal data an array",
      () => signalVisitor({ groupId: GROUP, visitorId: v(), message: { mtype: "signal", data: [] as never } }, opts),
      /^message\.data must be a JSON object for mtype "signal", got an array/,
    ],
    [
      "signal data missing",
      () => signalVisitor({ groupId: GROUP, visitorId: v(), message: { mtype: "signal" } as never }, opts),
      /^message\.data must be a JSON object/,
    ],
    [
      "signal data not JSON",
      () =>
        signalVisitor(
          { groupId: GROUP, visitorId: v(), message: { mtype: "signal", data: { at: new Date(0) } } },
          opts,
        ),
      /^message\.data\.at must be plain JSON \(null, boolean, number, string, array or object\), got a Date \(send date\.toISOString\(\) or a number\)$/,
    ],
    [
      "signal data NaN",
      () =>
        signalVisitor({ groupId: GROUP, visitorId: v(), message: { mtype: "signal", data: { n: [1, NaN] } } }, opts),
      /^message\.data\.n\[1\] must be a finite number/,
    ],
    [
      "invoke func missing",
      () => signalVisitor({ groupId: GROUP, visitorId: v(), message: { mtype: "invoke", data: {} as never } }, opts),
      /^message\.data\.func must have the form SERVICE\.<Module>\.Visitor\.<function>, got undefined/,
    ],
    [
      "invoke func bad shape",
      () =>
        signalVisitor(
          { groupId: GROUP, visitorId: v(), message: { mtype: "invoke", data: { func: "startSession" } } },
          opts,
        ),
      /^message\.data\.func must have the form/,
    ],
    [
      "invoke func agent side",
      () =>
        signalVisitor(
          {
            groupId: GROUP,
            visitorId: v(),
            message: { mtype: "invoke", data: { func: "SERVICE.Presence.Agent.connect" } },
          },
          opts,
        ),
      /^message\.data\.func must have the form/,
    ],
  ];

  it.each(cases)("%s: ConfigurationError naming the field, zero HTTP requests", async (_name, call, message) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err).toMatchObject({ code: "ERR_CONFIGURATION" });
    expect((err as Error).message).toMatch(message);
    expect((await h.requests()).total).toBe(0);
    expect(visitors.every((x) => x.received.length === 0)).toBe(true);
  });

  it("reports missing settings by config key and variable, before any request", async () => {
    const saved = { url: process.env.GROUPROLES_PRESENCE_URL, token: process.env.GROUPROLES_ACCESS_TOKEN };
    delete process.env.GROUPROLES_PRESENCE_URL;
    delete process.env.GROUPROLES_ACCESS_TOKEN;
    try {
      await expect(findVisitor({ groupId: GROUP, visitorId: v() }, { accessToken: h.emu.token })).rejects.toThrow(
        /grouproles:presenceUrl.*GROUPROLES_PRESENCE_URL/,
      );
      await expect(
        getVisitorPresence({ groupId: GROUP, visitorId: v() }, { presenceUrl: h.emu.presenceUrl }),
      ).rejects.toThrow(/grouproles:accessToken.*GROUPROLES_ACCESS_TOKEN/);
    } finally {
      if (saved.url !== undefined) process.env.GROUPROLES_PRESENCE_URL = saved.url;
      if (saved.token !== undefined) process.env.GROUPROLES_ACCESS_TOKEN = saved.token;
    }
    expect((await h.requests()).total).toBe(0);
  });

  it("never puts the token in an error", async () => {
    const err = (await findVisitor(
      { groupId: GROUP, visitorId: v() },
      { presenceUrl: h.emu.presenceUrl, accessToken: "wrong-token-5c2e9a" },
    ).catch((e: unknown) => e)) as Error;
    expect(err).toMatchObject({ code: "ERR_AUTHENTICATION", status: 401 });
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain("wrong-token-5c2e9a");
  });
});
