/**
 * Secrets (issue 8): a canary access token, set as secret stack config, goes through preview, up,
 * refresh, destroy and a failing up of examples/roles-from-file, through the engine stand-in (`npm test`)
 * and through the real Pulumi CLI (`npm run test:cli`). It must appear nowhere: not in the state (nor
 * `__provider`; with the CLI, no file its backend, project or home directory holds: checkpoints,
 * history, backups, the stack's config, the event log), not in the output of the program, of the CLI or
 * of the dynamic-provider host, not in errors or diagnostics, and not in any request the emulator logged:
 * path, query, body, or any header but the one that must carry it (Authorization: Bearer, sent to the
 * emulator's host). The same for credentials of the authorization service: API keys, a password, the
 * login keys signed with the keys and the tokens issued, which may appear only where they belong (the
 * token request's body; the issued token in the Authorization header to the roles API). A non-loopback
 * http:// address is refused before any request.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineResult } from "../../tools/engine";
import { isSecret } from "../../tools/engine/values";
import { cliStackDirs } from "../../tools/pulumi-cli/run";
import { engineKind, runOperation } from "../e2e/harness";
import { defaultRunner, fileInlineHost } from "../support/program-runner";
import { startHarness, type EmulatorHarness, type RequestCounts } from "../support/emulator";

const CANARY = "canary-7f3e9b1c2d4a5e6f-tok";
const API_KEY = "canary-apikey-41b0c9d8e7f6";
const PASSWORD = "canary-passw0rd-5a6b7c8d";
const formsOf = (secret: string) => [secret, Buffer.from(secret).toString("base64"), encodeURIComponent(secret)];
const forms = formsOf(CANARY);
const programDir = path.resolve(__dirname, "../../examples/roles-from-file");
// Through the stand-in the example runs inline, as the examples' suites run (the secret config reaches it
// in the RunRequest); through the real CLI, in a `cmd/run` process (in PULUMI_CONFIG).
const inlineHost = engineKind() === "stand-in" && defaultRunner() === "inline" ? fileInlineHost(programDir) : undefined;

let h: EmulatorHarness;
let work: string;
let catalogue: string;
let stateFile: string;
const seen: Array<{ where: string; text: string }> = [];

const run = async (
  operation: "preview" | "up" | "refresh" | "destroy",
  config: Record<string, string> = {},
  secretConfig: Record<string, string> = { "grouproles:accessToken": CANARY },
): Promise<EngineResult> => {
  const r = await runOperation({
    operation,
    programDir,
    stack: "dev",
    stateFile,
    config: { "grouproles:baseUrl": h.emu.baseUrl, "roles-from-file:catalogue": catalogue, ...config },
    secretConfig,
    ...(inlineHost ? { inlineHost } : {}),
    // The resources carry the before-delete hook: a destroy runs the program (docs/delete-hooks.md).
    ...(operation === "destroy" ? { runProgram: true } : {}),
  });
  const label = `${operation}${r.ok ? "" : " (failed)"}`;
  seen.push(
    { where: `${label}: program stdout`, text: r.stdout },
    { where: `${label}: program stderr`, text: r.stderr },
    { where: `${label}: provider host stdout`, text: r.providerHost.stdout },
    { where: `${label}: provider host stderr`, text: r.providerHost.stderr },
    { where: `${label}: errors`, text: r.errors.join("\n") },
    { where: `${label}: diagnostics`, text: JSON.stringify(r.diagnostics) },
    {
      where: `${label}: resources in memory (inputs, outputs, __provider)`,
      text: JSON.stringify(r.resources.filter((x) => !x.type.startsWith("pulumi:providers:"))),
    },
    // Pulumi keeps the stack config as the dynamic provider's inputs (target.go GetPackageConfig): the
    // token may be there only marked secret (the state file, checked below, holds it encrypted).
    ...r.resources
      .filter((x) => x.type.startsWith("pulumi:providers:"))
      .map((x) => ({
        where: `${label}: provider resource ${x.urn} outside its secrets`,
        text: JSON.stringify(x.inputs, (_k, v) => (isSecret(v) ? "[secret]" : v)),
      })),
    { where: `${label}: outputs`, text: JSON.stringify(r.outputs) },
  );
  seen.push(...storedTexts(label));
  return r;
};

/**
 * What the engine keeps on disk. The stand-in: its state file. The real CLI: every file under the
 * stack's directory (the file backend's checkpoints, history and backups, the project copy with
 * `Pulumi.dev.yaml`, PULUMI_HOME, the `--event-log` the Automation API also reads), except the gRPC
 * debug log the tests ask for (`PULUMI_DEBUG_GRPC` logs every call in the clear; a user has it only if
 * they ask for it). The state file beside that directory is what `runPulumiCli` exports with
 * `--show-secrets` for tests to read: not scanned. Symbolic links (the project's node_modules) are not followed.
 */
