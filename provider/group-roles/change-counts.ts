/**
 * A large change of a catalogue in counts, for the preview to print before its lines: a 2,000-entry
 * diff is a screen of property lines (the dynamic provider cannot send a per-entry diff), and a reviewer
 * should read "1,990 created, 4 renamed, 1 deleted" before scrolling (issue 43).
 */
import type { Plan } from "./plan";

/** Changes of at most this many entries are read line by line; above it the counts come first. */
export const COUNTS_FROM = 10;

const count = (n: number) => n.toLocaleString("en-US");

/** `GroupRoles of group 42: 2,000 entries change: 1,990 created, ...`, or undefined for a small change. */
export function changeCounts(plan: Plan, movedKeys: Iterable<string> = []): string | undefined {
  // A key renamed with its name kept: the same role; counted here only when nothing else of it changes.
  const updated = new Set(plan.updates.map((u) => u.key));
  const keysRenamed = [...movedKeys].filter((key) => !updated.has(key)).length;
  const takenOver = plan.updates.filter((u) => u.previouslyDeclared === null).length;
  const written = plan.updates.filter((u) => u.previouslyDeclared !== null);
  const renamed = written.filter((u) => u.currentName !== u.finalName).length;
  const parts: Array<[number, string]> = [
    [plan.creates.length, "created"],
    [takenOver, "taken over (kept, with their IDs and users)"],
    [renamed, "renamed"],
    [written.length - renamed, "updated (settings or text)"],
    [keysRenamed, "kept under a new key"],
    [plan.deletes.length, "deleted"],
    [plan.letGo.length, "handed to another resource"],
    [plan.exclusive ? plan.unmanaged.length : 0, "not declared, removed (exclusive)"],
  ];
  const total = parts.reduce((sum, [n]) => sum + n, 0);
  if (total <= COUNTS_FROM) return undefined;
  const shown = parts.filter(([n]) => n > 0).map(([n, what]) => `${count(n)} ${what}`);
  return `GroupRoles of group ${plan.groupId}: ${count(total)} roles change: ${shown.join(", ")}`;
}
