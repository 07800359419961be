/**
 * How a deployment runs, as far as this process has seen it: whether the program runs (an `up` or
 * preview) or only deletes do (a destroy), what failed, and what its deletes did.
 */
import type { Registration } from "./registrations";

/** Roles one delete deleted: which resource (in words), its group, the roles' names. */
export interface Deletion {
  by: string;
  groupId: number;
  names: readonly string[];
}

export class RunState {
  /** A Role's or GroupRoles' Check ran in this deployment: the program runs (see {@link operation}). */
  private programChecked = false;
  /** What failed in this deployment (a refused Check, a failed Diff, Create, Update or Delete). */
  private readonly failures: string[] = [];
  /** Roles the deletes of this deployment deleted, by the resource that deleted them. */
  private readonly deleted: Deletion[] = [];
  /** Deletes of this deployment that are running (their requests, not their messages). */
  private readonly deletesRunning = new Set<Promise<unknown>>();

  /** `programStarts`: the first Check of the program arrived (see {@link noteProgramCheck}). */
  constructor(private readonly programStarts: () => void) {}

  /**
   * A Role's or GroupRoles' Check arrived: the program runs in this deployment. Diffs before the first
   * Check were a refresh's (`up --refresh` refreshes every resource before the program runs:
   * deployment_executor.go `Execute` calls `refresh` first, and step.go `RefreshStep.Apply` diffs each
   * read resource against its inputs in state, "the diff that a user would see if they immediately ran
   * an `up` on a no-change program"). What they declared is the state's, not the program's, so it is
   * forgotten: a catalogue registered before a Role must not read the Role's role as kept (history 1064).
   */
  noteProgramCheck(): void {
    if (!this.programChecked) this.programStarts();
    this.programChecked = true;
  }

  /** No Check of the program yet: a Diff now is a refresh's (see {@link noteProgramCheck}). */
  get refreshing(): boolean {
    return !this.programChecked;
  }

  /**
   * `"up"` when a Check of this deployment ran (a preview or up runs the program, and every Check comes
   * before any delete: deployment_executor.go `performPostSteps`), else `"destroy"`: `pulumi destroy`
   * runs no program (nor does `--run-program` check custom resources: step_generator.go skips them in
   * destroy mode), and neither does an `up` whose program declares none of these resources any more,
   * which the messages name as the exception.
   */
  get operation(): "up" | "destroy" {
    return this.programChecked ? "up" : "destroy";
  }

  /** Runs `reg`'s step (a create, update or delete): settles it, and notes a failure. */
  async track<T>(reg: Registration | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      reg?.settle(true);
      return result;
    } catch (error) {
      reg?.settle(false);
      this.noteFailure((error as Error)?.message ?? String(error));
      throw error;
    }
  }

  /** Runs a Check or Diff, noting a failure (an error, or Check failures) and settling `reg` as failed. */
  async observe<T>(
    what: string,
    reg: Registration,
    fn: () => Promise<T>,
    refused?: (result: T) => boolean,
  ): Promise<T> {
    try {
      const result = await fn();
      if (refused?.(result)) {
        reg.settle(false);
        this.noteFailure(what);
      }
      return result;
    } catch (error) {
      reg.settle(false);
      this.noteFailure(what);
      throw error;
    }
  }

  /** An operation of this deployment failed. */
  private noteFailure(what: string): void {
    this.failures.push(what);
  }

  /** The first failure of this deployment, if any. */
  get failure(): string | undefined {
    return this.failures[0];
  }

  /** A delete of this deployment deleted these roles. */
  noteDeleted(deletion: Deletion): void {
    if (deletion.names.length) this.deleted.push(deletion);
  }

  /** What the deletes of this deployment deleted so far, in the order they did it. */
  get deletions(): readonly Deletion[] {
    return this.deleted;
  }

  /** Runs a delete's requests, known as running until they end (see {@link otherDeletesEnded}). */
  async runDelete<T>(op: () => Promise<T>): Promise<T> {
    const running = op();
    this.deletesRunning.add(running);
    try {
      return await running;
    } finally {
      this.deletesRunning.delete(running);
    }
  }

  /**
   * Waits until no other delete of this deployment is running (their outcomes, not a clock): what a
   * failed delete reports of the deployment is then all that the deletes the engine started did.
   */
  async otherDeletesEnded(): Promise<void> {
    while (this.deletesRunning.size) await Promise.allSettled([...this.deletesRunning]);
  }
}
