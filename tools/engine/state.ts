// TEST INFRASTRUCTURE (engine stand-in): the checkpoint (state file).
//
// Shaped after Pulumi's deployment checkpoint (`resources[]` with urn, type, id, inputs, outputs,
// parent, dependencies, protect, retainOnDelete, external, delete) but much smaller. Secrets are
// stored the way the passphrase secrets provider stores them: the secret signature plus a
// `ciphertext`, here AES-256-GCM under a fixed stand-in key, so a plaintext secret never lands on disk.

import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { HookBinding } from "./hooks";
import { type Props, type Value, SECRET_SIG, SIG_KEY, isObject, isSecret, mapValues } from "./values";

export interface StateResource {
  urn: string;
  type: string;
  /** false for component resources and the root stack. */
  custom: boolean;
  id?: string;
  parent?: string;
  inputs: Props;
  outputs: Props;
  dependencies: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: boolean;
  retainOnDelete?: boolean;
  /** Read with `Resource.get`: the engine never deletes it, only forgets it. */
  external?: boolean;
  /** The old half of a create-before-delete replacement, still to be deleted. */
  delete?: boolean;
  /** Reasons of a partial create or update (the provider's init error); the next `up` updates it. */
  initErrors?: string[];
  /** The provider reference `<urn>::<id>` of a resource plugin's resource (dynamic resources: none). */
  provider?: string;
  /**
   * Hook names bound to the resource, by hook type (`{"BeforeDelete": ["guard"]}`), as Pulumi's
   * checkpoint keeps them (apitype.ResourceV3 `resourceHooks`): the ones a delete of this state runs.
   */
  resourceHooks?: HookBinding;
}

export interface Checkpoint {
  version: 1;
  project: string;
  stack: string;
  resources: StateResource[];
}

// A fixed passphrase: the point is "no plaintext secrets in state", not secrecy from the test suite.
const KEY = scryptSync("pulumi-engine-stand-in", "grouproles-test-salt", 32);

function encrypt(v: Value): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", KEY, iv);
  const data = Buffer.concat([c.update(JSON.stringify(v), "utf8"), c.final()]);
  return ["v1", iv.toString("base64"), c.getAuthTag().toString("base64"), data.toString("base64")].join(":");
}

function decrypt(text: string): Value {
  const [, iv, tag, data] = text.split(":");
  const d = createDecipheriv("aes-256-gcm", KEY, Buffer.from(iv ?? "", "base64"));
  d.setAuthTag(Buffer.from(tag ?? "", "base64"));
  return JSON.parse(Buffer.concat([d.update(Buffer.from(data ?? "", "base64")), d.final()]).toString("utf8")) as Value;
}

function sealSecrets(v: Value): Value {
  if (isSecret(v)) return { [SIG_KEY]: SECRET_SIG, ciphertext: encrypt(v["value"] ?? null) };
  if (Array.isArray(v)) return v.map(sealSecrets);
  if (isObject(v)) return mapValues(v, sealSecrets);
  return v;
}

function openSecrets(v: Value): Value {
  if (isSecret(v) && typeof v["ciphertext"] === "string")
    return { [SIG_KEY]: SECRET_SIG, value: decrypt(v["ciphertext"]) };
  if (Array.isArray(v)) return v.map(openSecrets);
  if (isObject(v)) return mapValues(v, openSecrets);
  return v;
}

function mapProps(r: StateResource, f: (v: Value) => Value): StateResource {
  return { ...r, inputs: f(r.inputs) as Props, outputs: f(r.outputs) as Props };
}

/** Loads the checkpoint; a missing file is an empty stack (as for a new `pulumi stack init`). */
export async function loadState(file: string, project: string, stack: string): Promise<Checkpoint> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, project, stack, resources: [] };
    throw e;
  }
  const cp = JSON.parse(text) as Checkpoint;
  return { ...cp, resources: cp.resources.map((r) => mapProps(r, openSecrets)) };
}

/**
 * Writes checkpoints one at a time, each atomically (temp file + rename), so a crash or a failed
 * step leaves the last complete checkpoint on disk, never a torn one. Writes asked for while one is
 * on disk's way coalesce into one of the newest snapshot: queueing each step's serialized checkpoint
 * would hold N checkpoints of N resources in memory (8 GB at 5000 resources).
 */
export class StateWriter {
  private pending: Checkpoint | undefined;
  private running: Promise<void> | undefined;
  private seq = 0;

  constructor(private readonly file: string) {}

  /** Resolves once a checkpoint at least as new as `cp` (the same snapshot or a later one) is on disk. */
  write(cp: Checkpoint): Promise<void> {
    this.pending = cp;
    this.running ??= this.drain();
    return this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const cp = this.pending;
        this.pending = undefined;
        // Serialized when its write starts: the snapshot of that moment, every step finished so far.
        const text = `${JSON.stringify({ ...cp, resources: cp.resources.map((r) => mapProps(r, sealSecrets)) }, null, 2)}\n`;
        const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
        await fs.mkdir(path.dirname(this.file), { recursive: true });
        await fs.writeFile(tmp, text);
        await fs.rename(tmp, this.file);
      }
    } finally {
      // In the same turn as the loop's last look at `pending`, so a later write starts a new drain.
      this.running = undefined;
    }
  }

  flush(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
