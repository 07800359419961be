/**
 * One POST of a GroupRoles apply's new roles (provider/group-roles/create-chunk.ts), called directly:
 * what it sends, how a name taken since the plan's list is reported, and what a lost reply leaves
 * (roles found by name among those the POST did not know, the rest reported not created or kept as
 * unknown). Against the emulator, whose roles and request log are the outcome; the watch after a
 * timeout against an in-memory service on fake timers (its window is seconds long).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GroupRolesClient, NameTakenError } from "../../client";
import { HeadersTimeoutError } from "../../client/timeout-errors";
import type { RoleCreateInput, RoleSummary } from "../../client/types";
import { createChunk, type NewRole } from "../../provider/group-roles/create-chunk";
import { deploymentLedger, inNewDeployment, resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { startHarness, type EmulatorHarness } from "../support/emulator";

let h: EmulatorHarness;
let client: GroupRolesClient;
beforeAll(async () => {
  h = await startHarness();
  client = new GroupRolesClient({ baseUrl: h.emu.baseUrl, accessToken: h.emu.token, retry: { maxAttempts: 1 } });
});
afterAll(() => h.close());
beforeEach(async () => {
  resetDeploymentLedger();
  await h.admin("POST", "/reset");
});

const POSTS = { method: "POST", path: "/api/v0/groups/42/roles" };
const LIST = "GET /api/v0/groups/:groupId/roles";
const POST = "POST /api/v0/groups/:groupId/roles";
const newRoles = (...names: string[]): NewRole[] => names.map((name) => ({ key: name.toLowerCase(), entry: { name } }));
const routes = async () => (await h.requests()).entries.map((e) => `${e.method} ${e.route}`);
/** Roles made by hand (not by the POST under test): name to roleId. */
async function byHand(...names: string[]): Promise<Record<string, number>> {
  const made = await h.create(
    42,
    names.map((name) => ({ name })),
  );
  await h.clearRequests();
  return Object.fromEntries(made.map((r) => [r.name, r.roleId]));
}

describe("what the POST sends", () => {
  it("each entry's description and settings reach the service; an entry without them gets the defaults", async () => {
    const chunk: NewRole[] = [
      { key: "desk", entry: { name: "Desk", description: "Front desk", settings: { viewVideo: true } } },
      { key: "plain", entry: { name: "Plain" } },
    ];
    const outcome = await createChunk(client, 42, chunk, new Set());
    expect(outcome.error).toBeUndefined();
    const held = Object.fromEntries((await h.listRoles(42)).map((r) => [r.name, r.roleId]));
    expect(outcome.made.map((m) => [m.key, m.roleId])).toEqual([
      ["desk", held.Desk],
      ["plain", held.Plain],
    ]);
    const desk = await h.details(42, held.Desk!);
    expect(desk.description).toBe("Front desk");
    expect(desk.settings.viewVideo).toBe(true);
    const plain = await h.details(42, held.Plain!);
    expect(plain.description).toBe("");
    expect(plain.settings.viewVideo).not.toBe(true);
  });
});

