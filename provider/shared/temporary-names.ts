/**
 * Names held for a moment: the temporary name a role of a GroupRoles steps aside to when its names swap
 * or rotate across requests (./../group-roles/ordering).
 */

/** How every temporary name ends. */
export const TEMPORARY_NAME_MARK = "(pulumi-grouproles)";

/** A name no program would choose, unique per role, within the 70-character limit. */
export const temporaryName = (roleId: number): string => `~renaming role ${roleId} ${TEMPORARY_NAME_MARK}`;
