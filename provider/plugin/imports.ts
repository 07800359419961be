/**
 * An import takes over roles a resource of the same deployment may be letting go: `z` imports the role
 * that `y2`, removed from the program, held (the advice a rename gets). The dynamic Role learns it
 * from its `import` input at Create; a plugin imports natively, so the engine's import step (Read with
 * the ID alone, then Check of the same URN, as step.go ImportStep does) is the only sign. A Read by ID
 * alone that a Check of the same URN follows is an import (a `get` is never checked): its roles are
 * claimed in the deployment ledger, and the resource letting them go (deletes run last) leaves them.
 */
import { deploymentLedger } from "../shared/deployment-ledger";

type Props = Record<string, unknown>;

/** Roles read by ID alone, by the URN that read them, as `[groupId, roleId]` pairs. */
const readByIdAlone = new Map<string, Array<[number, number]>>();

/** The roles a Read's outputs hold: a Role's own, or every entry of a GroupRoles. */
function rolesOf(props: Props): Array<[number, number]> {
  const { groupId, roleId, roles } = props;
  if (typeof groupId !== "number") return [];
  if (typeof roleId === "number") return [[groupId, roleId]];
  if (roles === null || typeof roles !== "object") return [];
  return Object.values(roles as Record<string, Props>)
    .map((entry) => entry?.roleId)
    .filter((id): id is number => typeof id === "number")
    .map((id) => [groupId, id]);
}

/** After a Read: remember what one with neither state nor inputs (an import or a get) found. */
export function noteRead(urn: string, request: { state: Props; inputs: Props }, found: Props | undefined): void {
  if (!found || Object.keys(request.state).length || Object.keys(request.inputs).length) return;
  readByIdAlone.set(urn, rolesOf(found));
}

/** At a Check: if this URN was just read by ID alone, it is being imported; its roles are claimed. */
export function claimIfImported(urn: string): void {
  const roles = readByIdAlone.get(urn);
  if (!roles) return;
  readByIdAlone.delete(urn);
  const ledger = deploymentLedger();
  for (const [groupId, roleId] of roles) ledger.claim(groupId, roleId);
}
