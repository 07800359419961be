/**
 * The order an exclusive catalogue needs, made sure by the program's structure.
 *
 * An exclusive `GroupRoles` removes every role of its group that no resource of the program declares,
 * and a provider can only know the resources that registered before it. Pulumi registers resources
 * as their inputs and `dependsOn` resolve, so the `up` may register them in another order than the
 * preview did: a resource waiting on one whose step takes time in the `up` (an update) registers later
 * there (docs/design/engine-order.md, point 5). Then the catalogue removes, as undeclared, a role that
 * a resource registering after it keeps, after a green preview (found by the simulation, history 3352).
 * Only `dependsOn` makes the order sure: the SDK registers a resource once the URNs of its
 * `dependsOn` resolved (pulumi/pulumi: sdk/nodejs/runtime/resource.ts `prepareResource`,
 * through dependsOn.ts `getAllTransitivelyReferencedResourceURNs`), and a URN resolves when its
 * registration returned, after its step ended.
 *
 * So the program must declare an exclusive catalogue after every `Role` and `GroupRoles` of its group,
 * each in its `dependsOn` (directly, or through the `dependsOn` of one it lists). Checked here, before
 * the resource registers, from the program's structure alone: the same in the preview and the `up`,
 * whatever the schedule. Only plain values can be checked: a `groupId` or `exclusive` given as an
 * Output, or a `dependsOn` given as an Output, is left to the provider's own refusals (which see only
 * what registered before). A second exclusive catalogue of a group is refused here too: each would
 * remove the roles the other declares.
 */
import * as pulumi from "@pulumi/pulumi";
import { inProse } from "../client/role-fields";
import { perRun } from "./per-run";
import { type Declaration, noteStructure, reached } from "./structure";

interface Member {
  /** `Role 'reader'` or `GroupRoles 'catalogue'`, as messages name it. */
  label: string;
  resource?: pulumi.Resource;
}

const program = perRun(() => ({
  /** The resources of each group declared so far, in order. */
  members: new Map<number, Member[]>(),
  /** The exclusive catalogue of each group, once declared. */
  exclusive: new Map<number, Member>(),
}));

/**
 * Called by a `Role` or `GroupRoles` constructor before it registers. Throws when the resource breaks
 * the order its group's exclusive catalogue needs; returns what `declared` completes once it exists.
 * A `RunError`: Pulumi's program runner prints its message alone, where any other error reads as "failed
 * with an unhandled exception" and a stack trace of this package (@pulumi/pulumi cmd/run/run.js,
 * `uncaughtHandler`): a refusal, not a crash (issue 53).
 */
export function enterGroup(
  kind: "Role" | "GroupRoles",
  name: string,
  groupId: unknown,
  exclusive: unknown,
  opts: pulumi.CustomResourceOptions | undefined,
): Member | undefined {
  if (opts?.id !== undefined || typeof groupId !== "number") return undefined; // a read, or not known here
  const { members, exclusive: exclusiveOf } = program();
  const label = `${kind} '${name}'`;
  const owner = exclusiveOf.get(groupId);
  if (owner && kind === "GroupRoles" && exclusive === true) {
    throw new pulumi.RunError(
      `GroupRoles resource '${name}': ${owner.label} already has \`exclusive: true\` for group ${groupId}; ` +
        "each would remove the roles the other declares. Keep one exclusive catalogue per group: merge them, " +
        "or leave `exclusive` off on one.",
    );
  }
  if (owner) {
    throw new pulumi.RunError(
      `${kind} resource '${name}': it is declared after ${owner.label}, which has \`exclusive: true\` for group ` +
        `${groupId}. An exclusive catalogue removes the roles of its group that no resource registered before ` +
        "it declares, and only its `dependsOn` makes Pulumi register it after the others, in the preview and " +
        `in \`up\` alike: declare this resource before ${owner.label} and add it to that catalogue's \`dependsOn\`.`,
    );
  }
  const group = members.get(groupId) ?? [];
  const member: Member = { label };
  if (kind === "GroupRoles" && exclusive === true) {
    const after = reached(opts);
    const missing = group.filter((m) => m.resource === undefined || !after.has(m.resource));
    if (missing.length) {
      const names = inProse(missing.map((m) => m.label));
      throw new pulumi.RunError(
        `GroupRoles resource '${name}' has \`exclusive: true\` for group ${groupId} but does not depend on ${names} ` +
          "of that group. It removes the roles no resource registered before it declares, and without " +
          "`dependsOn` Pulumi may register it first in `up` even when the preview did not (a resource whose " +
          `inputs wait on a change): add ${missing.length === 1 ? "it" : "them"} to its \`dependsOn\`.`,
      );
    }
    exclusiveOf.set(groupId, member);
  }
  group.push(member);
  members.set(groupId, group);
  return member;
}

/** Records the registered resource, its `dependsOn` and what it declares, for the resources declared after it. */
export function declared(
  member: Member | undefined,
  resource: pulumi.Resource,
  opts: pulumi.CustomResourceOptions | undefined,
  declaration?: Declaration,
): void {
  noteStructure(resource, opts, declaration);
  if (member) member.resource = resource;
}
