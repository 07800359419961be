/**
 * Plans and errors for people reading them: URNs shortened to `Type name` (the demo and `npm run try`),
 * and, for the demo, what a GroupRoles step does to each entry. The engine shows
 * `~ update GroupRoles catalogue [roles]`; {@link catalogueChanges} says which roles are created,
 * renamed, changed, moved to another key, deleted or forgotten. Read from the stack's state before the
 * run and the inputs the step runs with, the same comparison the provider's plan makes.
 */
import { changedTextFields } from "../client/role-fields";
import type { PlanStep, StateResource } from "./engine";

type Entry = { name?: unknown; settings?: unknown; retain?: unknown; roleId?: unknown };

const entriesOf = (props: Record<string, unknown> | undefined): Record<string, Entry> =>
  (props?.["roles"] && typeof props["roles"] === "object" ? props["roles"] : {}) as Record<string, Entry>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * One line per entry that changes, indented, e.g. `    ~ roles.sales: "Sales" -> "Sales team"`: at
 * most `max`, then how many more.
 */
export function catalogueChanges(step: PlanStep, old: StateResource | undefined, max = 12): string[] {
  if (!step.type.endsWith("GroupRoles") || !step.inputs) return [];
  const before = entriesOf(old?.outputs as Record<string, unknown> | undefined);
  const after = entriesOf(step.inputs as Record<string, unknown>);
  const removedByName = new Map(
    Object.entries(before)
      .filter(([k]) => !(k in after))
      .map(([k, e]) => [e.name, k]),
  );
  const lines: string[] = [];
  const moved = new Set<string>();
  for (const [key, e] of Object.entries(after)) {
    const was = before[key];
    if (!was) {
      const from = removedByName.get(e.name);
      if (from !== undefined) {
        moved.add(from);
        lines.push(`> roles.${key} (was roles.${from}): ${JSON.stringify(e.name)}, the same role`);
      } else lines.push(`+ roles.${key}: ${JSON.stringify(e.name)}`);
      continue;
    }
    const what: string[] = [];
    if (was.name !== e.name) what.push(`${JSON.stringify(was.name)} -> ${JSON.stringify(e.name)}`);
    what.push(...changedTextFields(was, e));
    if (!same(was.settings, e.settings)) what.push("settings");
    if (what.length) lines.push(`~ roles.${key}: ${what.join(", ")}`);
  }
  for (const [key, e] of Object.entries(before)) {
    if (key in after || moved.has(key)) continue;
    const id = typeof e.roleId === "number" ? ` (roleId ${e.roleId})` : "";
    lines.push(
      e.retain
        ? `  roles.${key}: ${JSON.stringify(e.name)}${id} forgotten, kept in the service (retain)`
        : `- roles.${key}: ${JSON.stringify(e.name)}${id}`,
    );
  }
  const shown = lines.slice(0, max);
  if (lines.length > max) shown.push(`... and ${lines.length - max} more`);
  return shown.map((l) => `    ${l}`);
}

/** A plan line or an engine message with URNs and type tokens shortened: `GroupRoles catalogue: ...`. */
export function readable(s: string): string {
  // Type tokens first: `pulumi-nodejs:dynamic/grouproles:GroupRoles` becomes `GroupRoles`.
  return s.replaceAll("pulumi-nodejs:dynamic/grouproles:", "").replace(
    // <stack>::<project>::<parent types$><type>::<name>; a type holds single colons (`pulumi:providers:x`).
    /urn:pulumi:[^:\s]+::[^:\s]+::(?:(?:(?!::)[^\s$])+\$)*((?:(?!::)\S)+)::([^:\s]+)/g,
    (_m, type: string, name: string) => `${type} ${name}`,
  );
}
