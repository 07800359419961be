/**
 * What the program's structure says about a resource, handed to the provider as the internal input
 * `__structure` (Pulumi's display skips `__` inputs: pulumi/pulumi sdk/go/common/resource/properties.go
 * `IsInternalPropertyKey`). It is the same in the preview and the `up`, under every schedule and
 * every `--target`: the provider's cross-resource decisions rest on it, never on the order in which
 * independent registrations reach it (docs/design/engine-order.md).
 *
 * - `urn`: the resource's own URN, so that the provider knows a replacement's second Check for it.
 * - `dependsOn`: every resource its `dependsOn` reaches (through the `dependsOn` of the resources this
 *   package declared): the engine registers this one only after each of their steps ended
 *   (pulumi/pulumi: sdk/nodejs/runtime/resource.ts `prepareResource` awaits their URNs, which resolve when their
 *   registration returned). For a `Role` or `GroupRoles` among them, what it declares (group, names,
 *   role IDs once known), which holds even when `--target` leaves it out of the deployment.
 * - `deleteBeforeReplace`: the resource option, which the engine never sends to a provider, and which
 *   decides whether a replaced resource's roles go first or last (step_generator.go `continueStepsFromDiff`).
 */
import * as pulumi from "@pulumi/pulumi";
import { perRun } from "./per-run";

/** What a `Role` or `GroupRoles` declares, as another resource's `__structure` carries it. */
export interface Declaration {
  groupId: pulumi.Input<number> | undefined;
  names: pulumi.Input<string[]>;
  roleIds: pulumi.Input<number[]>;
}

const program = perRun(() => ({
  dependsOn: new WeakMap<pulumi.Resource, pulumi.Resource[]>(),
  declarations: new WeakMap<pulumi.Resource, Declaration>(),
}));

/** The plain resources of a `dependsOn` option (an Output or a promise of them cannot be read here). */
function plainDependsOn(opts: pulumi.CustomResourceOptions | undefined): pulumi.Resource[] {
  const d = opts?.dependsOn;
  const list: unknown[] = Array.isArray(d) ? d : d === undefined ? [] : [d];
  return list.filter((r): r is pulumi.Resource => pulumi.Resource.isInstance(r));
}

/** Every resource `opts.dependsOn` reaches, through the `dependsOn` of the resources this package declared. */
export function reached(opts: pulumi.CustomResourceOptions | undefined): Set<pulumi.Resource> {
  const { dependsOn } = program();
  const seen = new Set<pulumi.Resource>();
  const queue = plainDependsOn(opts);
  for (let r = queue.pop(); r !== undefined; r = queue.pop()) {
    if (seen.has(r)) continue;
    seen.add(r);
    queue.push(...(dependsOn.get(r) ?? []));
  }
  return seen;
}

/**
 * A resource's URN as an Output that depends on no resource. An input that depends on a component
 * resource (its `urn` does) makes Pulumi wait, before registering, for the URNs of all the component's
 * children (pulumi/pulumi sdk/nodejs/runtime/dependsOn.ts `getAllTransitivelyReferencedResourceURNs`,
 * from resource.ts `prepareResource`, leaving out only the resource itself): two children of one
 * component whose inputs carry the parent's URN each waited for the other, and the program never
 * registered them. A URN is known in a preview too, so the value is the same.
 */
function urnAlone(resource: pulumi.Resource): pulumi.Output<string> {
  return pulumi.output(new Promise<string>((resolve) => resource.urn.apply(resolve)));
}

/** The `__structure` input of a resource about to be constructed (its type token and name). */
export function structureInput(
  type: string,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): Record<string, unknown> {
  const { declarations } = program();
  return {
    urn: pulumi.createUrn(name, type, opts?.parent && urnAlone(opts.parent)),
    dependsOn: [...reached(opts)].map((r) => ({ urn: r.urn, ...declarations.get(r) })),
    ...(opts?.deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace: opts.deleteBeforeReplace }),
    // Read by the before-delete hook once the resource has left the program (./delete-guard/held.ts).
    ...(opts?.retainOnDelete === true ? { retainOnDelete: true } : {}),
  };
}

/** Records a constructed resource: its `dependsOn`, and what it declares (for those that depend on it). */
export function noteStructure(
  resource: pulumi.Resource,
  opts: pulumi.CustomResourceOptions | undefined,
  declaration?: Declaration,
): void {
  const p = program();
  p.dependsOn.set(resource, plainDependsOn(opts));
  if (declaration) p.declarations.set(resource, declaration);
}

const numbers = (values: unknown[]): number[] => values.filter((v): v is number => typeof v === "number");

/** What a `Role` declares: its name, and its role's ID once the service gave one. */
export function roleDeclaration(
  args: { groupId: pulumi.Input<number>; name: pulumi.Input<string> },
  role: { roleId: pulumi.Output<number> },
): Declaration {
  return {
    groupId: args.groupId,
    names: pulumi.output(args.name).apply((n) => [n]),
    roleIds: role.roleId.apply((id) => numbers([id])),
  };
}

/** What a `GroupRoles` declares: its entries' names, and their roles' IDs once known. */
export function catalogueDeclaration(
  args: {
    groupId: pulumi.Input<number>;
    roles: pulumi.Input<Record<string, pulumi.Input<{ name: pulumi.Input<string> }>>>;
  },
  catalogue: { roles: pulumi.Output<Record<string, { roleId?: number }>> },
): Declaration {
  return {
    groupId: args.groupId,
    names: pulumi.output(args.roles).apply((roles) => Object.values(roles ?? {}).map((e) => e.name)),
    roleIds: catalogue.roles.apply((roles) => numbers(Object.values(roles ?? {}).map((e) => e?.roleId))),
  };
}
