/**
 * The plan of a catalogue change as a reviewer reads it, one line per entry that changes, whatever the
 * catalogue's size (issue 53: a five-role change of a 54-entry catalogue was 371 lines of the dynamic
 * SDK's `pulumi preview --diff`, its one deletion a nested `- r3: {...}`). Pulumi prints a resource
 * without a detailed diff as its whole inputs, unchanged entries included, and a dynamic provider cannot
 * send one (@pulumi/pulumi dynamic `DiffResult` has no detailedDiff); so both SDKs say the plan here, in
 * the words of what happens to each role: deleted, handed over, forgotten, renamed, updated, kept under
 * a new key, taken over, created. Each kind is listed (at most {@link someLines}'s lines, then a count),
 * what deletes first; the entries that stay as they are are counted.
 */
import { changedTextFields } from "../../client/role-fields";
import type { RoleSummary } from "../../client/types";
import { usersOf } from "../shared/user-count";
import { someLines } from "./name-errors";
import type { Plan, PlannedUpdate } from "./plan-types";
import type { GroupRolesState } from "./types";

const count = (n: number) => n.toLocaleString("en-US");

/** What the plan changes in an entry it updates: its name, its text fields, its settings. */
function changes(u: PlannedUpdate): string {
  const parts: string[] = [];
  if (u.currentName !== u.finalName) parts.push(`renamed to "${u.finalName}"`);
  const text = changedTextFields(u.current, u.entry);
  if (text.length) parts.push(`${text.join(", ")} changed`);
  // A role taken over: its settings are read at `up` and sent only where they differ (./apply `prepare`);
  // the preview's list has none to compare, so it cannot say they change (issue 52's user trial).
  if (u.readSettings) parts.push(u.previouslyDeclared === null ? "settings compared at up" : "settings changed");
  return parts.join("; ");
}

interface Kind {
  sign: string;
  what: string;
  lines: string[];
}

/**
 * The report, or undefined when no entry changes. `movedKeys`: new key to old key (./renamed-keys);
 * `retained`: keys removed with `retain: true`; `handedTo`: removed keys another resource takes, and its name.
 */
export function planReport(
  plan: Plan,
  state: GroupRolesState,
  listed: readonly RoleSummary[],
  movedKeys: ReadonlyMap<string, string> = new Map(),
  retained: readonly string[] = [],
  handedTo: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const byId = new Map(listed.map((r) => [r.roleId, r]));
  const role = (key: string, roleId: number, name: string) =>
    `roles.${key}: "${name}" (roleId ${roleId}, ${usersOf(byId.get(roleId))})`;
  const updated = new Set(plan.updates.map((u) => u.key));
  const movedOnly = [...movedKeys].filter(([now]) => !updated.has(now));
  const kinds: Kind[] = [
    { sign: "-", what: "deleted", lines: plan.deletes.map((d) => role(d.key, d.roleId, d.name)) },
    {
      sign: ">",
      what: "handed to another resource of this program (kept, with its ID and users)",
      lines: plan.letGo.map((l) => {
        const old = state.roles[l.key];
        const to = handedTo.get(l.key);
        return `${role(l.key, l.roleId, old?.name ?? "")}${to ? `: to ${to}` : ""}`;
      }),
    },
    {
      sign: ">",
      what: "forgotten, kept in the service (`retain: true`)",
      lines: retained.flatMap((key) => {
        const old = state.roles[key];
        return old ? [role(key, old.roleId, old.name)] : [];
      }),
    },
    {
      sign: "~",
      what: "changed",
      lines: plan.updates
        .filter((u) => u.previouslyDeclared !== null)
        .map((u) => `${role(u.key, u.roleId, u.currentName)}: ${changes(u)}`),
    },
    {
      sign: "=",
      what: "kept under a new key (the same role)",
      lines: movedOnly.map(([now, was]) => {
        const old = state.roles[was]!;
        return `${role(now, old.roleId, old.name)}, was roles.${was}`;
      }),
    },
    {
      sign: "+",
      what: "taken over (kept, with its ID and users)",
      lines: plan.updates
        .filter((u) => u.previouslyDeclared === null)
        .map((u) => {
          const what = changes(u);
          return `${role(u.key, u.roleId, u.currentName)}${what ? `: ${what}` : ""}`;
        }),
    },
    { sign: "+", what: "created", lines: plan.creates.map((c) => `roles.${c.key}: "${c.entry.name}"`) },
  ].filter((k) => k.lines.length > 0);
  const changed = kinds.reduce((n, k) => n + k.lines.length, 0);
  if (!changed) return undefined;
  // Declared entries the plan leaves as they are: every updated, renamed-key or created one changes.
  const same = plan.order.length - plan.updates.length - movedOnly.length - plan.creates.length;
  const head =
    `GroupRoles of group ${plan.groupId}: ${count(changed)} ${changed === 1 ? "role changes" : "roles change"} ` +
    `(${kinds.map((k) => `${count(k.lines.length)} ${k.what.replace(/ \(.*$/, "")}`).join(", ")})` +
    `${same ? `; ${count(same)} other ${same === 1 ? "entry stays" : "entries stay"} as ${same === 1 ? "it is" : "they are"}` : ""}:`;
  const body = kinds.map((k) => `  ${k.what}:\n${someLines(k.lines, (l) => `  ${k.sign} ${l}`)}`).join("\n");
  return `${head}\n${body}`;
}
