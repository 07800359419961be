/**
 * What only the order of registrations could settle, refused in the Check or Diff of the registration
 * that comes too late (so in the preview as in `up`), with the order that works. The rules rest on
 * the engine's guarantees listed in ./deployment-ledger: a decision sees earlier registrations only,
 * and a step may wait for an earlier registration's step, never for a later one's.
 */
import { ConflictError, NameTakenError } from "../../client/status-errors";
import type { Release } from "./declarations";
import type { DeploymentLedger } from "./deployment-ledger";
import type { Registration } from "./registrations";
import { dependencyDeclaring, urnName } from "./structure";

/**
 * A refresh's Diff (before the program's first Check) refuses nothing. It shows the drift a refresh
 * found ("the diff that a user would see if they immediately ran an `up` on a no-change program",
 * pkg/resource/deploy/step.go of pulumi/pulumi, `RefreshStep.Apply`), and the engine fails the refresh
 * when it throws. The refusals of order, names and use concern the program's registrations, which a
 * refresh has none of: its steps run on workers in any order (found by the simulation: an exclusive
 * catalogue's refresh Diff before another catalogue's made that one refuse, and a plain `refresh`
 * failed; test/provider/group-roles-diff-moves.test.ts reproduces it). A conflict raised in a Diff,
 * which writes nothing, is always such a refusal: the refresh then shows a change, and the `up` that
 * follows decides (it refuses there if it must).
 */
export async function refusingOnlyInProgram<T extends { changes: boolean }>(
  refreshing: boolean,
  diff: () => Promise<T>,
  changed: T,
): Promise<T> {
  if (!refreshing) return diff();
  try {
    return await diff();
  } catch (error) {
    if (error instanceof ConflictError) return changed;
    throw error;
  }
}

/** A role named in these messages. */
export interface NamedRole {
  name: string;
  roleId?: number;
}

const roleText = (r: NamedRole) => `"${r.name}"${r.roleId === undefined ? "" : ` (roleId ${r.roleId})`}`;

/**
 * Said beside every `dependsOn` advice: this resource may itself depend on the other (that is why it
 * registers later), and the advice would then make a cycle. Declaring a resource earlier in the code
 * does not make it register earlier: a resource registers once its inputs resolve
 * (docs/design/engine-order.md, point 5), so `dependsOn` is the only order a program can state.
 */
const REVERSE_DEPENDENCY =
  "and remove this resource's own `dependsOn` on it, if it has one; the order of the code does not decide";

const TWO_STEPS_MOVE =
  "Or move it in two steps: mark its entry `retain: true` and run `pulumi up`, then move it (the role is then " +
  "adopted by name or `import`).";

/**
 * `reg` takes over a role (by its ID, or the role holding `role.name`) that a registration checked
 * before it deletes in its own update, and this one is not in that one's `dependsOn`: the engine may run
 * either step first, so the role may be gone before this one takes it. Undefined when the move is
 * sound (nobody lets it go, it was handed to `reg`, or it is deleted only after every step). The case
 * where this one is checked first is refused in the giver's registration ({@link unorderedTakeover}):
 * refused in every order.
 */
export function lateTakeover({ ledger, groupId, reg, what }: At, role: NamedRole): NameTakenError | undefined {
  const view = ledger.view(groupId);
  const release = role.roleId !== undefined ? view.released(role.roleId) : view.releasedNamed(role.name);
  if (!release || release.reg === reg || release.deferred || release.handedTo === reg) return undefined;
  return new NameTakenError(
    `${what}: role ${roleText(release)} of group ${groupId} is removed from ` +
      `${release.reg.described}, which deletes it in its own update, and nothing orders that update after this ` +
      "resource takes it over. To move the role (keeping its ID and users), " +
      `give ${release.reg.described} the resource option \`dependsOn\` on this resource ` +
      `(${REVERSE_DEPENDENCY}). ${TWO_STEPS_MOVE}`,
  );
}

/** What a rule weighs: the ledger, the group, the registration that declares, and the words a refusal starts with. */
export interface At {
  ledger: DeploymentLedger;
  groupId: number;
  reg: Registration;
  what: string;
}

/** A role `reg` lets go in its own update. */
interface LetGo extends At {
  release: Release;
}

