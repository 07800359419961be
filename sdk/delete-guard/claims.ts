/**
 * What the program declares, as the before-delete hook needs it: whether the resource being deleted is
 * still declared (then the delete is a replacement's or a `pulumi destroy --run-program`'s, and the
 * refusal says so: ./decide), and what takes a role over: a `Role` that imports the role's ID, or a
 * `GroupRoles` with `adoptExisting` that declares its name. The before-delete hooks of removed resources,
 * and of replacements that create first, run after the program ended (the engine deletes them once the
 * program signalled its end: pulumi/pulumi pkg/resource/deploy/source_eval.go `SignalAndWaitForShutdown`),
 * so every declaration is known then, whatever order the registrations took. A replacement that deletes
 * first runs its hook when its resource registers: every resource the program constructs before its
 * registration reaches the engine has been noted (constructors note synchronously, registrations are
 * sent after their inputs resolve), only one constructed later, inside an `apply`, is not. A value left
 * unknown in a preview takes nothing over.
 */
import * as pulumi from "@pulumi/pulumi";

/** A resource as the engine names it to a hook: its type token and name. */
export type ResourceKey = readonly [type: string, name: string];

/** The program's declarations, as a hook reads them. */
export interface Claims {
  /** A resource of this type and name is declared in this run. */
  declares(type: string, name: string): boolean;
  /** The program gives that declared resource `retainOnDelete: true` (which its state may not have yet). */
  retainsNow(type: string, name: string): boolean;
  /**
   * Some resource other than `self` takes over the role with this ID (`import: "<groupId>/<roleId>"`).
   * A resource's own claim is no takeover of the role its delete removes: a destroy deletes both halves
   * (a catalogue with `adoptExisting`, a `Role` that keeps its `import`; user trial of issue 52).
   */
  takesOverId(groupId: number, roleId: number, self?: ResourceKey): boolean;
  /** Some `GroupRoles` other than `self` with `adoptExisting: true` declares a role of this name in the group. */
  takesOverName(groupId: number, name: string, self?: ResourceKey): boolean;
}

/** One run's declarations (the hook closes over the run's own, see ./hook). */
export class ProgramClaims implements Claims {
  private readonly resources = new Map<string, { retainOnDelete: boolean }>();
  /** Each claimed role (by ID, or by group and name) with the resources that claim it. */
  private readonly ids = new Map<string, Set<string>>();
  private readonly names = new Map<string, Set<string>>();

  declares(type: string, name: string): boolean {
    return this.resources.has(key([type, name]));
  }
  retainsNow(type: string, name: string): boolean {
    return this.resources.get(key([type, name]))?.retainOnDelete === true;
  }
  takesOverId(groupId: number, roleId: number, self?: ResourceKey): boolean {
    return claimedByOther(this.ids.get(`${groupId}/${roleId}`), self);
  }
  takesOverName(groupId: number, name: string, self?: ResourceKey): boolean {
    return claimedByOther(this.names.get(JSON.stringify([groupId, name])), self);
  }

  /**
   * A `Role` (`importId` its `import` option) or `GroupRoles` constructed with these arguments and
   * options. A catalogue's names are noted entry by entry, so that an entry whose other fields are
   * unknown in a preview (a description from another resource's output) still claims its name.
   */
  note(
    type: string,
    name: string,
    args: {
      importId?: pulumi.Input<string>;
      groupId?: pulumi.Input<number>;
      roles?: pulumi.Input<Record<string, pulumi.Input<{ name: pulumi.Input<string> }>>>;
      adoptExisting?: pulumi.Input<boolean>;
    },
    opts?: { retainOnDelete?: boolean },
  ): void {
    const self = key([type, name]);
    this.resources.set(self, { retainOnDelete: opts?.retainOnDelete === true });
    const add = (map: Map<string, Set<string>>, claim: string) => {
      const by = map.get(claim) ?? new Set<string>();
      by.add(self);
      map.set(claim, by);
    };
    if (args.importId !== undefined) pulumi.output(args.importId).apply((id) => add(this.ids, String(id).trim()));
    const roles = args.roles;
    if (roles === undefined) return;
    pulumi.all([args.groupId, args.adoptExisting]).apply(([groupId, adopt]) => {
      if (adopt !== true || typeof groupId !== "number") return;
      const claimName = (entryName: unknown) => {
        if (typeof entryName === "string") add(this.names, JSON.stringify([groupId, entryName]));
      };
      if (isPlainObject(roles)) {
        for (const entry of Object.values(roles)) {
          if (isPlainObject(entry)) pulumi.output(entry.name).apply(claimName);
          else pulumi.output(entry).apply((e) => claimName(e?.name));
        }
      } else {
        pulumi.output(roles).apply((all) => {
          for (const entry of Object.values(all ?? {})) claimName(entry?.name);
        });
      }
    });
  }
}

const key = ([type, name]: ResourceKey) => JSON.stringify([type, name]);

function claimedByOther(by: ReadonlySet<string> | undefined, self: ResourceKey | undefined): boolean {
  if (by === undefined) return false;
  if (self === undefined) return by.size > 0;
  const own = key(self);
  return [...by].some((k) => k !== own);
}

/** A plain object literal, not an Output (whose fields are reached only through `apply`). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === "object" &&
    v !== null &&
    !pulumi.Output.isInstance(v) &&
    !Array.isArray(v) &&
    typeof (v as { then?: unknown }).then !== "function"
  );
}
