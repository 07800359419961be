/**
 * The login key against a known answer: the vendor's formula (HMAC-SHA256 with the group's API key
 * over `<partnerId><partnerUserId>1<expiry>`, Base64URL without padding, as `$1$<expiry>$<signature>`)
 * on fixed inputs. The expected signature was computed outside this code, with
 * `printf '%s' '42ci-bot11795600300' | openssl dgst -sha256 -hmac 'api-key-42' -binary | openssl base64`
 * (then `+/` to `-_`, `=` dropped): client and emulator could agree on a wrong formula, this cannot.
 */
import { describe, expect, it } from "vitest";
import { loginKey } from "../../client/authorization";

describe("login key", () => {
  it("matches the vendor's formula on a known answer", () => {
    const key = loginKey("api-key-42", 42, "ci-bot", 1_795_600_000_000);
    expect(key).toBe("$1$1795600300$WLJozKsmEBtB0_L6u4BtGXokxH7pXfXiToqOSdNYNsc");
    expect(key).toHaveLength(57);
  });

  it("is valid five minutes from now, in whole seconds", () => {
    expect(loginKey("k", 1, "u", 1_000_999).split("$")[2]).toBe(String(1000 + 300));
  });
});
