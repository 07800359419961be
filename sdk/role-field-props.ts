/**
 * A role's fields as the resources' constructors hand them to Pulumi (client/role-fields.ts): every
 * field, also one the program leaves out, so that Pulumi makes an Output of each.
 */
import * as pulumi from "@pulumi/pulumi";
import { ROLE_FIELD_NAMES, ROLE_FIELDS } from "../client/role-fields";
import type { RoleFieldArgs } from "./role-fields";

export function roleFieldProps(args: RoleFieldArgs | undefined): Record<string, unknown> {
  return Object.fromEntries(
    ROLE_FIELD_NAMES.map((f) => {
      const value = args?.[f];
      // The settings as an Output: Pulumi's runtime formats plain top-level inputs with `${value}`, which
      // throws for a map holding a setting named `toString`; an Output is formatted without touching it.
      return [f, ROLE_FIELDS[f].kind === "settings" && value !== undefined ? pulumi.output(value) : value];
    }),
  );
}
