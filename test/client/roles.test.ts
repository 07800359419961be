import { afterEach, describe, expect, it } from "vitest";
import { GroupRolesClient, UnexpectedReplyError, ConfigurationError } from "../../client";
import { PACKAGE_VERSION } from "../../client/version";
import { reply, startScriptedServer, type ScriptedServer } from "../support/scripted-server";
import { withSeams } from "../../client/seams";

let server: ScriptedServer;
afterEach(() => server?.close());

function client(url: string) {
  return new GroupRolesClient(withSeams({ baseUrl: url, accessToken: "tok-roles-1234" }, { sleep: async () => {} }));
}

describe("roles endpoints", () => {
  it("lists roles as camelCase objects and sends auth, accept and user agent", async () => {
    server = await startScriptedServer((_req, res) =>
      reply(res, 200, [
        { roleId: 1, name: "Agent", inUse: true, description: "desk", userCount: 3, extra: "ignored" },
        { roleId: 2, name: "Viewer", inUse: false },
      ]),
    );
    const roles = await client(server.url).roles.list(7);
    expect(roles).toEqual([
      { roleId: 1, name: "Agent", inUse: true, description: "desk", userCount: 3 },
      { roleId: 2, name: "Viewer", inUse: false },
    ]);
    const [req] = server.requests;
    expect(req.method).toBe("GET");
    expect(req.url).toBe("/api/v0/groups/7/roles");
    expect(req.headers.authorization).toBe("Bearer tok-roles-1234");
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers["user-agent"]).toMatch(
      new RegExp(`^pulumi-grouproles/${PACKAGE_VERSION.replace(/\./g, "\\.")} `),
    );
  });

  it("keeps a base path prefix", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, []));
    const c = new GroupRolesClient({ baseUrl: `${server.url}/tenant-a/`, accessToken: "t-1234" });
    await c.roles.list(3);
    expect(server.requests[0].url).toBe("/tenant-a/api/v0/groups/3/roles");
  });

  it("creates roles with a JSON array and checks the reply matches", async () => {
    server = await startScriptedServer((req, res) => {
      const items = JSON.parse(req.body) as Array<{ name: string }>;
      reply(
        res,
        200,
        items.map((r, i) => ({ roleId: 50 + i, name: r.name, inUse: false })),
      );
    });
    const created = await client(server.url).roles.create(7, [
      { name: "Support", description: "d", settings: { viewVideo: true } },
      { name: "Sales" },
    ]);
    expect(created).toEqual([
      { roleId: 50, name: "Support", inUse: false },
      { roleId: 51, name: "Sales", inUse: false },
    ]);
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/api/v0/groups/7/roles");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual([
      { name: "Support", description: "d", settings: { viewVideo: true } },
      { name: "Sales" },
    ]);
  });

  it("detects a create reply of the wrong length or with other names", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, [{ roleId: 1, name: "A", inUse: false }]));
    const err = await client(server.url)
      .roles.create(7, [{ name: "A" }, { name: "B" }])
      .catch((e) => e);
    expect(err).toBeInstanceOf(UnexpectedReplyError);
    expect(err.code).toBe("ERR_UNEXPECTED_REPLY");
    expect(err.message).toContain("1 roles for 2 requested");
    const err2 = await client(server.url)
      .roles.create(7, [{ name: "Z" }])
      .catch((e) => e);
    expect(err2.message).toContain("another name");
    // a create is never retried after the service may have acted
    expect(server.requests).toHaveLength(2);
  });

  it("reads one role's details", async () => {
    server = await startScriptedServer((_req, res) =>
      reply(res, 200, { roleId: 9, name: "Support", settings: { viewVideo: true, remoteAssist: null } }),
    );
    const role = await client(server.url).roles.get(7, 9);
    expect(role).toEqual({ roleId: 9, name: "Support", settings: { viewVideo: true, remoteAssist: null } });
    expect(server.requests[0].url).toBe("/api/v0/groups/7/roles/9");
  });

  it("updates with PUT on the collection path", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, { status: "ok" }));
    await client(server.url).roles.update(7, [{ roleId: 9, name: "Renamed", settings: { viewVideo: false } }]);
    const [req] = server.requests;
    expect(req.method).toBe("PUT");
    expect(req.url).toBe("/api/v0/groups/7/roles");
    expect(JSON.parse(req.body)).toEqual([{ roleId: 9, name: "Renamed", settings: { viewVideo: false } }]);
  });

  it("deletes with POST delete-roles and an array of ids", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, { status: "ok" }));
    await client(server.url).roles.delete(7, [9, 10]);
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/api/v0/groups/7/delete-roles");
    expect(JSON.parse(req.body)).toEqual([9, 10]);
  });

  it("treats a status other than ok as not applied", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, { status: "partial" }));
    const err = await client(server.url)
      .roles.delete(7, [9])
      .catch((e) => e);
    expect(err).toBeInstanceOf(UnexpectedReplyError);
    expect(err.message).toContain('"partial"');
  });

  it("rejects a reply of the wrong shape with the zod issues", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, [{ roleId: "x", name: 3 }]));
    const err = await client(server.url)
      .roles.list(7, { retry: { maxAttempts: 1 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(UnexpectedReplyError);
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["0.roleId", "0.name", "0.inUse"]),
    );
  });

  it("rejects a reply that is not JSON", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, '[{"roleId": 1,'));
    const err = await client(server.url)
      .roles.list(7, { retry: { maxAttempts: 1 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(UnexpectedReplyError);
    expect(err.message).toContain("not JSON");
  });

  it("refuses bad ids before sending anything", async () => {
    server = await startScriptedServer((_req, res) => reply(res, 200, []));
    const c = client(server.url);
    for (const call of [
      () => c.roles.list(0),
      () => c.roles.list(1.5),
      () => c.roles.get(7, -1),
      () => c.roles.delete(7, [1, 0]),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(ConfigurationError);
    }
    expect(server.requests).toHaveLength(0);
  });
});