/**
 * The refusals a role that `reg` lets go meets (see ./intent `Released`): with `checks: "ordered"`, a
 * takeover nothing orders ({@link unorderedTakeover}); with `"all"`, also a taker the program declares that
 * does not run ({@link absentTaker}) and its name taken for another role before this step frees it
 * ({@link lateFreeing}). A role deleted only after every other step, or handed to an earlier
 * registration, meets none.
 */
export function releaseRefusals(letGo: LetGo, checks: "all" | "ordered"): NameTakenError[] {
  const { release } = letGo;
  if (release.deferred || release.handedTo) return [];
  const unordered = unorderedTakeover(letGo);
  if (checks === "ordered") return unordered ? [unordered] : [];
  // A role another resource takes over is not its name taken "for another role": one refusal, one advice.
  const freeing = unordered ? undefined : lateFreeing(letGo, release);
  return [unordered, absentTaker(letGo), freeing].filter((r): r is NameTakenError => r !== undefined);
}

/**
 * `reg` deletes in its own update a role (`release`) that another registration, checked before it,
 * takes over although this one does not have it in its `dependsOn`: either step may run first. The
 * mirror of {@link lateTakeover}, so that the case is refused whichever of the two the engine checks
 * first (the preview and the `up` may check them in different orders).
 */
function unorderedTakeover({ ledger, groupId, release, reg, what }: LetGo): NameTakenError | undefined {
  const taker = ledger.view(groupId, reg).unorderedTaker(release.roleId, release.name);
  if (!taker) return undefined;
  return new NameTakenError(
    `${what}: role ${roleText(release)} of group ${groupId} leaves this resource, which deletes it in its own ` +
      `update, and ${taker.described} takes it over in this change; nothing orders this update after that ` +
      "takeover, so the role may be deleted first. To move the role (keeping its ID and users), give this resource " +
      `the resource option \`dependsOn\` on ${taker.described} (${REVERSE_DEPENDENCY}). ${TWO_STEPS_MOVE}`,
  );
}

/**
 * `reg` deletes in its own update a role (`release`) that a resource in its `dependsOn` declares, as the
 * program's structure says, although that resource did not register in this deployment: the engine
 * checks every resource in `dependsOn` before this one (step_generator.go), except those `--target`
 * leaves out or `--exclude` names, which get no Check and no step (`NewUntargetedSameStep`). So nothing
 * takes the role over in this run and the update would delete it: refused, in the preview as in the `up`.
 */
function absentTaker({ ledger, groupId, release, reg, what }: LetGo): NameTakenError | undefined {
  const taker = dependencyDeclaring(reg.structure, groupId, { roleId: release.roleId, name: release.name });
  if (taker === undefined || ledger.registrations.has(taker)) return undefined;
  const name = urnName(taker);
  return new NameTakenError(
    `${what}: role ${roleText(release)} of group ${groupId} leaves this resource, which deletes it in its own ` +
      `update, and ${name} (in this resource's \`dependsOn\`) declares it but does not run in this deployment ` +
      "(`pulumi up --target` leaves it out, or `--exclude` names it), so nothing would take the role over and it " +
      `would be deleted. Run the change without \`--target\`/\`--exclude\`, or with both resources (\`--target ${taker}\` too).`,
  );
}

/**
 * `reg` creates a role named `name` (a Role: it takes a role over only with `import`) that another
 * registration lets go in this change: a move needs `import`, a new role two steps. Its own old role,
 * which the engine replaces, is not another's (../role/held-names says whether the name is free in time).
 */
export function releasedName({ ledger, groupId, reg, what }: At, name: string): NameTakenError | undefined {
  const release = ledger.view(groupId).releasedNamed(name);
  const own = release?.reg.replaced === true && release.reg.structure.urn === reg.structure.urn;
  if (!release || release.reg === reg || own) return undefined;
  const when = release.deferred
    ? "deletes it only after every other change"
    : "registers before this Role and deletes it in its own update";
  return new NameTakenError(
    `${what}: the group's role "${release.name}" (roleId ${release.roleId}) is removed from ${release.reg.described} in this change, which ` +
      `${when}; a Role takes over an existing role only with the resource option \`import\`. To move that role here ` +
      `(keeping its ID and users), add \`import: "${groupId}/${release.roleId}"\`` +
      (release.deferred ? "" : ` and give ${release.reg.described} \`dependsOn\` on this Role`) +
      "; to replace it with a new role, remove it in one `pulumi up` and create this one in the next.",
  );
}

