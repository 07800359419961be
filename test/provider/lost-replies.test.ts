/**
 * When a write may have been applied although no usable reply came back (provider/shared/lost-replies.ts):
 * which errors leave it open (known answers on fixed inputs), and how an update or a delete is then
 * settled by reading each role back from an emulator on loopback (what it holds, never what was sent).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GroupRolesClient } from "../../client";
import type { RoleUpdateInput } from "../../client/types";
import { ConnectionError, UnexpectedReplyError } from "../../client/errors";
import { ConflictError, ServerError, ValidationError } from "../../client/status-errors";
import { ConnectTimeoutError, HeadersTimeoutError, BodyTimeoutError } from "../../client/timeout-errors";
import { deleteApplied, isAmbiguous, updateApplied } from "../../provider/shared/lost-replies";
import { type EmulatorHarness, startHarness } from "../support/emulator";

const opts = {};
const status = (s: number) => ({ status: s });

describe("isAmbiguous: the write may have been applied", () => {
  it("after the request was sent: a dropped connection, a reply or body timeout, a 5xx, a malformed reply", () => {
    expect(isAmbiguous(new ConnectionError("socket hang up", true, opts))).toBe(true);
    expect(isAmbiguous(new HeadersTimeoutError(1_000, opts))).toBe(true);
    expect(isAmbiguous(new BodyTimeoutError(1_000, opts))).toBe(true);
    expect(isAmbiguous(new ServerError("boom", status(503)))).toBe(true);
    expect(isAmbiguous(new UnexpectedReplyError("not JSON", undefined, opts))).toBe(true);
  });

  it("not when the request never left, or the service answered a clear no", () => {
    expect(isAmbiguous(new ConnectionError("ECONNREFUSED", false, opts))).toBe(false);
    expect(isAmbiguous(new ConnectTimeoutError(1_000, opts))).toBe(false);
    expect(isAmbiguous(new ValidationError("bad", status(422)))).toBe(false);
    expect(isAmbiguous(new ConflictError("taken", status(409)))).toBe(false);
    expect(isAmbiguous(new Error("plain"))).toBe(false);
  });
});

describe("settling a write by reading each role back", () => {
  let h: EmulatorHarness;
  let client: GroupRolesClient;
  beforeAll(async () => {
    h = await startHarness();
    client = new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token, retry: { maxAttempts: 1 } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.admin("POST", "/reset"));
  const g = 42;
  const failedRead = { method: "GET", path: `/api/v0/groups/${g}/roles/*`, action: "status", status: 503 };

  it("an update is applied when every role reads back with its name, text and each setting sent", async () => {
    const [a, b] = await client.roles.create(g, [
      { name: "A", description: "a", settings: { viewVideo: true, chat: false } },
      { name: "B", settings: { chat: true } },
    ]);
    const sent: RoleUpdateInput[] = [
      { roleId: a!.roleId, name: "A", description: "a", settings: { viewVideo: true, chat: false } },
      { roleId: b!.roleId, name: "B", settings: { chat: true } },
    ];
    expect(await updateApplied(client, g, sent)).toBe(true);
    // One setting the service holds otherwise, in the last role: not applied.
    expect(await updateApplied(client, g, [sent[0]!, { ...sent[1]!, settings: { chat: false } }])).toBe(false);
    // A key sent that the role does not hold.
    expect(await updateApplied(client, g, [{ ...sent[0]!, settings: { viewVideo: true, record: true } }])).toBe(false);
    // `null` unsets: applied only when the role no longer holds the key.
    expect(await updateApplied(client, g, [{ ...sent[0]!, settings: { chat: null } }])).toBe(false);
    expect(await updateApplied(client, g, [{ ...sent[0]!, settings: { record: null } }])).toBe(true);
    // The name or a text field read back otherwise.
    expect(await updateApplied(client, g, [{ ...sent[0]!, name: "A2" }])).toBe(false);
    expect(await updateApplied(client, g, [{ ...sent[0]!, description: "other" }])).toBe(false);
  });

  it("an update whose role cannot be read is not taken as applied", async () => {
    const [a] = await client.roles.create(g, [{ name: "A" }]);
    expect(await updateApplied(client, g, [{ roleId: a!.roleId + 1, name: "A" }])).toBe(false);
    await h.fault(failedRead);
    expect(await updateApplied(client, g, [{ roleId: a!.roleId, name: "A" }])).toBe(false);
    expect(await updateApplied(client, g, [{ roleId: a!.roleId, name: "A" }])).toBe(true);
  });

  it("a delete is applied only when each role's own read answers 404", async () => {
    const [a, b] = await client.roles.create(g, [{ name: "A" }, { name: "B" }]);
    await client.roles.delete(g, [a!.roleId]);
    expect(await deleteApplied(client, g, [a!.roleId])).toBe(true);
    // One of them still there, first or last: not applied.
    expect(await deleteApplied(client, g, [a!.roleId, b!.roleId])).toBe(false);
    expect(await deleteApplied(client, g, [b!.roleId, a!.roleId])).toBe(false);
    // A read that fails otherwise is no proof of a delete.
    await h.fault(failedRead);
    expect(await deleteApplied(client, g, [a!.roleId])).toBe(false);
  });
});