describe("a name taken since the plan's list (409)", () => {
  it("names the holder as one this resource does not manage, offers adoptExisting, and creates nothing", async () => {
    const { Taken } = await byHand("Taken");
    const outcome = await inNewDeployment(() => createChunk(client, 42, newRoles("Free", "Taken"), new Set()));
    expect(outcome.made).toEqual([]);
    expect(outcome.unknown).toEqual([]);
    const error = outcome.error as NameTakenError;
    expect(error).toBeInstanceOf(NameTakenError);
    const [head, line, advice, ...rest] = error.message.split("\n");
    expect(head).toBe(
      "group 42 already has a role with a name this resource declares; the request that met them created nothing:",
    );
    expect(line).toBe(`  roles.taken: "Taken" is held by roleId ${Taken}, which this resource does not manage`);
    expect(advice).toMatch(/^To take a role that holds the name of an added entry over .* set `adoptExisting: true`/);
    expect(rest).toEqual([]);
    // the service's own refusal is kept as the cause
    expect((error.cause as Error).message).toMatch(/service answered 409 name_conflict: .*"Taken" is already used/);
    expect(Object.keys(await byName())).toEqual(["Taken"]);
  });

  it("names holders this deployment made or declares as another resource's, with the advice to declare each once", async () => {
    const { Made, Declared } = await byHand("Made", "Declared");
    const outcome = await inNewDeployment(() => {
      deploymentLedger().creates.noteMade(42, Made!);
      deploymentLedger().declarations.declare(42, Declared!, { currentName: "Declared", plannedName: "Declared" });
      return createChunk(client, 42, newRoles("Made", "Declared"), new Set());
    });
    const [head, ...lines] = (outcome.error as Error).message.split("\n");
    expect(head).toMatch(/^group 42 already has roles with names this resource declares; /);
    const other = "which another resource of this program (a Role or GroupRoles of the group) declares";
    expect(lines).toEqual([
      `  roles.made: "Made" is held by roleId ${Made}, ${other}`,
      `  roles.declared: "Declared" is held by roleId ${Declared}, ${other}`,
      expect.stringMatching(
        /^Role names are unique within a group: declare each role in one resource only; .*first\.$/,
      ),
    ]);
    expect(lines[2]).not.toContain("adoptExisting");
    expect(Object.keys(await byName()).sort()).toEqual(["Declared", "Made"]);
  });

  it("a 409 whose name no listed role holds is passed on as the service said it", async () => {
    await h.fault({ ...POSTS, action: "status", status: 409 });
    const outcome = await createChunk(client, 42, newRoles("A"), new Set());
    expect(outcome).toMatchObject({ made: [], unknown: [] });
    expect((outcome.error as Error).message).toMatch(
      /^POST \/api\/v0\/groups\/42\/roles: service answered 409 fault_injected: injected fault \(rule \d+\): status 409$/,
    );
    expect(await routes()).toEqual([POST, LIST]);
    expect(await h.listRoles(42)).toEqual([]);
  });
});

describe("a clear refusal", () => {
  it("is returned as it came (the service applied nothing), without listing the group", async () => {
    await h.fault({ ...POSTS, action: "status", status: 422 });
    const outcome = await createChunk(client, 42, newRoles("A", "B"), new Set());
    expect(outcome).toMatchObject({ made: [], unknown: [] });
    expect(outcome.error).toMatchObject({ code: "ERR_VALIDATION" });
    expect((outcome.error as Error).message).toMatch(/^POST \/api\/v0\/groups\/42\/roles: service answered 422 /);
    expect(await routes()).toEqual([POST]);
  });
});

describe("no reply", () => {
  it("and the group cannot be listed: every role is unknown, and the message says how the next up settles it", async () => {
    await h.fault({ ...POSTS, action: "drop-after" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "status", status: 503, times: 0 });
    const outcome = await createChunk(client, 42, newRoles("A", "B"), new Set());
    expect(outcome.made).toEqual([]);
    expect(outcome.unknown).toEqual(["a", "b"]);
    const error = outcome.error as Error & { code: string; cause: Error };
    expect(error.code).toBe("ERR_CONNECTION");
    const [, listFailure] = /failed too \((.*)\); they are/.exec(error.message) ?? [];
    expect(listFailure).toMatch(/^GET \/api\/v0\/groups\/42\/roles: service answered 503 /);
    expect(error.message).toBe(
      `no reply (${error.cause.message}), and listing the group to find out whether the roles were created failed ` +
        `too (${listFailure}); they are kept in state as unconfirmed (as made, if the list taken after the failure ` +
        "finds them), and the next `pulumi up` adopts those that " +
        "were created and creates the others",
    );
  });

  it("a first list that is short (it leaves out a role made) is read again before any is said not created", async () => {
    // The Role create's case of simulation history 57625 (docs/simulation.md), for a catalogue's POST.
    await h.fault({ ...POSTS, action: "drop-after" });
    await h.fault({ method: "GET", path: "/api/v0/groups/42/roles", action: "wrong-shape" });
    const outcome = await createChunk(client, 42, newRoles("A", "B"), new Set());
    const sent = await routes();
    const made = await byName();
    expect(outcome.made).toEqual([
      { key: "a", roleId: made.A, inUse: false, userCount: 0 },
      { key: "b", roleId: made.B, inUse: false, userCount: 0 },
    ]);
    expect(outcome.error).toBeUndefined();
    expect(sent).toEqual([POST, LIST, LIST]);
  });

  it("(5xx): roles the POST did not know that hold its names are its own; the others were not created", async () => {
    const held = await byHand("A", "B");
    await h.fault({ ...POSTS, action: "status", status: 500 });
    const outcome = await createChunk(client, 42, newRoles("A", "B", "C"), new Set());
    expect(outcome.made).toEqual([
      { key: "a", roleId: held.A, inUse: false, userCount: 0 },
      { key: "b", roleId: held.B, inUse: false, userCount: 0 },
    ]);
    expect(outcome.unknown).toEqual([]);
    const error = outcome.error as Error & { code: string; cause: Error };
    expect(error.code).toBe("ERR_SERVER");
    expect(error.message).toBe(
      `no reply (${error.cause.message}); the group holds no role named "C", so they were not created`,
    );
    expect(Object.keys(await byName()).sort()).toEqual(["A", "B"]);
  });

  it("a reply naming a role the group held before is not believed: the role made is found by its name", async () => {
    const held = await byHand("Manual");
    await h.fault({ ...POSTS, action: "override", fields: { roleId: held.Manual } });
    const outcome = await createChunk(client, 42, newRoles("A"), new Set([held.Manual!]));
    const service = await byName();
    expect(service.A).not.toBe(held.Manual);
    expect(outcome.made).toEqual([{ key: "a", roleId: service.A, inUse: false, userCount: 0 }]);
  });

  it("a role the group held before the POST is never taken for one it made", async () => {
    const held = await byHand("A");
    await h.fault({ ...POSTS, action: "status", status: 500 });
    const outcome = await createChunk(client, 42, newRoles("A"), new Set([held.A!]));
    expect(outcome.made).toEqual([]);
    expect(outcome.unknown).toEqual([]);
    expect((outcome.error as Error).message).toMatch(/; the group holds no role named "A", so they were not created$/);
  });
});

