/**
 * After an import (Read with the ID alone) a resource's outputs hold every setting its roles hold,
 * while its inputs (what `pulumi import` writes into the program) declare none: the program manages
 * only the settings it lists. Diff and Update compare and write the settings of the old outputs, so
 * before they run, the old outputs are narrowed to the settings keys the old or the new inputs
 * declare. Otherwise a program listing some settings would differ from the import on all the others
 * (the engine turns that into an update, since 3.174.0), and the update would reset them.
 * Outside imports, outputs hold only declared keys already: narrowing changes nothing.
 */
import type { Props } from "../shared/props";

const settingsKeys = (entry: unknown): string[] => {
  const settings = entry && typeof entry === "object" ? (entry as Props).settings : undefined;
  return settings && typeof settings === "object" ? Object.keys(settings) : [];
};

function narrow(settings: unknown, keep: ReadonlySet<string>): unknown {
  if (!settings || typeof settings !== "object") return settings;
  return Object.fromEntries(Object.entries(settings).filter(([k]) => keep.has(k)));
}

/** `olds` with each role's settings narrowed to the keys `oldInputs` or `news` declare for it. */
export function narrowToDeclared(token: string, olds: Props, oldInputs: Props | undefined, news: Props): Props {
  if (!oldInputs || Object.keys(oldInputs).length === 0) return olds; // an engine that sends none: as is
  if (token === "grouproles:index:Role") {
    if (olds.settings === undefined) return olds;
    const keep = new Set([...settingsKeys(oldInputs), ...settingsKeys(news)]);
    return { ...olds, settings: narrow(olds.settings, keep) };
  }
  if (token === "grouproles:index:GroupRoles" && olds.roles && typeof olds.roles === "object") {
    const entries = (m: unknown) => (m && typeof m === "object" ? (m as Record<string, unknown>) : {});
    const newByName = new Map<unknown, string[]>();
    for (const e of Object.values(entries(news.roles))) {
      if (e && typeof e === "object") newByName.set((e as Props).name, settingsKeys(e));
    }
    const roles = Object.fromEntries(
      Object.entries(entries(olds.roles)).map(([key, role]) => {
        if (!role || typeof role !== "object") return [key, role];
        const r = role as Props;
        const keep = new Set([
          ...settingsKeys(entries(oldInputs.roles)[key]),
          ...settingsKeys(entries(news.roles)[key]),
          ...(newByName.get(r.name) ?? []),
        ]);
        return [key, { ...r, settings: narrow(r.settings, keep) }];
      }),
    );
    return { ...olds, roles };
  }
  return olds;
}
