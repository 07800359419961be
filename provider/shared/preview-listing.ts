/**
 * What a preview knows of a group: one list per group and deployment, shared by every check that
 * needs one (credentials, the in-use check of removed entries, names a change gives roles). A no-op
 * preview plans no write and sends nothing.
 *
 * Credentials fail in the preview, not half-way through `up`: before the first write to a group is
 * planned (a create's Check, an update's or a replacement's Diff), that list confirms that the
 * configured credential is accepted there. Only a refusal fails the check (401, 403, no credential
 * for the group); any other failure is left to the operation itself, with its retries.
 */
import type { GroupRolesClient } from "../../client";
import { AuthenticationError, ConfigurationError, ForbiddenError, type GroupRolesError } from "../../client/errors";
import type { RoleSummary } from "../../client/types";
import { clientFromConfig } from "../../config/stack-config";
import { deploymentLedger } from "./deployment-ledger";
import type { CheckFailure } from "./fields";

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

/** The refusal of the credentials for `groupId` (its class kept), or undefined when not refused. */
export async function credentialRefusal(groupId: number): Promise<GroupRolesError | undefined> {
  const { error } = await previewListing(groupId);
  return error instanceof AuthenticationError || error instanceof ForbiddenError || error instanceof ConfigurationError
    ? error.rephrase(`the credentials are not accepted for group ${groupId}: ${error.message}`)
    : undefined;
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
