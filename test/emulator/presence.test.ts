import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WirePresenceRecord, WireVisitorLocation, type WireVisitorMessage } from "../../client/wire";
import { connectVisitor, type VisitorConnection } from "../../emulator";
import { waitFor } from "../support/wait";
import { type EmulatorHarness as Harness, startHarness as harness } from "../support/emulator";
import { http } from "../support/http";

let h: Harness;
beforeAll(async () => {
  h = await harness({ presenceServers: 3 });
});
afterAll(() => h.emu.close());

const GROUP = 77;
const q = (visitorId: string, group = GROUP): string =>
  new URLSearchParams({ groupid: String(group), visitorid: visitorId }).toString();
const find = (v: string): Promise<{ status: number; json: unknown }> =>
  http("GET", `${h.emu.presenceUrl}/findvisitor?${q(v)}`);
const lookup = (v: string): Promise<{ status: number; json: unknown }> =>
  http("GET", `${h.emu.presenceUrl}/lookupvisitor?${q(v)}`);

/** Connects visitors until every named server holds at least one; returns one per server index. */
async function visitorsOnEveryServer(
  received: Map<string, WireVisitorMessage[]>,
): Promise<Array<{ id: string; conn: VisitorConnection }>> {
  const byServer = new Map<string, { id: string; conn: VisitorConnection }>();
  for (let i = 0; byServer.size < h.emu.directServers.length && i < 200; i++) {
    const id = `visitor-${i}`;
    received.set(id, []);
    const conn = await connectVisitor({
      presenceUrl: h.emu.presenceUrl,
      groupId: GROUP,
      visitorId: id,
      onSignal: (m) => received.get(id)?.push(m),
    });
    if (byServer.has(conn.server)) await conn.close();
    else byServer.set(conn.server, { id, conn });
  }
  return h.emu.directServers.map((url) => {
    const v = byServer.get(new URL(url).host);
    if (!v) throw new Error(`no visitor landed on ${url}`);
    return v;
  });
}

