/**
 * What a GroupRoles diff reports to the engine beside "changes": the top-level inputs that change
 * (`diffs`, which `replaceOnChanges` is matched against: step_generator.go applyReplaceOnChanges) and,
 * per entry, what happens to it (`detailedDiff`, keyed by property path, which the CLI shows). The
 * plugin sends both; the dynamic-provider host forwards neither (cmd/dynamic-provider diff).
 */
import { changedTextFields } from "../../client/role-fields";
import { isUnknown } from "../shared/fields";
import { sameSettings } from "../shared/settings";
import { renamedKeys } from "./renamed-keys";
import { hasUnknowns, type EntryState, type GroupRolesState, type Props } from "./types";

/** What happens to one entry: Pulumi's PropertyDiff kinds. */
export type EntryChange = "add" | "delete" | "update";

/** True when the declared entry differs from the state's (unknown values always differ). */
export function entryChanged(old: EntryState, entry: unknown): boolean {
  if (!entry || typeof entry !== "object") return true;
  const e = entry as Props;
  if (isUnknown(e.name) || e.name !== old.name) return true;
  if (changedTextFields(old, e, isUnknown).length > 0) return true;
  if (!sameSettings(old.settings ?? {}, e.settings ?? {})) return true;
  return (e.retain === true) !== (old.retain === true);
}

/** A property path as Pulumi writes one (resource.PropertyPath): `roles.a`, or `roles["a b"]`. */
export function propertyPath(parent: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** The keys and entries that change between the state and the new inputs; O(entries). */
export function reportChanges(
  state: GroupRolesState,
  news: Props,
  replaced: boolean,
  /** The keys only renamed, when the Diff computed them (./renamed-keys). */
  renamed?: ReadonlyMap<string, string>,
): { diffs: string[]; detailedDiff?: Record<string, EntryChange> } {
  if (replaced) return { diffs: ["groupId"] };
  const diffs: string[] = [];
  if (isUnknown(news.exclusive) || (news.exclusive === true) !== (state.exclusive === true)) diffs.push("exclusive");
  const roles = news.roles;
  if (isUnknown(roles) || hasUnknowns(roles) || !roles || typeof roles !== "object")
    return { diffs: ["roles", ...diffs] };
  const declared = roles as Props;
  const moved = renamed ?? renamedKeys(state, declared);
  const movedFrom = new Set(moved.values());
  const detailedDiff: Record<string, EntryChange> = {};
  for (const [key, entry] of Object.entries(declared)) {
    const old = state.roles[key] ?? state.roles[moved.get(key) ?? ""];
    if (!old) detailedDiff[propertyPath("roles", key)] = "add";
    else if (moved.has(key) || entryChanged(old, entry)) detailedDiff[propertyPath("roles", key)] = "update";
  }
  for (const key of Object.keys(state.roles))
    if (!Object.hasOwn(declared, key) && !movedFrom.has(key)) detailedDiff[propertyPath("roles", key)] = "delete";
  const entries = Object.keys(detailedDiff).length > 0 || Object.keys(state.unconfirmed ?? {}).length > 0;
  return { diffs: entries ? ["roles", ...diffs] : diffs, detailedDiff };
}
