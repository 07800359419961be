/** What the state file costs per role: all of it, and the serialized provider (`__provider`) alone. */
import { existsSync, readFileSync } from "node:fs";

export interface StateSize {
  /** Bytes of the whole state file, divided by the number of roles in it. */
  bytesPerRole: number;
  /** Bytes of every `__provider` value in the file (inputs and outputs), divided by the roles. */
  providerBytesPerRole: number;
  roles: number;
}

interface StateResource {
  type: string;
  outputs?: { roles?: Record<string, unknown> };
}

function providerBytes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + providerBytes(v), 0);
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value))
    n += key === "__provider" ? Buffer.byteLength(JSON.stringify(v)) : providerBytes(v);
  return n;
}

/** How many roles a resource holds: one per Role, one per entry of a GroupRoles. */
function rolesOf(r: StateResource): number {
  // Dynamic (`pulumi-nodejs:dynamic/grouproles:Role`) or the plugin's (`grouproles:index:Role`).
  if (/grouproles:(index:)?Role$/.test(r.type)) return 1;
  if (/grouproles:(index:)?GroupRoles$/.test(r.type)) return Object.keys(r.outputs?.roles ?? {}).length;
  return 0;
}

/** Measures `stateFile`. */
export function measureState(stateFile: string): StateSize | undefined {
  if (!existsSync(stateFile)) return undefined;
  const text = readFileSync(stateFile, "utf8");
  const resources = (JSON.parse(text) as { resources: StateResource[] }).resources.filter((r) => rolesOf(r) > 0);
  const roles = resources.reduce((n, r) => n + rolesOf(r), 0);
  if (roles === 0) return { bytesPerRole: 0, providerBytesPerRole: 0, roles: 0 };
  return {
    bytesPerRole: Buffer.byteLength(text) / roles,
    providerBytesPerRole: providerBytes(resources) / roles,
    roles,
  };
}
