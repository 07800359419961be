/** A role as a GroupRoles state holds it, for provider unit tests: every text field empty, no users. */
import type { EntryState } from "../../provider/group-roles/types";

export const heldEntry = (roleId: number, name: string, retain?: true): EntryState => ({
  roleId,
  name,
  description: "",
  settings: {},
  inUse: false,
  userCount: 0,
  ...(retain ? { retain } : {}),
});
