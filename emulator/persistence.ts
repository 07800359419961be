/**
 * The optional state file. Writes are atomic (temp file in the same directory, fsync, rename, fsync of
 * the directory) so a crash at any point leaves either the old or the new file, never a torn one; a
 * leftover temp file is simply never read.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import type { StoreSnapshot } from "./store";

const StoredRoleSchema = z.object({
  roleId: z.number().int().positive(),
  name: z.string(),
  description: z.string(),
  settings: z.record(z.string(), z.boolean()),
  userCount: z.number().int().nonnegative(),
});

/** A whole store as JSON: the state file's content, and the body of the admin `PUT /_emulator/state`. */
export const StateFileSchema = z.object({
  version: z.literal(1),
  nextRoleId: z.number().int().positive(),
  groups: z.record(z.string().regex(/^[1-9]\d*$/), z.array(StoredRoleSchema)),
});

/**
 * Reads the state file; `undefined` when it does not exist yet.
 * @throws Error when the file exists but is not a valid state file: starting empty would silently
 * overwrite the user's data on the next write.
 */
export async function loadState(file: string): Promise<StoreSnapshot | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const parsed = StateFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`state file ${file} is not a valid emulator state file: ${parsed.error.message}`);
  return { nextRoleId: parsed.data.nextRoleId, groups: parsed.data.groups };
}

/** Writes `snapshot` to `file` atomically. */
export async function writeStateAtomic(file: string, snapshot: StoreSnapshot): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const text = `${JSON.stringify({ version: 1, ...snapshot }, null, 2)}\n`;
  const handle = await fs.open(tmp, "w", 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  // The rename itself is durable only once the directory entry is flushed; not every platform allows it.
  try {
    const d = await fs.open(dir, "r");
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* best effort (e.g. Windows) */
  }
}

/**
 * Serializes writes and coalesces bursts: callers that ask while a write is queued share it, and the
 * snapshot is taken when the write starts, so it includes every change made before the caller asked.
 */
export class StateWriter {
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => StoreSnapshot,
  ) {}

  /** Resolves once a write that includes every change made so far is on disk. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      this.queued = undefined;
      return writeStateAtomic(this.file, this.snapshot());
    });
    this.queued = run;
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for the writes in flight. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
