/**
 * What a deployment's registrations declared and did with one group's roles, as a resource reads it:
 * `ledger.view(groupId)` for facts of the group (a delete, a step that has no registration to weigh),
 * `ledger.view(groupId, reg)` for what counts for that registration (who frees a name before it, who
 * takes a role it lets go, the exclusive catalogue checked before it). Read-only: a registration writes
 * what it declares through ./intent `record`, a step what it did through the ledger's `note*`.
 *
 * Every read of the ledger outside its own files goes through a view (test/architecture/ledger-view.test.ts),
 * so that the rules over the records (./name-rules) are the only code that weighs them.
 */
import type { DeclaredRole, Declarations, Release, Releases } from "./declarations";
import type { Exclusives } from "./exclusives";
import type { NameRules } from "./name-rules";
import type { Registration } from "./registrations";
import type { Creates } from "./role-creates";

/** The parts of the ledger a view reads (./deployment-ledger). */
export interface ViewedParts {
  readonly declarations: Declarations;
  readonly releases: Releases;
  readonly creates: Creates;
  readonly exclusives: Exclusives;
  readonly names: NameRules;
}

/** One group's roles as the deployment's registrations declared them and its steps left them. */
export class GroupView {
  constructor(
    protected readonly parts: ViewedParts,
    readonly groupId: number,
  ) {}

  /** How a registration of this deployment declares the role (kept, renamed), if one does. */
  declared(roleId: number): DeclaredRole | undefined {
    return this.parts.declarations.of(this.groupId, roleId);
  }

  /** The release of the role, if a registration lets it go. */
  released(roleId: number): Release | undefined {
    return this.parts.releases.of(this.groupId, roleId);
  }

  /** The release of the role that had `name`, if a registration lets one go. */
  releasedNamed(name: string): Release | undefined {
    return this.parts.releases.named(this.groupId, name);
  }

  /** A create or import of this deployment took the role over: it belongs to that resource now. */
  claimed(roleId: number): boolean {
    return this.parts.creates.isClaimed(this.groupId, roleId);
  }

  /** A create of this deployment made or took over the role: a lookup by name must not take it. */
  ofThisDeployment(roleId: number): boolean {
    return this.parts.creates.isOfThisDeployment(this.groupId, roleId);
  }

  /** A resource of this program holds the role: a registration declares it, or a create of this deployment made or took it over. */
  ofThisProgram(roleId: number): boolean {
    return this.declared(roleId) !== undefined || this.ofThisDeployment(roleId);
  }

  /** A create of `name` replaces a create of an earlier run whose outcome is unknown. */
  replacesUnconfirmed(name: string): boolean {
    return this.parts.creates.hasUnconfirmed(this.groupId, name);
  }

  /** A resource of this deployment took the role over, or declares its ID or name (./name-rules `mayBeTakenOver`). */
  mayBeTakenOver(roleId: number, name: string): boolean {
    return this.parts.names.mayBeTakenOver(this.groupId, roleId, name);
  }
}

/** The group as one registration (`reg`) weighs it: only what the program's structure orders before it counts. */
export class RegistrationView extends GroupView {
  constructor(
    parts: ViewedParts,
    groupId: number,
    readonly reg: Registration,
  ) {
    super(parts, groupId);
  }

  /** The registration in `reg`'s `dependsOn` whose step frees the name `name` of this role (./name-rules `freer`). */
  freer(roleId: number, name: string): Registration | undefined {
    return this.parts.names.freer(this.groupId, roleId, name, this.reg);
  }

  /** A registration before `reg` that gives `name` to another role than `roleId` (./name-rules `takerOf`). */
  takerOf(name: string, roleId: number) {
    return this.parts.names.takerOf(this.groupId, name, roleId, this.reg);
  }

  /** A registration that takes this role over although `reg` does not hand it over (./name-rules `unorderedTaker`). */
  unorderedTaker(roleId: number, name: string): Registration | undefined {
    return this.parts.names.unorderedTaker(this.groupId, roleId, name, this.reg);
  }

  /** The group's exclusive catalogue, when it registered before `reg` (./exclusives `before`). */
  exclusiveBefore(): Registration | undefined {
    return this.parts.exclusives.before(this.groupId, this.reg);
  }

  /** `reg` is an exclusive catalogue whose Check or Diff decided which roles it removes. */
  decidedRemovals(): boolean {
    return this.parts.exclusives.hasDecidedRemovals(this.reg);
  }
}
