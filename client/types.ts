/** The client's typed view of the service's objects (camelCase; numbers as numbers). */
import type { TextFields } from "./role-fields";

/** Permission settings of a role: setting name to enabled. `null` means "not set". */
export type RoleSettings = Record<string, boolean | null>;

/** A role as the list endpoint shows it (with the text fields the list shows, ./role-fields). */
export interface RoleSummary extends TextFields {
  roleId: number;
  name: string;
  inUse: boolean;
  /** Users holding the role; absent when the service did not say (left out or `null`). */
  userCount?: number;
}

/** A role as the create endpoint answers it. */
export interface CreatedRole {
  roleId: number;
  name: string;
  inUse?: boolean;
}

/** A role as the details endpoint shows it. */
export interface RoleDetails extends TextFields {
  roleId: number;
  name: string;
  settings: RoleSettings;
}

/** One role to create. */
export interface RoleCreateInput extends TextFields {
  name: string;
  settings?: RoleSettings;
}

/** One role to update; `roleId` and `name` are required by the service. */
export interface RoleUpdateInput extends TextFields {
  roleId: number;
  name: string;
  settings?: RoleSettings;
}

/** Where a visitor is connected (reply of /findvisitor). */
export interface VisitorLocation {
  /** True when the visitor is connected to a named presence server. */
  visitorFound: boolean;
  /** Server identifier, `<host>/<index>`. */
  ds?: string;
  /** `<host>:<port>` of the named presence server. */
  direct?: string;
  /** Host name of the named presence server. */
  directServer?: string;
  /** TLS port of that server. */
  tlsPort?: number;
  /** HTTPS port of that server. */
  httpsPort?: number;
}

/** A visitor's presence record (reply of /lookupvisitor), camelCase, numbers as numbers. */
export interface PresenceRecord {
  /** True when the service has a presence record for the visitor (it answers `{}` otherwise). */
  present: boolean;
  /** The visitor's ID. */
  visitorId?: string;
  /** The group (carried as text by the service). */
  groupId?: number;
  /** `<host>:<port>` of the named presence server the visitor is connected to. */
  direct?: string;
  /** Server identifier, `<host>/<index>`. */
  ds?: string;
  /** Host name of the named presence server. */
  directServer?: string;
  /** TLS port of that server. */
  tlsPort?: number;
  /** HTTPS port of that server. */
  httpsPort?: number;
  /** When the visitor was seen present: seconds since the Unix epoch, with a fraction. */
  visitorPresent?: number;
  /** Time of the record: seconds since the Unix epoch, with a fraction. */
  timestamp?: number;
}

/** A message for a connected visitor. */
export type VisitorMessage =
  | { mtype: "invoke"; data: { func: string } }
  | { mtype: "signal"; data: Record<string, unknown> };