function storedTexts(label: string): Array<{ where: string; text: string }> {
  if (engineKind() === "stand-in") {
    try {
      return [{ where: `${label}: state file`, text: readFileSync(stateFile, "utf8") }];
    } catch {
      return []; // no state file yet (preview of a new stack)
    }
  }
  const base = path.dirname(cliStackDirs(stateFile).backend);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && e !== "grpc.jsonl") files.push(p);
    }
  };
  walk(base);
  return files.map((f) => ({ where: `${label}: ${path.relative(base, f)}`, text: readFileSync(f, "utf8") }));
}

beforeAll(async () => {
  h = await startHarness({
    tokens: [CANARY],
    // This suite searches everything else for the exact tokens and login keys the provider was given.
    logCredentials: true,
    apiKeys: [`77:${API_KEY}`],
    users: [`canary-user:${PASSWORD}:77`],
    tokenLifetimeSeconds: 2,
  });
  work = mkdtempSync(path.join(os.tmpdir(), "secrets-"));
  catalogue = path.join(work, "roles.json");
  stateFile = path.join(work, "state.json");
  writeFileSync(
    catalogue,
    JSON.stringify({
      groupId: 77,
      roles: [
        { key: "support", name: "Support", settings: { viewVideo: true } },
        { key: "sales", name: "Sales" },
      ],
    }),
  );
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  return h?.close();
});

/**
 * Every part of every logged request, except the one legitimate place of the token: an Authorization
 * header of exactly `Bearer <token>` on a request that reached the roles API at its own host.
 */
function requestTexts(entries: RequestCounts["entries"]): Array<{ where: string; text: string }> {
  const host = new URL(h.emu.baseUrl).host;
  return entries.flatMap((e) => {
    const at = `emulator request ${e.method} ${e.path}`;
    const legitimate = e.server === "api" && e.headers.host === host && e.headers.authorization === `Bearer ${CANARY}`;
    expect(legitimate, `${at} carries the token where it belongs`).toBe(true);
    const headers = Object.entries(e.headers).filter(([name]) => name !== "authorization");
    return [
      { where: `${at}: path and query`, text: `${e.path}${e.query}` },
      { where: `${at}: body`, text: e.body },
      ...headers.map(([name, value]) => ({ where: `${at}: header ${name}`, text: `${name}: ${value}` })),
    ];
  });
}

