/**
 * What a failed delete says in a `pulumi destroy`: what this destroy did (the roles every delete of
 * it deleted, by resource), what was not deleted and why (the error itself), and what to do next for
 * a destroy (fix that, run `pulumi destroy --run-program` again: it deletes only what is left; without
 * `--run-program` a stack with delete hooks is refused, docs/delete-hooks.md), instead of advice
 * for an `up` ("declare it again, run `pulumi up`") and a "nothing was changed" that the roles deleted
 * beside it contradict.
 *
 * A destroy's deletes run in waves, the independent ones side by side (deployment_executor.go
 * `performPostSteps`, one antichain at a time), so a delete that fails first waits for the other
 * deletes already running in this process to end (their outcomes, never a clock) before it reports:
 * the report then holds everything the deletes the engine started did. In an `up` (see the ledger's
 * `run.operation`) the error is left as it is: its deletes come after the program's changes, which the
 * `up`'s own output lists.
 */
import { GroupRolesError } from "../../client/errors";
import { RoleInUseError } from "../../client/status-errors";
import { inProse } from "../../client/role-fields";
import { deploymentLedger } from "./deployment-ledger";
import type { Deletion } from "./run-state";

/** Runs a resource's delete; in a destroy, a failure reports what the destroy did and what to do next. */
export async function explainedDelete<T>(op: () => Promise<T>, urn?: string): Promise<T> {
  const ledger = deploymentLedger();
  try {
    return await ledger.run.runDelete(op);
  } catch (error) {
    if (ledger.run.operation !== "destroy") throw error;
    await ledger.run.otherDeletesEnded();
    const report = destroyReport(ledger.run.deletions);
    const forget = error instanceof RoleInUseError ? `\n${forgetAdvice(urn)}` : "";
    const message = `${(error as Error)?.message ?? String(error)}${forget}\n${report}`;
    if (error instanceof GroupRolesError) throw error.rephrase(message);
    throw new Error(message, { cause: error });
  }
}

/**
 * The way out of an in-use refusal that keeps the roles without another `pulumi up`: Pulumi forgets the
 * resource. The exact command where the engine gave the URN (the resource plugin); the dynamic-provider
 * host passes a delete no URN (cmd/dynamic-provider/index.js of @pulumi/pulumi, `delete`), and its
 * state records none, so the dynamic SDK's refusal says where the URN is (issue 53: "the URN this error
 * starts with" pointed at a URN the error did not print).
 */
export function forgetAdvice(urn: string | undefined): string {
  const head = "Or make Pulumi forget this resource now, keeping its roles in the service: ";
  return urn === undefined
    ? `${head}\`pulumi state delete '<URN>'\`, with the URN of the resource this error is listed under ` +
        "(`pulumi stack --show-urns` lists them)."
    : `${head}\`pulumi state delete '${urn}'\`.`;
}

const quoted = (names: readonly string[], max = 5) => {
  const shown = names.slice(0, max).map((n) => JSON.stringify(n));
  return names.length > max ? `${shown.join(", ")} and ${names.length - max} more` : inProse(shown);
};
const roles = (n: number) => `${n} role${n === 1 ? "" : "s"}`;

/** The lines a failed delete of a destroy ends with. */
export function destroyReport(deletions: readonly Deletion[]): string {
  const total = deletions.reduce((n, d) => n + d.names.length, 0);
  const done = total
    ? `This destroy deleted ${roles(total)} so far: ${deletions.map((d) => `${quoted(d.names)} (${d.by})`).join("; ")}.`
    : "This destroy deleted no role so far.";
  return (
    `${done} The resource whose delete failed stays in the stack. Fix what the error says, then run the same ` +
    "`pulumi destroy` again (with `--run-program` if you gave it): it deletes only what is left (a role already gone is simply dropped). After a " +
    "`pulumi up` whose program no longer declares these resources, run that `pulumi up` again instead."
  );
}
