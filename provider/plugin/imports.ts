/**
 * An import takes over roles a resource of the same deployment may be letting go: `z` imports the role
 * that `y2`, removed from the program, held (the advice a rename gets). The dynamic Role learns it
 * from its `import` input at Check; a plugin imports natively, so the engine's import step (Read with
 * the ID alone, then Check of the same URN, as step.go ImportStep does) is the only sign. A `get` is
 * never checked, and one URN cannot be both read and registered in a deployment (the step generator's
 * generateURN refuses a duplicate URN), so a Read by ID alone that a Check of the same URN follows is
 * an import. Once that Check passes, its roles are claimed in the deployment ledger: the resource
 * letting them go (its delete, or a catalogue's update that removes the entry) leaves them.
 *
 * The engine runs an import step (its Read and Check) on a worker, beside the registrations that
 * follow, so a catalogue registered after it may or may not see the claim at its Diff; its apply checks
 * claims again right before deleting, and the way that is sure is the usual one for a move: give the
 * resource that lets the role go `dependsOn` on the importing one.
 */
import { deploymentLedger } from "../shared/deployment-ledger";
import type { Props } from "../shared/props";

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

/** Reads by ID alone (an import, or a `get`) of this deployment, by URN: the roles they found. */
const readByIdAlone = new WeakMap<object, Map<string, Array<[number, number]>>>();
const readsOf = (ledger: object) => {
  let reads = readByIdAlone.get(ledger);
  if (!reads) {
    reads = new Map();
    readByIdAlone.set(ledger, reads);
  }
  return reads;
};

/**
 * Runs a Read; one with neither state nor inputs (an import or a `get`) is tracked as an operation of
 * the deployment and what it found is remembered for the Check that follows an import.
 */
export async function readNoting<R extends { id: string; props?: unknown }>(
  urn: string,
  request: { state: Props; inputs: Props },
  read: () => Promise<R>,
): Promise<R> {
  if (Object.keys(request.state).length || Object.keys(request.inputs).length) return read();
  const ledger = deploymentLedger();
  const r = await read();
  if (r.id && r.props) readsOf(ledger).set(urn, rolesOf(r.props as Props));
  return r;
}

/** After a Check that passed: if this URN was just read by ID alone, it is imported; its roles are claimed. */
export function claimIfImported(urn: string): void {
  const ledger = deploymentLedger();
  const roles = readsOf(ledger).get(urn);
  if (!roles) return;
  readsOf(ledger).delete(urn);
  for (const [groupId, roleId] of roles) ledger.noteClaimed(groupId, roleId);
}
