/**
 * Credentials fail in the preview, not half-way through `up`: before the first write to a group is
 * planned (a create's Check, an update's or a replacement's Diff), one request per group and process
 * confirms that the configured credential is accepted there. A no-op preview plans no write and sends
 * nothing. Only a refusal fails the check (401, 403, no credential for the group); any other failure
 * is left to the operation itself, with its retries.
 */
import type { GroupRolesClient } from "../client";
import { AuthenticationError, ConfigurationError, ForbiddenError, type GroupRolesError } from "../client/errors";
import { clientFromConfig } from "./config";
import type { CheckFailure } from "./role-fields";

const checks = new WeakMap<GroupRolesClient, Map<number, Promise<GroupRolesError | undefined>>>();

/** The refusal of the credentials for `groupId` (its class kept), or undefined when not refused. */
export function credentialRefusal(groupId: number): Promise<GroupRolesError | undefined> {
  const client = clientFromConfig();
  let byGroup = checks.get(client);
  if (!byGroup) {
    byGroup = new Map();
    checks.set(client, byGroup);
  }
  let check = byGroup.get(groupId);
  if (!check) {
    check = client.roles.list(groupId).then(
      () => undefined,
      (error: unknown) =>
        error instanceof AuthenticationError || error instanceof ForbiddenError || error instanceof ConfigurationError
          ? error.rephrase(`the credentials are not accepted for group ${groupId}: ${error.message}`)
          : undefined,
    );
    byGroup.set(groupId, check);
  }
  return check;
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
