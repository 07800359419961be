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

/** The program's declarations, as a hook reads them. */
export interface Claims {
  /** A resource of this type and name is declared in this run. */
  declares(type: string, name: string): boolean;
  /** Some resource takes over the role with this ID (`import: "<groupId>/<roleId>"`). */
  takesOverId(groupId: number, roleId: number): boolean;
  /** Some `GroupRoles` with `adoptExisting: true` declares a role of this name in the group. */
  takesOverName(groupId: number, name: string): boolean;
}

/** One run's declarations (the hook closes over the run's own, see ./hook). */
export class ProgramClaims implements Claims {
  private readonly resources = new Set<string>();
  private readonly ids = new Set<string>();
  private readonly names = new Set<string>();

  declares(type: string, name: string): boolean {
    return this.resources.has(JSON.stringify([type, name]));
  }
  takesOverId(groupId: number, roleId: number): boolean {
    return this.ids.has(`${groupId}/${roleId}`);
  }
  takesOverName(groupId: number, name: string): boolean {
    return this.names.has(JSON.stringify([groupId, name]));
  }

  /** A `Role` (`importId` its `import` option) or `GroupRoles` constructed with these arguments. */
  note(
    type: string,
    name: string,
    args: {
      importId?: pulumi.Input<string>;
      groupId?: pulumi.Input<number>;
      roles?: pulumi.Input<Record<string, pulumi.Input<{ name: pulumi.Input<string> }>>>;
      adoptExisting?: pulumi.Input<boolean>;
    },
  ): void {
    this.resources.add(JSON.stringify([type, name]));
    if (args.importId !== undefined) pulumi.output(args.importId).apply((id) => this.ids.add(String(id).trim()));
    if (args.roles !== undefined) {
      pulumi.all([args.groupId, args.roles, args.adoptExisting]).apply(([groupId, roles, adopt]) => {
        if (adopt !== true || typeof groupId !== "number") return;
        for (const entry of Object.values(roles ?? {})) this.names.add(JSON.stringify([groupId, entry?.name]));
      });
    }
  }
}