describe("the access token never leaks", () => {
  it("preview, up, refresh, a failing up and destroy: the canary is nowhere", async () => {
    expect((await run("preview")).ok).toBe(true);
    const up = await run("up");
    expect(up.ok, up.errors.join("\n")).toBe(true);
    expect(up.resources.some((r) => JSON.stringify(r.inputs).includes("__provider"))).toBe(true);
    expect((await run("refresh")).ok).toBe(true);
    // A failing up: the service refuses the new role's create (the error text carries request details).
    writeFileSync(
      catalogue,
      JSON.stringify({
        groupId: 77,
        roles: [
          { key: "support", name: "Support" },
          { key: "sales", name: "Sales" },
          { key: "new", name: "New" },
        ],
      }),
    );
    await h.fault({ method: "POST", path: "/api/v0/groups/77/roles", action: "status", status: 401, times: 0 });
    const failing = await run("up");
    await h.admin("DELETE", "/faults");
    expect(failing.ok).toBe(false);
    expect(failing.errors.join("\n")).toMatch(/creating role "New"/);
    expect((await run("destroy")).ok).toBe(true);
    expect(await h.listRoles(77)).toEqual([]);

    const log = await h.requests();
    expect(log.total).toBeGreaterThan(0);
    expect(log.entries).toHaveLength(log.total);
    seen.push(...requestTexts(log.entries));
    const leaks = seen.filter((s) => forms.some((f) => s.text.includes(f))).map((s) => s.where);
    expect(leaks).toEqual([]);
    expect(seen.length).toBeGreaterThan(40);
    // The CLI's own checkpoint was among what was searched (a wrong directory would find nothing to leak).
    if (engineKind() === "cli") expect(seen.some((x) => x.where.includes("backend/.pulumi/stacks/"))).toBe(true);
  }, 180_000);

  it("API keys, passwords, login keys and issued tokens appear only where they belong", async () => {
    seen.length = 0;
    await h.clearRequests();
    writeFileSync(
      catalogue,
      JSON.stringify({
        groupId: 77,
        roles: [
          { key: "support", name: "Support" },
          { key: "sales", name: "Sales" },
        ],
      }),
    );
    const auth = { "grouproles:authUrl": h.emu.authUrl, "grouproles:partnerUserId": "canary-pipeline" };
    const byKey = { "grouproles:apiKeys": JSON.stringify({ "77": API_KEY }) };
    expect((await run("preview", auth, byKey)).ok).toBe(true);
    const up = await run("up", auth, byKey);
    expect(up.ok, up.errors.join("\n")).toBe(true);
    await new Promise((r) => setTimeout(r, 2100)); // the tokens of that run expire; the next runs get new ones
    const byUser = { "grouproles:username": "canary-user", "grouproles:password": PASSWORD };
    expect((await run("refresh", auth, byUser)).ok).toBe(true);
    const wrong = await run(
      "up",
      { ...auth, "roles-from-file:catalogue": catalogue },
      { "grouproles:apiKeys": JSON.stringify({ "77": `${API_KEY}-wrong` }) },
    );
    // No change, but the credential is checked all the same (issue 53), refused naming the key, not its value.
    expect(wrong.ok).toBe(false);
    expect(wrong.errors.join("\n")).toContain("the API key of group 77 (grouproles:apiKeys) was refused");
    writeFileSync(
      catalogue,
      JSON.stringify({
        groupId: 77,
        roles: [
          { key: "support", name: "Support" },
          { key: "sales", name: "Sales" },
          { key: "x", name: "X" },
        ],
      }),
    );
    const refused = await run("up", auth, { "grouproles:apiKeys": JSON.stringify({ "77": `${API_KEY}-wrong` }) });
    expect(refused.ok).toBe(false);
    expect(refused.errors.join("\n")).toContain("the API key of group 77 (grouproles:apiKeys) was refused");
    expect(refused.errors.join("\n")).not.toContain("recorded in state"); // an up uses today's config
    // That up recorded the wrong key as the provider's settings; a refresh configures the provider from
    // state (deployment.go EnsureProvider), so an up with the right key comes first (docs/configuration.md).
    // (A destroy runs the program, `--run-program` for the delete hooks, and so takes today's config.)
    writeFileSync(
      catalogue,
      JSON.stringify({
        groupId: 77,
        roles: [
          { key: "support", name: "Support" },
          { key: "sales", name: "Sales" },
        ],
      }),
    );
    const stale = await run("refresh", auth, byKey);
    expect(stale.ok).toBe(false);
    // The refused key is the one in state, and the error says so (issue 43: "check that it is valid" misled).
    expect(stale.errors.join("\n")).toContain("the API key of group 77 (grouproles:apiKeys) was refused");
    expect(stale.errors.join("\n")).toContain("from the settings the last `pulumi up` recorded in state");
    expect((await run("up", auth, byKey)).ok).toBe(true);
    expect((await run("destroy", auth, byKey)).ok).toBe(true);

    const log = (await h.requests()).entries;
    const authorizations = log.filter((e) => e.route === "/authorize");
    const loginKeys = authorizations
      .map((e) => (JSON.parse(e.body) as { loginKey?: string }).loginKey)
      .filter((k): k is string => !!k);
    const issued = [
      ...new Set(
        log.map((e) => /^Bearer (.+)$/.exec(e.headers.authorization ?? "")?.[1]).filter((t): t is string => !!t),
      ),
    ];
    expect(loginKeys.length).toBeGreaterThanOrEqual(3);
    expect(issued.length).toBeGreaterThanOrEqual(2);
    const secrets = [API_KEY, PASSWORD, ...loginKeys, ...issued];
    for (const e of log) {
      const at = `emulator request ${e.method} ${e.path}`;
      const headers = Object.entries(e.headers).filter(
        ([name]) => name !== "authorization" || e.route === "/authorize",
      );
      // Where a secret belongs: the token request's body (login key or password), and the issued
      // token in the Authorization header of requests to the roles API.
      if (e.route !== "/authorize") seen.push({ where: `${at}: body`, text: e.body });
      seen.push({ where: `${at}: path and query`, text: `${e.path}${e.query}` });
      seen.push(...headers.map(([name, value]) => ({ where: `${at}: header ${name}`, text: `${name}: ${value}` })));
      if (e.route === "/authorize") {
        expect(e.headers.authorization, `${at} carries no bearer token`).toBeUndefined();
        expect(e.body).not.toContain(API_KEY); // the API key never leaves the process
      }
    }
    const leaks = seen
      .filter((s) => secrets.some((secret) => formsOf(secret).some((f) => s.text.includes(f))))
      .map((s) => s.where);
    expect(leaks).toEqual([]);
  }, 180_000);

  it("a non-loopback http:// address is refused with a clear error, before any request", async () => {
    await h.clearRequests();
    const r = await run("up", { "grouproles:baseUrl": "http://roles.example.com" });
    expect(r.ok).toBe(false);
    const text = r.errors.join("\n");
    // Had a request been attempted, the error would be a connection failure (no network here).
    expect(text).toContain("plain http is refused for non-loopback host roles.example.com");
    expect(text).not.toMatch(/ENOTFOUND|EAI_AGAIN|could not connect/);
    expect((await h.requests()).total).toBe(0);
    expect(forms.some((f) => text.includes(f))).toBe(false);
  });
});
