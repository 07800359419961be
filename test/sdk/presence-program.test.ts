/**
 * The Output variants and signalVisitor inside a Pulumi program (the Node SDK's runtime under
 * `pulumi.runtime.setMocks`), against a real emulator with real WebSocket visitors.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { connectVisitor, type VisitorConnection } from "../../emulator";
import {
  ConfigurationError,
  findVisitor,
  findVisitorOutput,
  getVisitorPresenceOutput,
  signalVisitor,
  type ConnectionOptions,
  type VisitorMessage,
} from "../../sdk";
import { startHarness, type EmulatorHarness } from "../support/emulator";

const GROUP = 7;
let h: EmulatorHarness;
let opts: ConnectionOptions;
let visitor: VisitorConnection;
const received: VisitorMessage[] = [];
const waiters: Array<() => void> = [];
const nextMessage = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
const registered: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];

const mocks: pulumi.runtime.Mocks = {
  newResource: (args) => {
    registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
    // A resource that hands out the visitor id, so the data functions depend on another resource's output.
    const state = args.type === "test:index:Session" ? { ...args.inputs, visitorId: "program-visitor" } : args.inputs;
    return { id: `${args.name}-id`, state };
  },
  call: (args) => args.inputs,
};

/** The value of an Output, as a program's `apply` sees it. */
function outputValue<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) =>
    o.apply((v) => {
      resolve(v);
      return v;
    }),
  );
}

/** Whether an Output is known (false for an unknown in preview). Reads the SDK's own promise. */
function isKnown(o: pulumi.Output<unknown>): Promise<boolean> {
  return (o as unknown as { isKnown: Promise<boolean> }).isKnown;
}

class Session extends pulumi.CustomResource {
  declare readonly visitorId: pulumi.Output<string>;
  constructor(name: string, args: { groupId: pulumi.Input<number> }) {
    super("test:index:Session", name, { ...args, visitorId: undefined });
  }
}

class Holder extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, pulumi.Input<unknown>>) {
    super("test:index:Holder", name, args);
  }
}

beforeAll(async () => {
  h = await startHarness({ presenceServers: 3 });
  opts = { presenceUrl: h.emu.presenceUrl, accessToken: h.emu.token };
  visitor = await connectVisitor({
    presenceUrl: h.emu.presenceUrl,
    groupId: GROUP,
    visitorId: "program-visitor",
    onSignal: (m) => {
      received.push(m as VisitorMessage);
      for (const w of waiters.splice(0)) w();
    },
  });
});

afterAll(async () => {
  await visitor?.close();
  await h?.close();
});

beforeEach(async () => {
  await pulumi.runtime.setMocks(mocks, "proj", "stack", false);
  received.length = 0;
  registered.length = 0;
  await h.clearRequests();
});

afterEach(() => vi.restoreAllMocks());

describe("Output variants in a program", () => {
  it("getVisitorPresenceOutput takes Inputs from another resource and resolves the typed record", async () => {
    const session = new Session("s", { groupId: GROUP });
    const presence = getVisitorPresenceOutput({ groupId: pulumi.output(GROUP), visitorId: session.visitorId }, opts);
    expect(await outputValue(presence)).toEqual({
      present: true,
      groupId: GROUP,
      visitorId: "program-visitor",
      direct: visitor.server,
      ds: visitor.ds,
      directServer: "127.0.0.1",
      httpsPort: Number(visitor.server.split(":").pop()),
      tlsPort: expect.any(Number),
      visitorPresent: expect.any(Number),
      timestamp: expect.any(Number),
    });
    // Lifted properties work like any Output.
    expect(await outputValue(presence.present)).toBe(true);
    expect((await h.requests()).counts).toEqual({ "GET /lookupvisitor": 1 });
  });

  it("findVisitorOutput takes a whole Input args object and resolves found and not found", async () => {
    const found = findVisitorOutput(pulumi.output({ groupId: GROUP, visitorId: "program-visitor" }), opts);
    const missing = findVisitorOutput({ groupId: GROUP, visitorId: pulumi.output("nobody") }, opts);
    expect(await outputValue(found)).toEqual({
      visitorFound: true,
      ds: visitor.ds,
      direct: visitor.server,
      directServer: "127.0.0.1",
      httpsPort: Number(visitor.server.split(":").pop()),
      tlsPort: expect.any(Number),
    });
    expect(await outputValue(missing)).toEqual({ visitorFound: false });
    expect(await outputValue(getVisitorPresenceOutput({ groupId: GROUP, visitorId: "nobody" }, opts))).toEqual({
      present: false,
      groupId: GROUP,
      visitorId: "nobody",
    });
  });

  it("reads grouproles:presenceUrl and grouproles:accessToken from the stack config", async () => {
    const saved = { url: process.env.GROUPROLES_PRESENCE_URL, token: process.env.GROUPROLES_ACCESS_TOKEN };
    delete process.env.GROUPROLES_PRESENCE_URL;
    delete process.env.GROUPROLES_ACCESS_TOKEN;
    pulumi.runtime.setConfig("grouproles:presenceUrl", h.emu.presenceUrl);
    pulumi.runtime.setConfig("grouproles:accessToken", h.emu.token);
    try {
      expect(
        (await outputValue(findVisitorOutput({ groupId: GROUP, visitorId: "program-visitor" }))).visitorFound,
      ).toBe(true);
    } finally {
      pulumi.runtime.setConfig("grouproles:presenceUrl", "");
      pulumi.runtime.setConfig("grouproles:accessToken", "");
      if (saved.url !== undefined) process.env.GROUPROLES_PRESENCE_URL = saved.url;
      if (saved.token !== undefined) process.env.GROUPROLES_ACCESS_TOKEN = saved.token;
    }
  });

  it("keeps secrets secret and never puts the token into an Output or a resource input", async () => {
    const presence = getVisitorPresenceOutput({ groupId: GROUP, visitorId: pulumi.secret("program-visitor") }, opts);
    expect(await pulumi.isSecret(presence)).toBe(true);
    const found = findVisitorOutput({ groupId: GROUP, visitorId: "program-visitor" }, opts);
    expect(await pulumi.isSecret(found)).toBe(false);
    const holder = new Holder("h", { presence: pulumi.unsecret(presence), found });
    await outputValue(holder.urn);
    const everything = JSON.stringify([
      await outputValue(pulumi.unsecret(presence)),
      await outputValue(found),
      registered,
    ]);
    expect(registered.map((r) => r.type)).toEqual(["test:index:Holder"]);
    expect(everything).toContain("program-visitor");
    expect(everything).not.toContain(h.emu.token);
  });
});

