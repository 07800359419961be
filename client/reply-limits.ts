/**
 * How much of a reply the client reads. A reply is read whole before it is parsed, so without a cap a
 * broken proxy or a hostile server sending an endless body grows the process until it dies (an endless
 * body reached 5 GB in 16 s). The cap is derived from the largest reply the service can legitimately
 * send: the list of the largest group this package supports, each role with its settings, its longest
 * name and description, every character escaped.
 */
import { ReplyTooLargeError, type RequestInfo } from "./errors";
import { ROLE_FIELDS, TEXT_FIELDS } from "./role-fields";
import { ROLE_NAME_MAX } from "./rules";

/** The largest group this package supports (a 10,000-role catalogue is what its tests apply). */
export const MAX_GROUP_ROLES = 10_000;

/** Bytes of one UTF-16 code unit escaped as `\uXXXX` (what a server that escapes all non-ASCII sends). */
const ESCAPED_UNIT_BYTES = 6;

/**
 * JSON bytes of one role at its largest, from the fields' limits (./role-fields):
 * - each text field at its limit (name and description: 1950 bytes today), escaped;
 * - settings: 64 keys (the service documents 35; new features add keys) of at most 40 bytes each
 *   (`"joinCustomerScreenShareSessions":false,` is 40) = 2560;
 * - the rest: braces, `roleId`, `name`, `inUse`, `userCount`, `settings` with two 16-digit numbers (95),
 *   and `,"field":""` around each other text field (17 for the description).
 * 4622 bytes today, rounded up to whole KiB: 5 KiB (test/client/reply-cap.test.ts builds that role and
 * that list).
 */
const LARGEST_ROLE_BYTES =
  (ROLE_NAME_MAX + TEXT_FIELDS.reduce((sum, f) => sum + ROLE_FIELDS[f].max, 0)) * ESCAPED_UNIT_BYTES +
  64 * 40 +
  95 +
  TEXT_FIELDS.reduce((sum, f) => sum + `,"${f}":""`.length, 0);
export const MAX_ROLE_JSON_BYTES = Math.ceil(LARGEST_ROLE_BYTES / 1024) * 1024;

/** Default reply cap: 10,000 roles x 5 KiB = 51,200,000 bytes (48.8 MiB) today. */
export const DEFAULT_MAX_REPLY_BYTES = MAX_GROUP_ROLES * MAX_ROLE_JSON_BYTES;

/** A reply's body as undici gives it: read as chunks, stopped by `destroy`. */
type ReplyBody = AsyncIterable<Buffer | Uint8Array> & {
  destroy?: (error?: Error) => unknown;
  on?: (event: "error", listener: (error: unknown) => void) => unknown;
};

/**
 * Stops reading a body and frees its connection. undici emits an abort error on a body destroyed before
 * it was read to its end, and with no listener that error is an uncaught exception that ends the process
 * (the provider host): it is heard and dropped, the caller throws its own error.
 */
function discard(body: ReplyBody): void {
  body.on?.("error", () => undefined);
  body.destroy?.();
}

/** The body of a reply, at most `maxBytes` bytes, as UTF-8 text. @throws ReplyTooLargeError past it. */
export async function readCapped(
  body: ReplyBody,
  contentLength: string | string[] | undefined,
  maxBytes: number,
  request: RequestInfo,
): Promise<string> {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  // A declared length over the cap fails before a byte is read.
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(body);
    throw new ReplyTooLargeError(maxBytes, request, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      discard(body);
      throw new ReplyTooLargeError(maxBytes, request);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size).toString("utf8");
}
