/**
 * The Role resource's inputs and outputs as they travel through the dynamic provider, and their
 * validation (`check`). Validation is zod-backed, field by field, so that an unknown value during
 * preview skips just that field and every failure names its property path.
 */
import { ConfigurationError } from "../../client/errors";
import { ROLE_FIELD_NAMES, inProse, textFieldsOf, type TextFields } from "../../client/role-fields";
import { describeTyped as describe, idRule } from "../../client/rules";
import { checkField, checkRoleFields, isUnknown, type CheckFailure } from "../shared/fields";
import type { Unchecked } from "../shared/props";

export { UNKNOWN, isUnknown, type CheckFailure } from "../shared/fields";

/** Validated Role inputs (a role's fields: client/role-fields.ts). */
export type RoleInputs = TextFields & {
  groupId: number;
  name: string;
  settings?: Record<string, boolean>;
};

/** Role state: the inputs as the service holds them, plus what the service computes. */
export type RoleOutputs = RoleInputs & {
  roleId: number;
  inUse: boolean;
  userCount: number;
};

/** A Role's inputs as its provider receives them (Check, Diff, create, update): the SDK's `RoleArgs`. */
export type RoleProps = Unchecked<RoleInputs & { importId: string; sameNameAs: string }>;
/** A Role's state as its provider receives it (Diff, update, read, delete): its old outputs. */
export type RoleStateProps = Unchecked<RoleOutputs>;

const INPUTS = ["groupId", ...ROLE_FIELD_NAMES];
const KNOWN_PROPERTIES = new Set([...INPUTS, "importId", "sameNameAs", "__provider", "__structure"]);

/** Why a second Role of the program may not declare a name another one (`first`) declares. */
export function sameNameReason(first: string, name: unknown, groupId: unknown): string {
  return (
    `Role resource "${first}" of this program already declares a role named ${JSON.stringify(name)} ` +
    `in group ${String(groupId)}; role names are unique within a group, so \`pulumi up\` would fail. ` +
    "Rename one of the two, or remove one."
  );
}

/**
 * Checks Role inputs. Unknown values (preview) pass; everything else is checked here, before any
 * request, so a bad program fails in `pulumi preview` with every problem listed at once.
 */
export function checkRoleInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  checkField(idRule, news.groupId, "groupId", failures);
  checkRoleFields(news, "", failures);
  if (news.importId !== undefined && !isUnknown(news.importId)) {
    const m = typeof news.importId === "string" ? /^(\d+)\/(\d+)$/.exec(news.importId) : null;
    if (!m) {
      failures.push({
        property: "import",
        reason: `import must be a Role ID "<groupId>/<roleId>", got ${describe(news.importId)}`,
      });
    } else if (typeof news.groupId === "number" && Number(m[1]) !== news.groupId) {
      failures.push({
        property: "import",
        reason: `import ID ${news.importId} is in group ${m[1]}, but groupId is ${news.groupId}`,
      });
    }
  }
  if (typeof news.sameNameAs === "string") {
    failures.push({ property: "name", reason: sameNameReason(news.sameNameAs, news.name, news.groupId) });
  }
  for (const key of Object.keys(news)) {
    if (!KNOWN_PROPERTIES.has(key) && news[key] !== undefined && !isOutputKey(key)) {
      failures.push({
        property: key,
        reason: `unknown property "${key}"; Role takes ${inProse(INPUTS)}`,
      });
    }
  }
  return failures;
}

/** Output-only properties the SDK declares (with undefined values) so that they become Outputs. */
const OUTPUT_KEYS = new Set(["roleId", "inUse", "userCount"]);
function isOutputKey(key: string): boolean {
  return OUTPUT_KEYS.has(key);
}

/** Inputs as the provider uses them, once checked and known. */
export function toRoleInputs(props: Record<string, unknown>): RoleInputs {
  const inputs: RoleInputs = { groupId: props.groupId as number, name: props.name as string, ...textFieldsOf(props) };
  if (props.settings && typeof props.settings === "object")
    inputs.settings = { ...(props.settings as Record<string, boolean>) };
  return inputs;
}

/** Parses a Role resource ID, `"<groupId>/<roleId>"`. */
export function parseRoleId(id: string): { groupId: number; roleId: number } {
  const m = /^(\d+)\/(\d+)$/.exec(id);
  const groupId = m ? Number(m[1]) : NaN;
  const roleId = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(groupId) || !Number.isSafeInteger(roleId) || groupId <= 0 || roleId <= 0) {
    throw new ConfigurationError(
      `invalid Role ID "${id}": expected "<groupId>/<roleId>" with positive integers, e.g. "42/1001"`,
    );
  }
  return { groupId, roleId };
}

export const formatRoleId = (groupId: number, roleId: number): string => `${groupId}/${roleId}`;

/**
 * The ID a Role gets in state when its create was sent but neither confirmed nor refuted (the reply
 * was lost and the group could not be listed): `"<groupId>/unconfirmed"`. It is Pulumi's partial-create
 * record, the durable evidence that lets the next `pulumi up` adopt the role if it was made.
 */
export const unconfirmedId = (groupId: number): string => `${groupId}/unconfirmed`;

/** The group of an {@link unconfirmedId}, or undefined for any other ID. */
export function unconfirmedGroup(id: string): number | undefined {
  const m = /^(\d+)\/unconfirmed$/.exec(id);
  return m ? Number(m[1]) : undefined;
}