async function byName(): Promise<Record<string, number>> {
  return Object.fromEntries((await h.listRoles(42)).map((r) => [r.name, r.roleId]));
}

/**
 * A service whose create times out (the reply headers never came) and whose list shows, from its
 * `from`-th list on, the roles given: a create applied late, or never.
 */
function timingOut(landings: Array<{ from: number; role: RoleSummary }>) {
  const service = {
    lists: 0,
    posts: [] as RoleCreateInput[][],
    roles: {
      create: async (_groupId: number, roles: RoleCreateInput[]) => {
        service.posts.push(roles);
        throw new HeadersTimeoutError(100, {});
      },
      list: async () => {
        service.lists++;
        return landings.filter((l) => service.lists >= l.from).map((l) => ({ ...l.role }));
      },
    },
  };
  return service;
}
const role = (roleId: number, name: string): RoleSummary => ({ roleId, name, inUse: false, userCount: 0 });

describe("no reply within the timeout: one list decides, no clock is watched", () => {
  const run = (service: ReturnType<typeof timingOut>, chunk: NewRole[]) =>
    createChunk(service as unknown as GroupRolesClient, 42, chunk, new Set());

  it("roles the list right after the timeout shows are made", async () => {
    const service = timingOut([
      { from: 1, role: role(7, "A") },
      { from: 1, role: role(8, "B") },
    ]);
    const outcome = await run(service, newRoles("A", "B"));
    expect(outcome).toEqual({
      made: [
        { key: "a", roleId: 7, inUse: false, userCount: 0 },
        { key: "b", roleId: 8, inUse: false, userCount: 0 },
      ],
      unknown: [],
    });
    expect([service.posts.length, service.lists]).toEqual([1, 1]);
  });

  it("a role the list does not show yet is kept as unknown (unconfirmed), named in the message", async () => {
    const service = timingOut([
      { from: 1, role: role(7, "A") },
      { from: 2, role: role(8, "B") }, // it lands after the one list: nobody waits for it
    ]);
    const outcome = await run(service, newRoles("A", "B"));
    expect(outcome.made).toEqual([{ key: "a", roleId: 7, inUse: false, userCount: 0 }]);
    expect(outcome.unknown).toEqual(["b"]);
    const error = outcome.error as Error & { code: string };
    expect(error.code).toBe("ERR_HEADERS_TIMEOUT");
    expect(error.message).toBe(
      'no reply (timed out after 100 ms waiting for the reply headers), and the group holds no role named "B" yet; ' +
        "the service may still create them, so they are kept in state as unconfirmed: the next `pulumi up` adopts " +
        "those that appear and creates the others",
    );
    expect(service.lists).toBe(1);
  });
});
