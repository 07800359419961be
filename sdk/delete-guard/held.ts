/**
 * What a `Role` or `GroupRoles` about to be deleted holds in the service, read from the state the
 * engine hands its before-delete hook (`oldInputs`, `oldOutputs`: pulumi/pulumi
 * pkg/resource/deploy/step.go `DeleteStep.Apply`, which runs the hooks before anything else). Both
 * SDKs' resources have the same inputs and outputs, so one reading serves the dynamic and the plugin kinds.
 */

/** One role the resource would delete, as its state names it. */
export interface HeldRole {
  /** The catalogue's key (a `GroupRoles` entry); absent for a `Role`. */
  key?: string;
  /** Absent when the create was never confirmed (then the role is found by its name). */
  roleId?: number;
  name?: string;
}

/** What the resource would delete, and how messages name it. */
export interface Held {
  kind: "Role" | "GroupRoles";
  /** `Role 'support'`, as messages name the program's resource. */
  label: string;
  /** The resource's type token, name and URN, as the engine gave them. */
  type: string;
  name: string;
  urn: string;
  groupId: number;
  /** The roles its delete would remove: a catalogue's entries with `retain: true` are left out. */
  roles: HeldRole[];
  /** The `retainOnDelete` option (the SDK carries it in `__structure`): the engine deletes nothing. */
  retainOnDelete: boolean;
}

/** What the hook is given (the Node SDK's `ResourceHookArgs`, the fields read here). */
export interface DeletedResource {
  urn: string;
  name: string;
  type: string;
  oldInputs?: Record<string, unknown>;
  oldOutputs?: Record<string, unknown>;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const integer = (v: unknown): number | undefined => (Number.isInteger(v) ? (v as number) : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The kind a type token names (`pulumi-nodejs:dynamic/grouproles:Role`, `grouproles:index:GroupRoles`). */
export function kindOf(type: string): Held["kind"] | undefined {
  if (type.endsWith("grouproles:Role") || type === "grouproles:index:Role") return "Role";
  if (type.endsWith("grouproles:GroupRoles") || type === "grouproles:index:GroupRoles") return "GroupRoles";
  return undefined;
}

/** What `resource` holds, or undefined when it is none of ours or names no group. */
export function heldBy(resource: DeletedResource): Held | undefined {
  const kind = kindOf(resource.type);
  const inputs = record(resource.oldInputs);
  const outputs = record(resource.oldOutputs);
  const groupId = integer(outputs.groupId) ?? integer(inputs.groupId);
  if (kind === undefined || groupId === undefined) return undefined;
  const retainOnDelete = record(inputs.__structure).retainOnDelete === true;
  const label = `${kind} '${resource.name}'`;
  const named = { type: resource.type, name: resource.name, urn: resource.urn };
  if (kind === "Role") {
    const role: HeldRole = { roleId: integer(outputs.roleId), name: text(outputs.name) ?? text(inputs.name) };
    return { kind, label, ...named, groupId, roles: [role], retainOnDelete };
  }
  const declared = record(inputs.roles);
  const held = record(outputs.roles);
  const keys = new Set([...Object.keys(held), ...Object.keys(declared)]);
  const roles: HeldRole[] = [];
  for (const key of keys) {
    if (record(declared[key]).retain === true) continue;
    const state = record(held[key]);
    roles.push({ key, roleId: integer(state.roleId), name: text(state.name) ?? text(record(declared[key]).name) });
  }
  return { kind, label, ...named, groupId, roles, retainOnDelete };
}
