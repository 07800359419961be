/**
 * The before-delete hook every `Role` and `GroupRoles` carries, so that a preview refuses to delete a
 * role users hold: a resource removed from the program, a `--target`ed removal, a whole catalogue.
 *
 * Pulumi keeps a resource's hook binding (by name) in its state and, in its delete step, calls the
 * named hook in the program's process before anything else, in a preview too when the hook was
 * registered with `onDryRun` (pulumi/pulumi v3.274.1 pkg/resource/deploy/step.go `DeleteStep.Apply`;
 * deployment.go `RunHooks`: a name the program did not register fails the step, `hook "..." was not
 * registered`; a hook that throws fails it with `before hook "<name>" failed: <message>`). So the hook
 * must be registered in every run whether or not the resource is still declared: the package registers
 * it when it is loaded, and again in each run of an Automation API inline program. One name per
 * configuration: `grouproles-in-use` for the stack's `grouproles:*` config (the dynamic resources and
 * the plugin's default provider), `grouproles-in-use-<provider>` for an explicit plugin `Provider`,
 * which registers its own with its inputs. A name may be registered once per run (resource_hooks.go
 * `RegisterResourceHook`), also across two copies of this package: a registry on `globalThis` keeps one.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RoleSummary } from "../../client";
import type { ConfigSource } from "../../config/source";
import { deleteHooksEnabled } from "../../config/stack-config";
import { listUnlessGone } from "../../provider/shared/gone";
import { clientFor } from "../client";
import { ProgramClaims } from "./claims";
import { leftAlone, losses, refusal } from "./decide";
import { heldBy } from "./held";

/** The hook of the stack's config. */
export const DEFAULT_HOOK = "grouproles-in-use";

/** The hook name of an explicit plugin `Provider` named `providerName`. */
export const providerHookName = (providerName: string) => `${DEFAULT_HOOK}-${providerName}`;

interface Run {
  /** Each hook by name; undefined once found off or unsupported in this run. */
  hooks: Map<string, pulumi.ResourceHook | undefined>;
  claims: ProgramClaims;
}

const REGISTRY = Symbol.for("pulumi-grouproles.delete-guard");
type Registry = { runs: WeakMap<object, Run>; outside?: Run; warned?: boolean };
const registry: Registry = (() => {
  const g = globalThis as Record<symbol, Registry | undefined>;
  g[REGISTRY] ??= { runs: new WeakMap() };
  return g[REGISTRY];
})();

/** This run's hooks and declarations (Automation API inline programs run several times in one process). */
function currentRun(): Run {
  const make = (): Run => ({ hooks: new Map(), claims: new ProgramClaims() });
  const stack = pulumi.runtime.getStackResource();
  if (stack === undefined) {
    registry.outside ??= make();
    return registry.outside;
  }
  let run = registry.runs.get(stack);
  if (run === undefined) {
    run = make();
    registry.runs.set(stack, run);
  }
  return run;
}

/** The program's declarations of this run, where each resource's constructor notes what it takes over. */
export const programClaims = (): ProgramClaims => currentRun().claims;

/** Whether this run can register hooks: an engine that supports them, and `grouproles:deleteHooks` not off. */
function hooksWanted(): boolean {
  // @pulumi/pulumi runtime/state.js: set from the monitor's SupportsFeature("resourceHooks") before the program loads.
  const store = (
    require("@pulumi/pulumi/runtime/state") as { getStore(): { supportsResourceHooks?: boolean } }
  ).getStore();
  if (!pulumi.runtime.hasMonitor() || pulumi.runtime.getStackResource() === undefined) return false;
  if (!deleteHooksEnabled({ get: (k) => pulumi.runtime.getConfig(k) })) return false;
  if (store.supportsResourceHooks !== true) {
    if (!registry.warned) {
      registry.warned = true;
      void pulumi.log.warn(
        "this Pulumi CLI does not support resource hooks: a preview cannot refuse to remove a Role or GroupRoles " +
          "whose roles users hold (`pulumi up` still refuses to delete them). A CLI with resource hooks does (tested: v3.274.1).",
      );
    }
    return false;
  }
  return true;
}

/**
 * Registers, once per run, the hook `name` that reads the service with `source()`'s settings; returns
 * it, or undefined when hooks are off or unsupported.
 */