/** `reg` keeps a role that an earlier registration deletes in its own update (an exclusive catalogue's removal). */
export function lateKeep(
  { ledger, groupId, reg, what }: At,
  role: NamedRole & { roleId: number },
): NameTakenError | undefined {
  const release = ledger.view(groupId).released(role.roleId);
  if (!release || release.reg === reg || release.deferred || release.handedTo) return undefined;
  return new NameTakenError(
    `${what}: this resource keeps role ${roleText(role)}, which ${release.reg.described} removes in this change ` +
      "(it registers before this resource, sees no resource declaring the role, and deletes it in its own update). " +
      `Give ${release.reg.described} the resource option \`dependsOn\` on this resource (${REVERSE_DEPENDENCY}), so ` +
      "that it registers after it and leaves the role alone; or declare the role in one resource only.",
  );
}

/**
 * `reg` declares a role it does not hold yet (a Role created or imported, an entry added) in a group
 * whose exclusive catalogue registered before it. That catalogue's Check or Diff could not see the
 * declaration, and it never will: from the next run on it would remove the role as undeclared (and
 * every preview would refuse, see {@link lateKeep}). Refused now, so in the preview that adds it.
 */
export function lateDeclare({ ledger, groupId, reg, what }: At, name: string): NameTakenError | undefined {
  const catalogue = ledger.view(groupId, reg).exclusiveBefore();
  if (!catalogue) return undefined;
  return new NameTakenError(
    `${what}: ${catalogue.described} has \`exclusive: true\` and registers before this resource, so it cannot see ` +
      `that this resource declares role "${name}": the next \`pulumi up\` would remove that role as one the program ` +
      `does not declare. Give ${catalogue.described} the resource option \`dependsOn\` on this resource, so that it ` +
      "registers after it and sees the role declared; or declare the role in that catalogue.",
  );
}

/**
 * `reg` frees the name `role.name` in its step (renames the role to `plannedName`, or deletes it),
 * while an earlier registration gives that name to another role (a create, or a rename onto it): that
 * write may run before this step and meet the name still held. Its advice depends on whether the two
 * swap names (no order works) or one follows the other (`dependsOn` on the taker).
 */
export function lateFreeing(
  { ledger, groupId, reg, what }: At,
  role: NamedRole & { roleId: number; plannedName?: string },
): NameTakenError | undefined {
  const taker = ledger.view(groupId, reg).takerOf(role.name, role.roleId);
  if (!taker) return undefined;
  const gives =
    role.plannedName === undefined
      ? `deletes role ${roleText(role)}`
      : `renames role ${roleText(role)} to "${role.plannedName}"`;
  const head =
    `${what}: this resource ${gives}, and ${taker.reg.described} takes the name "${role.name}" for ` +
    `${taker.create ? "a new role" : "another role"} in this change; Pulumi registers it before this resource, so ` +
    `its write may run before this one has freed "${role.name}".`;
  if (role.plannedName !== undefined && taker.currentName === role.plannedName) {
    return new NameTakenError(
      `${head} The two swap names, which no order of two resources can apply in one \`pulumi up\`: apply it in two ` +
        "steps (first rename one of them to a name neither uses), or declare both roles in one GroupRoles, which " +
        "swaps names within one update.",
    );
  }
  return new NameTakenError(
    `${head} Give ${taker.reg.described} the resource option \`dependsOn\` on this resource ` +
      `(${REVERSE_DEPENDENCY}), so that it registers after it and finds the name free; or apply the change in two ` +
      "steps.",
  );
}

/**
 * Every refusal of one registration in one error, so that a catalogue that several others give roles
 * to too late names them all (fixing the first and re-running would only reveal the next).
 */
export function allRefusals(refusals: ReadonlyArray<NameTakenError | undefined>): NameTakenError | undefined {
  const found = refusals.filter((r): r is NameTakenError => r !== undefined);
  if (found.length <= 1) return found[0];
  return new NameTakenError(
    `${found.length} roles cannot be applied in this registration order:\n` +
      found.map((r, i) => `${i + 1}. ${r.message}`).join("\n"),
  );
}
