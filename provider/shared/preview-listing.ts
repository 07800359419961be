/**
 * What a preview knows of a group: one list per group and deployment, shared by every check that
 * needs one (credentials, the in-use check of removed entries, names a change gives roles). A no-op
 * preview plans no write and sends that one list only, so that a drift check (`pulumi preview
 * --expect-no-changes`) finds a revoked credential or a wrong address before the next change does.
 *
 * Credentials fail in the preview, not half-way through `up`: before the first write to a group is
 * planned (a create's Check, an update's or a replacement's Diff), that list confirms that the
 * configured credential is accepted there. A refusal fails the check (401, 403, no credential for the
 * group), and so does an address that cannot work, which every request of the `up` would meet too: no
 * connection could be made at all (refused, no such host: `requestSent` false, after the client's
 * retries), or a 404 that does not say the group is gone (a wrong path in `grouproles:baseUrl`), or one
 * that says it is (a `groupId` the service does not have: the write would meet that 404 at `up`). Any
 * other failure (a 5xx, a timeout, a dropped reply) is left to the operation itself, with its retries.
 */
import type { GroupRolesClient } from "../../client";
import { ConfigurationError, ConnectionError, type GroupRolesError } from "../../client/errors";
import { AuthenticationError, ForbiddenError, NotFoundError } from "../../client/status-errors";
import type { RoleSummary } from "../../client/types";
import { clientFromConfig } from "../../config/stack-config";
import { confirmAbsentRoleGone } from "./absent-role";
import { deploymentLedger } from "./deployment-ledger";
import type { CheckFailure } from "./fields";
import { GROUP_GONE_CODE, isGroupGone, unprovenNotFound } from "./gone";

/** The group's list, or the error listing it met. */
export type GroupListing = { roles: RoleSummary[]; error?: undefined } | { roles?: undefined; error: unknown };

/** The group's list as this deployment's previews see it: listed once, on first use. */
export function previewListing(groupId: number, client: GroupRolesClient = clientFromConfig()): Promise<GroupListing> {
  return deploymentLedger().once(client, `list ${groupId}`, () =>
    client.roles.list(groupId).then(
      (roles): GroupListing => ({ roles }),
      (error: unknown): GroupListing => ({ error }),
    ),
  );
}

/**
 * True when the preview can tell that role `roleId` is gone from the service (deleted outside Pulumi
 * since the last refresh): absent from the group's list, and its own read answering 404 (a short list
 * proves nothing alone). An update of it would fail with that 404 at `up`; the preview says so first.
 * No list (an error listing it) is no evidence: false, left to the `up`.
 */
export async function roleGoneInPreview(
  groupId: number,
  roleId: number,
  client: GroupRolesClient = clientFromConfig(),
): Promise<boolean> {
  const { roles } = await previewListing(groupId, client);
  if (!roles || roles.some((r) => r.roleId === roleId)) return false;
  // The apply's rule (absent-role.ts), its refusal read as "not gone": the `up` then decides.
  return confirmAbsentRoleGone(client, groupId, roleId, `listing group ${groupId}`).then(
    () => true,
    () => false,
  );
}

/**
 * The refusal of the credentials for `groupId`, or of the address (its class kept), or undefined when
 * the list gave no reason to think the planned write cannot apply. `what` leads a 404's message.
 */
export async function credentialRefusal(
  groupId: number,
  what = `listing group ${groupId}`,
  /** A write to the group is planned: a group the service says does not exist then refuses it too. */
  writes = true,
): Promise<GroupRolesError | undefined> {
  const { error } = await previewListing(groupId);
  const cannot = writes ? "so the planned change cannot apply" : "so no change to it could apply";
  if (error instanceof AuthenticationError || error instanceof ForbiddenError || error instanceof ConfigurationError)
    return error.rephrase(`the credentials are not accepted for group ${groupId}: ${error.message}`);
  if (error instanceof ConnectionError && !error.requestSent)
    return error.rephrase(
      `group ${groupId} cannot be reached, ${cannot}: ${error.message}. Check ` +
        "grouproles:baseUrl: it must be the address of the service, reachable from where Pulumi runs",
    );
  if (isGroupGone(error)) return writes ? groupMissing(error as NotFoundError, groupId) : undefined;
  if (error instanceof NotFoundError) return unprovenNotFound(error, groupId, what, cannot);
  return undefined;
}

/** A planned write to a group the service says does not exist: the `up` would meet the same 404. */
function groupMissing(error: NotFoundError, groupId: number): NotFoundError {
  return error.rephrase(
    `group ${groupId} does not exist in the service (listing it answered 404 ${GROUP_GONE_CODE}), so the ` +
      "planned change cannot apply: check groupId; if the group was deleted, `pulumi refresh` drops what the " +
      "state holds of it",
  );
}

/**
 * `check`'s part: a new resource (no old inputs) whose inputs passed will be created, so its
 * credentials must work for its group; a refusal is one more failure, on `groupId`.
 */
export async function checkCreateCredentials(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  failures: CheckFailure[],
): Promise<CheckFailure[]> {
  if (!failures.length && Object.keys(olds).length === 0 && typeof news.groupId === "number") {
    const refusal = await credentialRefusal(news.groupId);
    if (refusal) return [...failures, { property: "groupId", reason: refusal.message }];
  }
  return failures;
}