describe("presence", () => {
  it("absent visitors: lookup {} and find {visitorfound:false}", async () => {
    const l = await lookup("nobody");
    expect(l.status).toBe(200);
    expect(l.json).toEqual({});
    const f = await find("nobody");
    expect(f.status).toBe(200);
    expect(f.json).toEqual({ visitorfound: false });
  });

  it("assigns visitors deterministically across named servers and signals reach the right one only", async () => {
    const received = new Map<string, WireVisitorMessage[]>();
    const visitors = await visitorsOnEveryServer(received);
    try {
      for (const [index, { id, conn }] of visitors.entries()) {
        const port = Number(new URL(h.emu.directServers[index] as string).port);
        // find: the spec's wire forms
        const f = await find(id);
        expect(WireVisitorLocation.parse(f.json)).toEqual({
          visitorfound: true,
          ds: `127.0.0.1/${index}`,
          direct: `127.0.0.1:${port}`,
          directserver: "127.0.0.1",
          tlsport: 5501 + index,
          httpsport: port,
        });
        expect(conn.server).toBe(`127.0.0.1:${port}`);
        // lookup: full presence record
        const l = await lookup(id);
        const rec = WirePresenceRecord.parse(l.json);
        expect(rec).toMatchObject({
          direct: `127.0.0.1:${port}`,
          ds: `127.0.0.1/${index}`,
          visitorid: id,
          groupid: String(GROUP),
          httpsport: port,
        });
        expect(rec.visitorpresent).toMatch(/^\d{10}\.\d{3}$/);
        expect(rec.timestamp).toMatch(/^\d{10}\.\d{3}$/);
        // the same visitor id always gets the same server
        const again = await http("GET", `${h.emu.presenceUrl}/assign?${q(id)}`, { token: null });
        expect(again.json).toMatchObject({ index, direct: `127.0.0.1:${port}` });
      }

      const first = visitors[0] as { id: string };
      const second = visitors[1] as { id: string };
      const msg = { mtype: "signal", data: { command: "hello", chatid: "c1" } };
      const ok = await http("POST", `${h.emu.directServers[0]}/signalvisitor?${q(first.id)}`, { body: msg });
      expect(ok.status).toBe(200);
      expect(ok.json).toEqual({ status: "ok" });
      const invoke = { mtype: "invoke", data: { func: "SERVICE.Cobrowse.Visitor.startSession" } };
      expect(
        (await http("POST", `${h.emu.directServers[1]}/signalvisitor?${q(second.id)}`, { body: invoke })).status,
      ).toBe(200);
      const got = (id: string) => received.get(id)?.length ?? 0;
      await waitFor(() => got(first.id) === 1 && got(second.id) === 1, "both signals");
      expect(received.get(first.id)).toEqual([msg]);
      expect(received.get(second.id)).toEqual([invoke]);
      for (const [id, msgs] of received) if (id !== first.id && id !== second.id) expect(msgs, id).toEqual([]);

      // the wrong named server refuses, naming where the visitor is
      const wrong = await http("POST", `${h.emu.directServers[1]}/signalvisitor?${q(first.id)}`, { body: msg });
      expect(wrong.status).toBe(404);
      expect(wrong.json).toMatchObject({ code: "wrong_server" });
      expect((wrong.json as { message: string }).message).toContain("127.0.0.1/0");
    } finally {
      await Promise.all(visitors.map((v) => v.conn.close()));
    }
  });

  it("after disconnect the visitor is absent and cannot be signalled", async () => {
    const conn = await connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: GROUP, visitorId: "leaver" });
    expect(await find("leaver")).toMatchObject({ json: { visitorfound: true } });
    const index = h.emu.directServers.findIndex((u) => new URL(u).host === conn.server);
    await conn.close();
    expect((await find("leaver")).json).toEqual({ visitorfound: false });
    expect((await lookup("leaver")).json).toEqual({});
    const r = await http("POST", `${h.emu.directServers[index]}/signalvisitor?${q("leaver")}`, {
      body: { mtype: "signal", data: {} },
    });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: "visitor_not_present" });
  });

  it("visitors are per group", async () => {
    const conn = await connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: GROUP, visitorId: "grouped" });
    try {
      const other = await http("GET", `${h.emu.presenceUrl}/findvisitor?${q("grouped", GROUP + 1)}`);
      expect(other.json).toEqual({ visitorfound: false });
    } finally {
      await conn.close();
    }
  });

  it("400 for bad messages: unknown mtype, invoke without a SERVICE.<Module>.Visitor.<fn> func, non-object data, broken JSON", async () => {
    const conn = await connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: GROUP, visitorId: "target" });
    const url = `http://${conn.server}/signalvisitor?${q("target")}`;
    try {
      for (const body of [
        { mtype: "shout", data: {} },
        { mtype: "invoke", data: {} },
        { mtype: "invoke", data: { func: "startSession" } },
        { mtype: "invoke", data: { func: "SERVICE.Cobrowse.Agent.startSession" } },
        { mtype: "signal", data: "text" },
        { mtype: "signal" },
      ]) {
        const r = await http("POST", url, { body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.json).toMatchObject({ code: "invalid_message" });
      }
      const broken = await http("POST", url, { body: "{", raw: true });
      expect(broken.status).toBe(400);
      expect(broken.json).toMatchObject({ code: "malformed_json" });
    } finally {
      await conn.close();
    }
  });

  it("400 for invalid visitor ids and group ids, on the load balancer, named servers and WebSocket", async () => {
    for (const v of ["", "a".repeat(63), "has space", "a/b", "é"]) {
      const r = await http("GET", `${h.emu.presenceUrl}/findvisitor?${q(v)}`);
      expect(r.status, v).toBe(400);
      expect(r.json).toMatchObject({ code: "validation_failed" });
    }
    expect((await http("GET", `${h.emu.presenceUrl}/findvisitor?${q("a".repeat(62))}`)).status).toBe(200);
    expect((await http("GET", `${h.emu.presenceUrl}/lookupvisitor?groupid=x&visitorid=v`)).status).toBe(400);
    expect((await http("GET", `${h.emu.presenceUrl}/lookupvisitor?visitorid=v`)).status).toBe(400);
    const sig = await http("POST", `${h.emu.directServers[0]}/signalvisitor?${q("bad id")}`, {
      body: { mtype: "signal", data: {} },
    });
    expect(sig.status).toBe(400);
    await expect(
      connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: GROUP, visitorId: "bad id" }),
    ).rejects.toThrow(/400/);
    await expect(connectVisitor({ presenceUrl: h.emu.presenceUrl, groupId: 0, visitorId: "ok" })).rejects.toThrow(
      /400/,
    );
  });

  it("a newer connection of the same visitor replaces the older one", async () => {
    const codes: number[] = [];
    const received: unknown[] = [];
    const first = await connectVisitor({
      presenceUrl: h.emu.presenceUrl,
      groupId: GROUP,
      visitorId: "twice",
      onClose: (c) => codes.push(c),
    });
    const second = await connectVisitor({
      presenceUrl: h.emu.presenceUrl,
      groupId: GROUP,
      visitorId: "twice",
      onSignal: (m) => received.push(m),
    });
    try {
      await waitFor(() => codes.length === 1, "the close code");
      expect(codes).toEqual([4000]);
      expect((await find("twice")).json).toMatchObject({ visitorfound: true });
      expect(
        (
          await http("POST", `http://${second.server}/signalvisitor?${q("twice")}`, {
            body: { mtype: "signal", data: { n: 1 } },
          })
        ).status,
      ).toBe(200);
      await waitFor(() => received.length === 1, "the signal");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
