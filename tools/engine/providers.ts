// TEST INFRASTRUCTURE (engine stand-in): the provider processes of one run.
//
// As the Go engine's provider registry (pkg/resource/deploy/providers/registry.go) for what this
// package needs: the `pulumi-nodejs` dynamic-provider host for dynamic resources, and one process of
// a resource plugin per provider resource (explicit `new Provider(...)` or the engine's default
// provider of a package), loaded for CheckConfig, then configured (Configure) before any resource
// call. The plugin is found as the engine finds an ambient plugin: `pulumi-resource-<package>` on
// the PATH, which `npm exec` / npm scripts put `node_modules/.bin` on.

import { existsSync } from "node:fs";
import * as path from "node:path";
import { ProviderHost, type Target } from "./provider-host";
import { type Props, type Value, containsUnknown } from "./values";

/** The package a type or function token belongs to: `grouproles:index:Role` → `grouproles`. */
export const packageOf = (token: string): string => token.split(":")[0] ?? "";

/** `pulumi:providers:<package>` (sdk/go/common/resource/providers). */
export const providerType = (pkg: string): string => `pulumi:providers:${pkg}`;
export const isProviderType = (type: string): boolean => type.startsWith("pulumi:providers:");
/** The package of a provider type: `pulumi:providers:grouproles` → `grouproles`. */
export const providerPackage = (type: string): string => type.slice("pulumi:providers:".length);

/** Dynamic resources (`pulumi-nodejs:dynamic...`) are served by the dynamic-provider host. */
export const isDynamic = (type: string): boolean => packageOf(type) === "pulumi-nodejs";

/** The package of dynamic resources' provider, `pulumi:providers:pulumi-nodejs`. */
export const DYNAMIC_PACKAGE = "pulumi-nodejs";

/** A provider reference, `<urn>::<id>` (sdk/go/common/resource/providers/reference.go). */
export function parseReference(ref: string): { urn: string; id: string } {
  const at = ref.lastIndexOf("::");
  return { urn: ref.slice(0, at), id: ref.slice(at + 2) };
}

/** `default` plus the version's parts (providers.ProviderRequest.DefaultName): `default_0_1_0`. */
export function defaultProviderName(version: string): string {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([^+]+))?(?:\+(.+))?$/.exec(version);
  if (!m) return "default";
  const extra = [m[4], m[5]].filter(Boolean).flatMap((s) => s!.split("."));
  return ["default", m[1], m[2], m[3], ...extra].join("_");
}

/** A `plugins.providers` entry of Pulumi.yaml: the directory that holds the plugin's executable. */
export interface ProjectPlugin {
  name: string;
  path: string;
}

/**
 * Where the engine finds `pulumi-resource-<pkg>` (workspace/plugins.go getPluginInfoAndPath): a project
 * plugin of Pulumi.yaml (`plugins.providers`, a directory) first; then the PATH, which the CLI warns
 * about on every run ("using ... from $PATH at ..."); the plugin cache is not modelled. The file is run
 * by its shebang, so `#!/usr/bin/env node` runs the `node` the PATH finds, as under the CLI.
 */
export function pluginEntry(
  pathVariable: string,
  pkg: string,
  projectPlugins: readonly ProjectPlugin[] = [],
): { file: string; warning?: string } {
  const file = `pulumi-resource-${pkg}`;
  const project = projectPlugins.find((p) => p.name === pkg);
  if (project) return { file: path.join(project.path, file) };
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, file);
    if (existsSync(candidate)) return { file: candidate, warning: `using ${file} from $PATH at ${candidate}` };
  }
  throw new Error(
    `no resource plugin found for package '${pkg}': ${file} is not on the PATH and Pulumi.yaml names no ` +
      "`plugins.providers` path for it (install the npm package that ships it and run through npm, which " +
      "puts node_modules/.bin on the PATH)",
  );
}

