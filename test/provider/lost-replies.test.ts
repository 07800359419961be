/**
 * When a create may have been applied although no usable reply came back, and how long a create that
 * timed out is watched for (provider/shared/lost-replies.ts): the rule both resources' adoption after
 * a lost reply follows. Known answers on fixed inputs.
 */
import { describe, expect, it } from "vitest";
import {
  ConnectTimeoutError,
  ConnectionError,
  ConflictError,
  HeadersTimeoutError,
  BodyTimeoutError,
  ServerError,
  UnexpectedReplyError,
  ValidationError,
} from "../../client/errors";
import { isAmbiguous } from "../../provider/shared/lost-replies";

const opts = {};
const status = (s: number) => ({ status: s });

describe("isAmbiguous: the write may have been applied", () => {
  it("after the request was sent: a dropped connection, a reply or body timeout, a 5xx, a malformed reply", () => {
    expect(isAmbiguous(new ConnectionError("socket hang up", true, opts))).toBe(true);
    expect(isAmbiguous(new HeadersTimeoutError(1_000, opts))).toBe(true);
    expect(isAmbiguous(new BodyTimeoutError(1_000, opts))).toBe(true);
    expect(isAmbiguous(new ServerError("boom", status(503)))).toBe(true);
    expect(isAmbiguous(new UnexpectedReplyError("not JSON", undefined, opts))).toBe(true);
  });

  it("not when the request never left, or the service answered a clear no", () => {
    expect(isAmbiguous(new ConnectionError("ECONNREFUSED", false, opts))).toBe(false);
    expect(isAmbiguous(new ConnectTimeoutError(1_000, opts))).toBe(false);
    expect(isAmbiguous(new ValidationError("bad", status(422)))).toBe(false);
    expect(isAmbiguous(new ConflictError("taken", status(409)))).toBe(false);
    expect(isAmbiguous(new Error("plain"))).toBe(false);
  });
});
