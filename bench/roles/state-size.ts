/** What the state file costs per role: all of it, and the serialized provider (`__provider`) alone. */
import { existsSync, readFileSync } from "node:fs";

export interface StateSize {
  /** Bytes of the whole state file, divided by the number of roles in it. */
  bytesPerRole: number;
  /** Bytes of every `__provider` value in the file (inputs and outputs), divided by the roles. */
  providerBytesPerRole: number;
  roles: number;
}

function providerBytes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + providerBytes(v), 0);
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value)) n += key === "__provider" ? Buffer.byteLength(JSON.stringify(v)) : providerBytes(v);
  return n;
}

/** Measures `stateFile`; roles are the resources of type `roleType`. */
export function measureState(stateFile: string, roleType: string): StateSize | undefined {
  if (!existsSync(stateFile)) return undefined;
  const text = readFileSync(stateFile, "utf8");
  const state = JSON.parse(text) as { resources: Array<{ type: string }> };
  const roles = state.resources.filter((r) => r.type === roleType);
  if (roles.length === 0) return { bytesPerRole: 0, providerBytesPerRole: 0, roles: 0 };
  return {
    bytesPerRole: Buffer.byteLength(text) / roles.length,
    providerBytesPerRole: providerBytes(roles) / roles.length,
    roles: roles.length,
  };
}
