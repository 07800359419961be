/**
 * Write batching. The engine runs many Role operations in parallel in one
 * provider host; the service's write endpoints take arrays. This writer collects the creates, updates
 * and deletes for one group that arrive within a short window and sends each kind as one array request,
 * then hands every caller its own item of the reply. Role lists are shared by concurrent callers.
 *
 * One writer exists per client (see `services()` in ./services), i.e. per service address and
 * credentials, so a batch never mixes origins or tokens.
 */
import type { GroupRolesClient } from "../../client";
import { ConfigurationError, UnexpectedReplyError } from "../../client/errors";
import { ConflictError, HttpStatusError, NotFoundError, ValidationError } from "../../client/status-errors";
import type { CreatedRole, RoleCreateInput, RoleSummary, RoleUpdateInput } from "../../client/types";
import { directWriter, type RoleWriter } from "./writes";
import { createConfirmed } from "../shared/created-ids";
import { SingleFlight } from "./single-flight";
import { DEFAULT_BATCH_OPTIONS, MAX_BATCH_WAIT_MS, type BatchOptions } from "../../config/batch-options";

type Kind = "create" | "update" | "delete";

/**
 * Errors one item can cause without anything having been applied, so the batch can be split to find
 * the culprit. Every array request is validated as a whole before it is applied (the emulator and the
 * service are all-or-nothing), so resending the halves never applies an item twice. A 404 on create
 * names the group, which every item shares, so splitting would only repeat it; 401/403/429/5xx and
 * transport errors concern the whole request and go to every caller.
 */
function isolatable(kind: Kind, error: unknown): boolean {
  // Raised by the client before sending (e.g. an invalid id): nothing went out.
  if (error instanceof ConfigurationError) return true;
  if (error instanceof ValidationError || error instanceof ConflictError) return true;
  if (error instanceof NotFoundError) return kind !== "create";
  // 413: the array is too large for the service; halves may pass.
  return error instanceof HttpStatusError && error.status === 413;
}

interface Waiter<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/** The pending writes of one kind for one group. */
class BatchQueue<I, O> {
  private pending: Waiter<I, O>[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the first pending write arrived. */
  private firstAt = 0;

  constructor(
    private readonly kind: Kind,
    /** Sends one array request; resolves with one result per item, in order. */
    private readonly send: (items: I[]) => Promise<O[]>,
    private readonly options: () => Required<BatchOptions>,
    /** Called when a request settled, before any caller is answered. */
    private readonly onSettled: () => void,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      const { maxBatchSize, windowMs } = this.options();
      if (this.pending.length >= maxBatchSize) return this.flush();
      const now = Date.now();
      if (this.pending.length === 1) this.firstAt = now;
      clearTimeout(this.timer);
      const wait = Math.min(windowMs, Math.max(0, this.firstAt + MAX_BATCH_WAIT_MS - now));
      this.timer = setTimeout(() => this.flush(), wait);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { maxBatchSize } = this.options();
    while (this.pending.length) void this.sendSplitting(this.pending.splice(0, maxBatchSize));
  }

  /** Sends `batch`; on an error one item may have caused, sends each half again, down to single items. */
  private async sendSplitting(batch: Waiter<I, O>[]): Promise<void> {
    let results: O[];
    try {
      results = await this.send(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        // The send functions check this already; never hand a caller another item's result.
        throw new UnexpectedReplyError(
          `${this.kind} reply holds ${results.length} results for ${batch.length} roles`,
          undefined,
          {},
        );
      }
    } catch (error) {
      this.onSettled();
      if (batch.length > 1 && isolatable(this.kind, error)) {
        const half = Math.ceil(batch.length / 2);
        await Promise.all([this.sendSplitting(batch.slice(0, half)), this.sendSplitting(batch.slice(half))]);
      } else {
        for (const w of batch) w.reject(error);
      }
      return;
    }
    this.onSettled();
    for (const [i, w] of batch.entries()) w.resolve(results[i]);
  }
}

function normalize(options: BatchOptions): Required<BatchOptions> {
  const size = options.maxBatchSize ?? DEFAULT_BATCH_OPTIONS.maxBatchSize;
  const win = options.windowMs ?? DEFAULT_BATCH_OPTIONS.windowMs;
  return {
    maxBatchSize: Number.isFinite(size) && size >= 1 ? Math.floor(size) : DEFAULT_BATCH_OPTIONS.maxBatchSize,
    windowMs: Number.isFinite(win) && win >= 0 ? win : DEFAULT_BATCH_OPTIONS.windowMs,
  };
}

/** A whole-array request with one `{status}` reply, as one (empty) result per item. */
const perItem =
  <I>(send: (items: I[]) => Promise<void>) =>
  async (items: I[]): Promise<undefined[]> => {
    await send(items);
    return items.map(() => undefined);
  };

/**
 * A {@link RoleWriter} that coalesces concurrent writes per group into array requests and shares
 * concurrent lists of a group (single flight).
 *
 * - Creates: the reply is matched to callers by position; the client checks its length, names and
 *   IDs, and a list taken after it must hold each ID under the name sent (../shared/created-ids), so
 *   a caller never receives another role's ID. When the outcome is ambiguous (dropped connection,
 *   timeout, 5xx, malformed reply) every caller gets that error, and the Role provider's adoption
 *   (list, adopt by name) runs per role on one shared list.
 * - Validation, conflict and not-found errors split the batch in halves until each caller gets its
 *   own error and the other items are applied.
 * - A list never joins a request sent before a write to the group completed, so a caller reading
 *   after its own write sees it.
 *
 * @param options read on every call, so changed settings apply without a new writer.
 */
export function batchingWriter(
  client: GroupRolesClient,
  options: BatchOptions | (() => BatchOptions) = {},
): RoleWriter {
  const direct = directWriter(client);
  const current = (): Required<BatchOptions> => normalize(typeof options === "function" ? options() : options);
  const lists = new SingleFlight<number, RoleSummary[]>();
  const creates = new Map<number, BatchQueue<RoleCreateInput, CreatedRole>>();
  const updates = new Map<number, BatchQueue<RoleUpdateInput, void>>();
  const deletes = new Map<number, BatchQueue<number, void>>();

  function queue<I, O>(
    map: Map<number, BatchQueue<I, O>>,
    kind: Kind,
    groupId: number,
    send: (items: I[]) => Promise<O[]>,
  ): BatchQueue<I, O> {
    let q = map.get(groupId);
    if (!q) {
      q = new BatchQueue(kind, send, current, () => lists.forget(groupId));
      map.set(groupId, q);
    }
    return q;
  }

  return {
    create(groupId, role) {
      if (current().maxBatchSize <= 1) return direct.create(groupId, role);
      return queue(creates, "create", groupId, (items) => createConfirmed(client, groupId, items)).add(role);
    },
    update(groupId, role) {
      if (current().maxBatchSize <= 1) return direct.update(groupId, role);
      return queue(
        updates,
        "update",
        groupId,
        perItem((items: RoleUpdateInput[]) => client.roles.update(groupId, items)),
      ).add(role);
    },
    delete(groupId, roleId) {
      if (current().maxBatchSize <= 1) return direct.delete(groupId, roleId);
      return queue(
        deletes,
        "delete",
        groupId,
        perItem((items: number[]) => client.roles.delete(groupId, items)),
      ).add(roleId);
    },
    async list(groupId) {
      if (current().maxBatchSize <= 1) return direct.list(groupId);
      // Each caller gets its own array, so one caller's changes cannot show up in another's.
      return (await lists.run(groupId, () => client.roles.list(groupId))).slice();
    },
  };
}
