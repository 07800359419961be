/**
 * How much of a reply the client reads. A reply is read whole before it is parsed, so without a cap a
 * broken proxy or a hostile server sending an endless body grows the process until it dies (an endless
 * body reached 5 GB in 16 s). The cap is derived from the largest reply the service can legitimately
 * send: the list of the largest group this package supports, each role with its settings, its longest
 * name and description, every character escaped.
 */
import { ReplyTooLargeError, type RequestInfo } from "./errors";

/** The largest group this package supports (a 10,000-role catalogue is what its tests apply). */
export const MAX_GROUP_ROLES = 10_000;

/**
 * JSON bytes of one role at its largest:
 * - text escaped as `\uXXXX` (6 bytes per UTF-16 code unit, what a server that escapes all non-ASCII
 *   sends): name 70 x 6 = 420, description 255 x 6 = 1530;
 * - settings: 64 keys (the service documents 35; new features add keys) of at most 40 bytes each
 *   (`"joinCustomerScreenShareSessions":false,` is 40) = 2560;
 * - field names, braces and two 16-digit numbers (`roleId`, `userCount`): 112.
 * 4622 bytes, rounded up to 5 KiB (test/client/reply-cap.test.ts builds that role and that list).
 */
export const MAX_ROLE_JSON_BYTES = 5 * 1024;

/** Default reply cap: 10,000 roles x 5 KiB = 51,200,000 bytes (48.8 MiB). */
export const DEFAULT_MAX_REPLY_BYTES = MAX_GROUP_ROLES * MAX_ROLE_JSON_BYTES;

/** The body of a reply, at most `maxBytes` bytes, as UTF-8 text. @throws ReplyTooLargeError past it. */
export async function readCapped(
  body: AsyncIterable<Buffer | Uint8Array> & { destroy?: (error?: Error) => unknown },
  contentLength: string | string[] | undefined,
  maxBytes: number,
  request: RequestInfo,
): Promise<string> {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  // A declared length over the cap fails before a byte is read.
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy?.();
    throw new ReplyTooLargeError(maxBytes, request, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      body.destroy?.();
      throw new ReplyTooLargeError(maxBytes, request);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size).toString("utf8");
}
