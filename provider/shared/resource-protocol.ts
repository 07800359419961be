/**
 * What every resource of this package does around its own work, in each call of Pulumi's
 * ResourceProvider protocol, so that the Role and GroupRoles providers read as their own work only:
 * a Check opens the resource's registration in the ledger (./deployment-ledger) and refuses settings
 * and inputs that cannot work; a Diff works on the registration its Check opened; a create or update
 * runs as that registration's step; a delete runs after every other step. Each notes its failure in
 * the ledger, which the messages of later operations read.
 */
import { configCheckFailures } from "./config-check";
import { explainedDelete } from "./deletions";
import { deploymentLedger } from "./deployment-ledger";
import type { CheckFailure } from "./fields";
import { checkCreateCredentials } from "./preview-listing";
import { refusingOnlyInProgram } from "./registration-order";
import type { Registration } from "./registrations";
import { structureOf } from "./structure";
import type { Props } from "./props";

/** How a resource checks: what the ledger calls it, its inputs' own failures, and what a create declares. */
export interface CheckOf {
  /** The Check in a failure's words: `check of a Role`. */
  what: string;
  /** The resource in words, for messages (see `Registration.described`). */
  described: string;
  /** The inputs' own failures (types, ranges), before any request. */
  inputFailures: (news: Props) => CheckFailure[];
  /** A create (no olds) whose inputs and credentials pass: what it declares, or why it is refused. */
  declareCreate: (news: Props, reg: Registration) => Promise<CheckFailure[]>;
}

/** A Check: opens the registration (the engine checks one at a time, in order), then checks the resource. */
export async function checkRegistration(olds: Props, news: Props, of: CheckOf) {
  const ledger = deploymentLedger();
  // The engine checks one registration at a time, in order: this one comes after every one checked so far.
  ledger.run.noteProgramCheck(); // first: it forgets what a refresh's Diffs declared
  const reg = ledger.registrations.register(of.described, structureOf(news), Object.keys(olds).length === 0);
  return ledger.run.observe(
    of.what,
    reg,
    async () => {
      // Settings that cannot work fail every preview, a no-op one too, before any request (./config-check).
      const config = configCheckFailures();
      if (config.length) return { inputs: news, failures: config };
      let failures = await checkCreateCredentials(olds, news, of.inputFailures(news));
      if (!failures.length && Object.keys(olds).length === 0) failures = await of.declareCreate(news, reg);
      return { inputs: news, failures };
    },
    (result) => result.failures.length > 0,
  );
}

/**
 * A Diff, of the registration the engine has just checked (see {@link checkRegistration}), described
 * now as `described`. `changed` is what a refresh's Diff answers when it would refuse (./registration-order).
 */
export async function diffRegistration<T extends { changes: boolean; replaces: readonly string[] }>(
  what: string,
  described: string,
  diff: (reg: Registration) => Promise<T>,
  changed: T,
): Promise<T> {
  const ledger = deploymentLedger();
  // The engine diffs the registration it has just checked (see `checkRegistration`).
  const reg = ledger.registrations.current();
  reg.described = described;
  // A Diff before the program's first Check is a refresh's (./run-state `refreshing`): it refuses nothing.
  const refreshing = ledger.run.refreshing;
  const result = await ledger.run.observe(what, reg, () => refusingOnlyInProgram(refreshing, () => diff(reg), changed));
  // No step follows (no change), or the step is the replacement's create, which the engine checks anew.
  if (!result.changes || result.replaces.length) reg.settle(true);
  return result;
}

/**
 * A create or update, with the inputs it was given: the step of the registration its resource's Check
 * and Diff opened, found by the URN the inputs carry (../shared/registrations `stepOf`).
 */
export function runStep<T>(inputs: Props, described: string, step: (reg: Registration) => Promise<T>): Promise<T> {
  const ledger = deploymentLedger();
  const reg = ledger.registrations.stepOf(structureOf(inputs), described);
  return ledger.run.track(reg, () => step(reg));
}

/**
 * A delete. Deletes run after every other step: no registration waits for them. In a destroy, a failure
 * says what the destroy did and what to do next (./deletions), with the resource's `urn` where the
 * engine gave it (the resource plugin's DeleteRequest; the dynamic-provider host passes none).
 */
export function runDelete<T>(op: () => Promise<T>, urn?: string): Promise<T> {
  return deploymentLedger().run.track(undefined, () => explainedDelete(op, urn));
}