describe("during preview", () => {
  beforeEach(async () => {
    await pulumi.runtime.setMocks(mocks, "proj", "stack", true);
  });

  it("the Output variants still query the live service when their inputs are known", async () => {
    expect(pulumi.runtime.isDryRun()).toBe(true);
    expect(
      (await outputValue(getVisitorPresenceOutput({ groupId: GROUP, visitorId: "program-visitor" }, opts))).present,
    ).toBe(true);
    expect((await h.requests()).counts).toEqual({ "GET /lookupvisitor": 1 });
  });

  it("the Output variants stay unknown, and send nothing, while an input is unknown", async () => {
    const unknownId = pulumi.output(pulumi.unknown) as pulumi.Output<string>;
    const presence = getVisitorPresenceOutput({ groupId: GROUP, visitorId: unknownId }, opts);
    const found = findVisitorOutput({ groupId: GROUP, visitorId: unknownId }, opts);
    expect(await isKnown(presence)).toBe(false);
    expect(await isKnown(found)).toBe(false);
    expect((await h.requests()).total).toBe(0);
  });

  it("signalVisitor sends nothing, says so, and resolves { sent: false }", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const result = await signalVisitor(
      { groupId: GROUP, visitorId: "program-visitor", message: { mtype: "signal", data: { command: "chat" } } },
      opts,
    );
    expect(result).toEqual({ sent: false });
    expect((await h.requests()).total).toBe(0);
    const lines = logged.mock.calls.map((c) => String(c[0]));
    expect(
      lines.some((l) => l.includes("signalVisitor: preview, not sending") && l.includes('"program-visitor"')),
    ).toBe(true);
    // The visitor is there; a message sent now is the first it gets, so the preview sent it nothing.
    expect((await findVisitor({ groupId: GROUP, visitorId: "program-visitor" }, opts)).visitorFound).toBe(true);
    await pulumi.runtime.setMocks(mocks, "proj", "stack", false);
    const marker = nextMessage();
    expect(
      await signalVisitor(
        { groupId: GROUP, visitorId: "program-visitor", message: { mtype: "signal", data: { marker: 1 } } },
        opts,
      ),
    ).toEqual({ sent: true });
    await marker;
    expect(received).toEqual([{ mtype: "signal", data: { marker: 1 } }]);
  });

  it("signalVisitor still validates its arguments and settings in preview", async () => {
    await expect(
      signalVisitor(
        { groupId: GROUP, visitorId: "program-visitor", message: { mtype: "invoke", data: { func: "alert" } } },
        opts,
      ),
    ).rejects.toBeInstanceOf(ConfigurationError);
    await expect(
      signalVisitor({ groupId: GROUP, visitorId: "no spaces", message: { mtype: "signal", data: {} } }, opts),
    ).rejects.toThrow(/^visitorId must be/);
    const saved = process.env.GROUPROLES_PRESENCE_URL;
    delete process.env.GROUPROLES_PRESENCE_URL;
    try {
      await expect(
        signalVisitor(
          { groupId: GROUP, visitorId: "program-visitor", message: { mtype: "signal", data: {} } },
          { accessToken: "t" },
        ),
      ).rejects.toThrow(/GROUPROLES_PRESENCE_URL/);
    } finally {
      if (saved !== undefined) process.env.GROUPROLES_PRESENCE_URL = saved;
    }
    expect((await h.requests()).total).toBe(0);
  });
});
