/**
 * Names held for a moment: the temporary name a role steps aside to when names swap or rotate across
 * requests, and how long a write waits for a name another resource of the deployment is freeing.
 */

/** How every temporary name ends. */
export const TEMPORARY_NAME_MARK = "(pulumi-grouproles)";

/** A name no program would choose, unique per role, within the 70-character limit. */
export const temporaryName = (roleId: number): string => `~renaming role ${roleId} ${TEMPORARY_NAME_MARK}`;

/** How long a write waits for name changes of this deployment. */
export const NAME_WAIT = {
  /** For a holder this process has not seen declared yet (the program may still be registering it). */
  undeclaredGraceMs: 5_000,
  /** For the whole wait, however many renames it follows. */
  deadlineMs: 120_000,
  /** Registrations have stopped when none came for this long (see the ledger's `quiet`). */
  quietMs: 1_000,
};