export interface ProviderRegistryOptions {
  programDir: string;
  /** The module of the dynamic-provider host. */
  dynamicHost: string;
  env: NodeJS.ProcessEnv;
  engineAddr: () => string;
  /** Pulumi.yaml's `plugins.providers`, paths resolved against the project directory. */
  projectPlugins?: readonly ProjectPlugin[];
  /** A warning of the engine's (the CLI prints it): here, a plugin taken from the PATH. */
  warn?: (message: string) => void;
  /**
   * Configures the dynamic-provider host with the whole stack config: for dynamic resources whose state
   * names no provider (a checkpoint of the stand-in before it recorded one).
   */
  configureDynamic: (host: ProviderHost) => Promise<void>;
}

/** Every provider process of a run: the dynamic host, and plugin instances by provider URN. */
export class ProviderRegistry {
  private dynamicHost?: Promise<ProviderHost>;
  private readonly plugins = new Map<string, Promise<ProviderHost>>();
  /** Every host started, in start order, for the run's report. */
  readonly started: Array<{ label: string; host: ProviderHost }> = [];

  constructor(private readonly o: ProviderRegistryOptions) {}

  /** The dynamic-provider host's process, started on first use (configured by its provider resource). */
  dynamicProcess(): Promise<ProviderHost> {
    this.dynamicHost ??= this.start(DYNAMIC_PACKAGE, this.o.dynamicHost);
    return this.dynamicHost;
  }

  private legacyDynamic?: Promise<ProviderHost>;

  /** The dynamic-provider host configured with today's whole stack config (see `configureDynamic`). */
  dynamic(): Promise<ProviderHost> {
    this.legacyDynamic ??= this.dynamicProcess().then(async (host) => {
      await this.o.configureDynamic(host);
      return host;
    });
    return this.legacyDynamic;
  }

  /**
   * An unconfigured instance for the provider resource `urn` (registry.go Check loads one): a new plugin
   * process, or for `pulumi-nodejs` the one dynamic-provider host.
   */
  async load(urn: string, pkg: string): Promise<ProviderHost> {
    if (pkg === DYNAMIC_PACKAGE) return this.dynamicProcess();
    const { file, warning } = pluginEntry(this.o.env.PATH ?? "", pkg, this.o.projectPlugins);
    if (warning) this.o.warn?.(warning);
    return this.start(urn, file, true);
  }

  /** The configured instance of provider `urn`, once `configure` registered it. */
  configured(urn: string): Promise<ProviderHost> | undefined {
    return this.plugins.get(urn);
  }

  /** Records `host` as provider `urn` while it loads, so that concurrent steps share one instance. */
  track(urn: string, host: Promise<ProviderHost>): Promise<ProviderHost> {
    this.plugins.set(urn, host);
    return host;
  }

  /**
   * Configures `host` as provider `urn` (registry.go Create/Update/Same → Configure): `inputs` are the
   * provider resource's inputs, secrets marked; the deprecated variables map gets them as
   * `<package>:config:<key>` strings (provider_plugin.go Configure), `version` left out.
   */
  configure(urn: string, t: Target, host: ProviderHost, inputs: Props, plainInputs: Props): Promise<ProviderHost> {
    const pkg = providerPackage(t.type);
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries(plainInputs)) {
      if (k === "version" || v === null) continue;
      variables[`${pkg}:config:${k}`] = typeof v === "string" ? v : JSON.stringify(v);
    }
    // provider_plugin.go Configure: inputs that hold unknowns (a preview) are not sent; the engine then
    // answers for the provider (ProviderHost markConfigUnknown).
    const unknown = Object.entries(plainInputs).some(([k, v]) => k !== "version" && containsUnknown(v as Value));
    if (unknown) host.markConfigUnknown();
    const ready = unknown ? Promise.resolve(host) : host.configureProvider(inputs, variables, t).then(() => host);
    this.plugins.set(urn, ready);
    return ready;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.map(({ host }) => host.stop()));
  }

  private async start(label: string, modulePath: string, executable = false): Promise<ProviderHost> {
    const host = new ProviderHost();
    this.started.push({ label, host });
    await host.start({
      modulePath,
      cwd: this.o.programDir,
      env: this.o.env,
      engineAddr: this.o.engineAddr(),
      executable,
    });
    return host;
  }
}
