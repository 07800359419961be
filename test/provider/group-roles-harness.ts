/**
 * Calls the GroupRoles provider (the module the host loads) against a fresh emulator, with helpers
 * that read outcomes from the service: its roles, and its request log by route.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import * as provider from "../../provider/group-roles";
import { deploymentLedger, inNewDeployment } from "../../provider/shared/deployment-ledger";
import type { GroupRolesState } from "../../provider/group-roles/types";
import { startHarness, type EmulatorHarness } from "../support/emulator";
import { rejection } from "../support/rejection";

/** The provider's methods as the host calls them, for several calls in one deployment (`inNewDeployment`). */
export { provider as oneDeploymentGroupRoles };

type Provider = typeof provider;
const ownDeployment =
  <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> =>
    inNewDeployment(() => f(...args));

/**
 * A Diff of the program's (a preview's or an up's): the engine checks a registration before it diffs
 * it, and a Diff before any Check is a refresh's, which refuses nothing (../../provider/shared/registration-order).
 */
const programDiff: Provider["diff"] = (id, olds, news) => {
  deploymentLedger().run.noteProgramCheck();
  return provider.diff(id, olds, news);
};

/**
 * The provider's methods, each call its own deployment (its own ledger): as the engine calls them
 * from one `pulumi up` to the next. Tests of several resources in one deployment use `inNewDeployment`.
 */
export const groupRoles: Provider = {
  configure: provider.configure,
  check: ownDeployment(provider.check),
  diff: ownDeployment(programDiff),
  create: ownDeployment(provider.create),
  read: ownDeployment(provider.read),
  update: ownDeployment(provider.update),
  delete: ownDeployment(provider.delete),
};

export const ROUTES = {
  LIST: "GET /api/v0/groups/:groupId/roles",
  DETAILS: "GET /api/v0/groups/:groupId/roles/:roleId",
  POST: "POST /api/v0/groups/:groupId/roles",
  PUT: "PUT /api/v0/groups/:groupId/roles",
  DELETE: "POST /api/v0/groups/:groupId/delete-roles",
} as const;

export const PROVIDER_REF = "exports.handler = () => require('pulumi-grouproles/provider/group-roles')";

export interface GroupRolesHarness extends EmulatorHarness {
  /** Configures the provider with the emulator's settings plus `extra` (e.g. `grouproles:maxBatchSize`). */
  configure(extra?: Record<string, string>): Promise<void>;
  /** Requests by route (`ROUTES.*`) since the last clear, in order: `["LIST", "POST", ...]`. */
  routes(): Promise<string[]>;
  /** Bodies of the requests of one route, parsed. */
  bodies(route: string): Promise<unknown[]>;
  /** The group's roles as the service holds them: name to roleId. */
  held(groupId: number): Promise<Record<string, number>>;
}

export async function groupRolesAgainstEmulator(): Promise<GroupRolesHarness> {
  const h = await startHarness();
  const configure = async (extra: Record<string, string> = {}) => {
    const config: Record<string, string> = {
      "grouproles:baseUrl": h.emu.baseUrl,
      "grouproles:accessToken": h.emu.token,
      ...extra,
    };
    await groupRoles.configure({ config: { get: (k: string) => config[k] } });
  };
  await configure();
  const names = Object.fromEntries(Object.entries(ROUTES).map(([name, route]) => [route, name]));
  return {
    ...h,
    configure,
    routes: async () =>
      (await h.requests()).entries.map((e) => names[`${e.method} ${e.route}`] ?? `${e.method} ${e.route}`),
    bodies: async (route) =>
      (await h.requests()).entries
        .filter((e) => `${e.method} ${e.route}` === route)
        .map((e) => JSON.parse(e.body) as unknown),
    held: async (groupId) => Object.fromEntries((await h.listRoles(groupId)).map((r) => [r.name, r.roleId])),
  };
}

/** A catalogue of `n` roles keyed `r0`, `r1`, ... named `<prefix> <i>`. */
export function catalogue(
  n: number,
  prefix = "Role",
  extra: Record<string, unknown> = {},
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { name: `${prefix} ${i}`, ...extra }]));
}

/** Inputs as the host passes them (with `__provider`). */
export const inputs = (roles: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  groupId: 42,
  roles,
  __provider: PROVIDER_REF,
  ...extra,
});

/** The outputs of a create or update as the host would store them. */
export const stateOf = (outs: GroupRolesState) => ({ ...outs, __provider: PROVIDER_REF });

/**
 * Registers a test file's hooks: one emulator for the file (handed to `set`), and before each test
 * the default settings and an empty service.
 */
export function emulatorPerFile(set: (h: GroupRolesHarness) => void): void {
  let h: GroupRolesHarness | undefined;
  beforeAll(async () => {
    h = await groupRolesAgainstEmulator();
    set(h);
  });
  afterAll(() => h?.close());
  beforeEach(async () => {
    await h!.configure();
    await h!.admin("POST", "/reset");
  });
}

/** Creates a catalogue in its own deployment, then clears the request log: what a test starts from. */
export async function createdIn(
  h: GroupRolesHarness,
  roles: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; outs: GroupRolesState }> {
  const made = await groupRoles.create(inputs(roles, extra));
  await h.clearRequests();
  return made;
}

/** The init error a failed apply rejects with: the state the service was left in, and the reasons. */
export interface InitError extends Error {
  code: string;
  id?: string;
  properties: GroupRolesState & { __provider?: unknown };
  reasons: string[];
}

/** The init error `p` rejects with (the test fails if it resolves). */
export const failure = (p: Promise<unknown>): Promise<InitError> => rejection<InitError>(p);