export function registerDeleteGuard(name: string, source: () => () => ConfigSource): pulumi.ResourceHook | undefined {
  // Every Role and GroupRoles asks: after the first, a lookup (no config read, no registration).
  const run = currentRun();
  if (run.hooks.has(name)) return run.hooks.get(name);
  if (!hooksWanted()) {
    if (pulumi.runtime.getStackResource() !== undefined) run.hooks.set(name, undefined);
    return undefined;
  }
  const settings = source();
  const claims = run.claims;
  // One list request per group, however many removed resources of the group the engine deletes at once.
  const listings = new Map<number, Promise<RoleSummary[]>>();
  const hook = new pulumi.ResourceHook(
    name,
    async (args) => {
      const held = heldBy(args);
      if (held === undefined || leftAlone(held)) return; // nothing to read

      let listing = listings.get(held.groupId);
      if (listing === undefined) {
        // A group the service says is gone holds nothing to lose; any other 404 proves nothing (invariant 10).
        listing = listUnlessGone(clientFor(undefined, "roles", settings()), held.groupId, held.label).then(
          (r) => r ?? [],
        );
        listings.set(held.groupId, listing);
      }
      let roles: RoleSummary[];
      try {
        roles = await listing;
      } catch (error) {
        throw new Error(
          `${held.label}: could not read the roles of group ${held.groupId} to check that no user holds a role its ` +
            `delete would remove, so it was not deleted: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const lost = losses(held, claims, roles);
      if (lost.length) {
        const declared = claims.declares(held.type, held.name);
        throw new Error(
          refusal(held, lost, { declared, retainsNow: declared && claims.retainsNow(held.type, held.name) }),
        );
      }
    },
    { onDryRun: true },
  );
  // @pulumi/pulumi waits for a hook's registration only once its callback server is up (runtime/callbacks.js
  // `registerResourceHook`): a program that binds the hook to nothing (every Role removed) could end
  // first, and the engine would fail the deletes with `hook "..." was not registered`. Keep the run alive
  // until the engine has it (@pulumi/pulumi runtime/settings.js `rpcKeepAlive`, as its own RPCs do).
  const done = (require("@pulumi/pulumi/runtime/settings") as { rpcKeepAlive(): () => void }).rpcKeepAlive();
  Promise.resolve(Reflect.get(hook, "__registered")).then(done, (error: unknown) => {
    done();
    // The engine ended the run first (a refusal elsewhere): its monitor is gone, and a warning could not
    // reach it either (@pulumi/pulumi log/index.js then prints "failed to deliver log message" and a
    // stack to stderr: issue 52's user trial). Nothing to say.
    if (monitorGone(error)) return;
    void pulumi.log.warn(`the before-delete hook "${name}" could not be registered: ${String(error)}`);
  });
  run.hooks.set(name, hook);
  return hook;
}

/** A gRPC UNAVAILABLE (code 14) from the engine's resource monitor: the deployment has ended. */
function monitorGone(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 14 || /\bUNAVAILABLE\b|shut down/.test(String(error));
}

/** The stack config as it is at registration (a hook runs outside the program's context). */
function stackConfig(): () => ConfigSource {
  const all = pulumi.runtime.allConfig();
  return () => ({ get: (key) => all[key] });
}

/** The default hook (the stack's config), registered once per run. */
export const defaultDeleteGuard = (): pulumi.ResourceHook | undefined => registerDeleteGuard(DEFAULT_HOOK, stackConfig);

/**
 * Registers this run's before-delete hook of the stack's config, if it is not yet: the package does
 * when it loads, and each `Role` and `GroupRoles` when constructed. An Automation API inline program
 * (several runs in one process, the package loaded once) that may declare none of them in a run calls
 * it first: the engine needs the hook to delete the resources the program no longer declares.
 */
export function registerDeleteHooks(): void {
  defaultDeleteGuard();
}

/** `opts` with `hook` among its before-delete hooks, the program's own kept. */
export function withDeleteGuard<T extends pulumi.ResourceOptions>(
  opts: T | undefined,
  hook: pulumi.ResourceHook | undefined,
): T | undefined {
  if (hook === undefined) return opts;
  const own = opts?.hooks?.beforeDelete ?? [];
  if (own.some((h) => h.name === hook.name)) return opts;
  return { ...opts, hooks: { ...opts?.hooks, beforeDelete: [...own, hook] } } as T;
}

/** Where an explicit plugin `Provider` keeps its hook (also read across copies of the package). */
const PROVIDER_HOOK = Symbol.for("pulumi-grouproles.provider-delete-hook");

/**
 * Registers the hook of an explicit plugin `Provider` named `name`, reading the service with the
 * provider's own inputs (secrets stay in this process), and keeps it on `provider`.
 */
export function registerProviderGuard(provider: pulumi.ProviderResource, name: string, args: pulumi.Inputs): void {
  if (args.deleteHooks === false || args.deleteHooks === "false") return;
  let settings: Record<string, unknown> | undefined;
  pulumi.output(args).apply((plain) => {
    settings = plain as Record<string, unknown>;
  });
  const source = (): ConfigSource => {
    const known = settings;
    if (known === undefined)
      throw new Error(`the inputs of Provider '${name}' are not known in this preview, so its roles cannot be read`);
    return {
      get: (key) => {
        const value = known[key.replace(/^grouproles:/, "")];
        if (value === undefined || value === null) return undefined;
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      },
    };
  };
  Reflect.set(
    provider,
    PROVIDER_HOOK,
    registerDeleteGuard(providerHookName(name), () => source),
  );
}

/**
 * The hook a plugin resource of `type` binds: its explicit provider's (`provider`, or inherited from
 * its parent's `providers`, as pulumi/pulumi resolves it: sdk/nodejs/resource.ts `Resource` constructor),
 * else the default one.
 */
export function pluginDeleteGuard(
  type: string,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.ResourceHook | undefined {
  const provider = opts?.provider ?? opts?.parent?.getProvider(type);
  if (provider === undefined) return defaultDeleteGuard();
  return Reflect.get(provider, PROVIDER_HOOK) as pulumi.ResourceHook | undefined;
}
