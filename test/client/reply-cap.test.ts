/**
 * No reply grows the client without bound: bodies past `maxReplyBytes` (by default the list of the
 * largest group supported, see client/reply-limits) fail with ERR_REPLY_TOO_LARGE.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GroupRolesClient, ReplyTooLargeError } from "../../client";
import { DEFAULT_MAX_REPLY_BYTES, MAX_GROUP_ROLES, MAX_ROLE_JSON_BYTES } from "../../client/reply-limits";
import { ROLE_FIELDS, TEXT_FIELDS } from "../../client/role-fields";
import { ROLE_NAME_MAX } from "../../client/rules";
import { clientFromConfig, setStackConfig } from "../../config/stack-config";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";

const TOKEN = "tok-reply-cap-secret-1";
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (maxReplyBytes?: number) =>
  new GroupRolesClient({
    accessToken: TOKEN,
    baseUrl: server!.url,
    retry: { maxAttempts: 1 },
    ...(maxReplyBytes ? { maxReplyBytes } : {}),
  });

/** The largest role the service can send: every field at its longest, every character escaped. */
function largestRole(i: number): string {
  const esc = (n: number) => "\\u00e9".repeat(n);
  const settings = Object.fromEntries(Array.from({ length: 64 }, (_, k) => [`s${k}`.padEnd(31, "x"), false]));
  return (
    `{"roleId":${9_000_000_000_000_000 + i},"name":"${esc(ROLE_NAME_MAX)}",` +
    TEXT_FIELDS.map((f) => `"${f}":"${esc(ROLE_FIELDS[f].max)}",`).join("") +
    `"inUse":false,"userCount":9007199254740991,"settings":${JSON.stringify(settings)}}`
  );
}

describe("the reply size cap", () => {
  it("an endless body stops at the cap: ERR_REPLY_TOO_LARGE, the URL, never the token", async () => {
    let written = 0;
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const more = () => {
        if (res.destroyed) return;
        written += 64 * 1024;
        if (res.write(`${'{"roleId":1,"name":"x","inUse":false},'.repeat(1680)}`)) setImmediate(more);
        else res.once("drain", more);
      };
      more();
    });
    const err = await client(1_000_000)
      .roles.list(9)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplyTooLargeError);
    expect(err).toMatchObject({ code: "ERR_REPLY_TOO_LARGE", maxBytes: 1_000_000 });
    expect((err as Error).message).toContain(`${server.url}/api/v0/groups/9/roles`);
    expect((err as Error).message).not.toContain(TOKEN);
    expect(written).toBeLessThan(50_000_000); // it stopped reading, so the server stopped writing
  });

  it("a declared Content-Length over the cap fails before the body is read", async () => {
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "2000000" });
      res.write("[");
    });
    const err = await client(1_000_000)
      .roles.list(9)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ERR_REPLY_TOO_LARGE" });
    expect((err as Error).message).toContain("2000000 bytes (Content-Length)");
  });

  it("a reply of exactly the cap is read whole, declared or not; one byte more is refused", async () => {
    // The declared reply one byte over arrives whole before it is refused: its body, destroyed unread, used
    // to end the process with undici's uncaught "Request aborted" (vitest reports it as an error of the run).
    // A list of one role, padded with spaces (valid JSON) to `size` bytes.
    const body = (size: number) => {
      const role = '[{"roleId":1,"name":"x","inUse":false}]';
      return `${role}${" ".repeat(size - role.length)}`;
    };
    for (const declared of [true, false]) {
      let size = 0;
      server = await startScriptedServer((_req, res) => {
        const text = body(size);
        res.writeHead(200, {
          "content-type": "application/json",
          ...(declared ? { "content-length": String(text.length) } : {}),
        });
        // Two writes, so an undeclared body arrives in more than one chunk.
        res.write(text.slice(0, 100));
        res.end(text.slice(100));
      });
      size = 1_000;
      expect(await client(1_000).roles.list(9), `declared ${declared}`).toHaveLength(1);
      size = 1_001;
      const err = await client(1_000)
        .roles.list(9)
        .catch((e: unknown) => e);
      expect(err, `declared ${declared}`).toMatchObject({ code: "ERR_REPLY_TOO_LARGE", maxBytes: 1_000 });
      await server.close();
      server = undefined;
    }
  });

  it("the default cap holds the list of the largest group supported, at its largest", async () => {
    const roles = Array.from({ length: MAX_GROUP_ROLES }, (_, i) => largestRole(i));
    const body = `[${roles.join(",")}]`;
    expect(Buffer.byteLength(largestRole(0))).toBeLessThanOrEqual(MAX_ROLE_JSON_BYTES);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DEFAULT_MAX_REPLY_BYTES);
    server = await startScriptedServer((_req, res) => reply(res, 200, body));
    const listed = await client().roles.list(9);
    expect(listed).toHaveLength(MAX_GROUP_ROLES);
  });

  it("grouproles:maxReplyBytes (or GROUPROLES_MAX_REPLY_BYTES) sets it", async () => {
    server = await startScriptedServer((_req, res) =>
      reply(res, 200, [{ roleId: 1, name: "A".repeat(60), inUse: false }]),
    );
    const config: Record<string, string> = {
      "grouproles:baseUrl": server.url,
      "grouproles:accessToken": TOKEN,
      "grouproles:maxReplyBytes": "50",
    };
    setStackConfig({ get: (k) => config[k] });
    try {
      const err = await clientFromConfig()
        .roles.list(1)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "ERR_REPLY_TOO_LARGE", maxBytes: 50 });
    } finally {
      setStackConfig(undefined);
    }
  });
});
