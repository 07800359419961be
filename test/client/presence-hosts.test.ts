/**
 * The rule deciding which named presence servers may receive the access token, as pure functions: the
 * raw-text checks, the domain rule, `presenceServerDomains`, and the check of a whole find reply.
 * The end-to-end path (real emulator, attacker server) is in presence-hostile-replies.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ConfigurationError, UnexpectedReplyError, type VisitorLocation } from "../../client";
import { checkNamedServer } from "../../client/presence";
import {
  describeAllowedPresenceServers,
  isAllowedPresenceServer,
  isIpLiteral,
  isPlainHostName,
  parsePresenceServerDomains,
} from "../../client/presence-hosts";
import { parseServiceUrl } from "../../client/urls";

describe("isPlainHostName", () => {
  const good = [
    "pr0016.example.com",
    "localhost",
    "xn--bcher-kva.example",
    "A-1.Example.COM",
    `${"a".repeat(63)}.example.com`,
  ];
  it.each(good)("accepts %s", (host) => expect(isPlainHostName(host)).toBe(true));

  it.each([
    "",
    "a..b",
    ".example.com",
    "example.com.",
    "-a.example.com",
    "a-.example.com",
    "a@b",
    "a:b@example.com",
    "example.com/x",
    "example.com?x",
    "example.com#x",
    "example.com:443",
    "a b.com",
    "a%41.com",
    "a_b.com",
    "ä.com",
    "a\\b.com",
    "[::1]",
    "127.0.0.01",
    "0x7f.0.0.1",
    "evil.123",
    `${"a".repeat(64)}.com`,
    `${"abcdefghi.".repeat(26)}com`,
  ])("refuses %j", (host) => expect(isPlainHostName(host)).toBe(false));
});

describe("isIpLiteral", () => {
  it.each(["127.0.0.1", "10.0.0.5", "::1", "2001:db8::7"])("accepts %s", (ip) => expect(isIpLiteral(ip)).toBe(true));
  it.each(["[::1]", "fe80::1%eth0", "127.1", "127.000.0.1", "0x7f000001", "localhost"])("refuses %j", (ip) =>
    expect(isIpLiteral(ip)).toBe(false),
  );
});

describe("isAllowedPresenceServer", () => {
  const cases: Array<[lb: string, host: string, allowed: boolean, domains?: string[]]> = [
    // the production shape: siblings under the load balancer's parent domain
    ["presence.example.com", "pr0016.example.com", true],
    ["presence.example.com", "PR0001.Example.COM", true],
    ["presence.example.com", "presence.example.com", true],
    ["presence.eu.example.com", "pr0001.eu.example.com", true],
    ["presence.example.com", "example.com", false],
    ["presence.example.com", "example.com.evil.net", false],
    ["presence.example.com", "pr0016.example.com.evil.net", false],
    ["presence.example.com", "evilexample.com", false],
    ["presence.example.com", "pr0016.evilexample.com", false],
    ["presence.example.com", "a.pr0016.example.com", false],
    ["presence.example.com", "pr0016.example.org", false],
    ["presence.eu.example.com", "pr0001.us.example.com", false],
    ["presence.example.com", "93.184.216.34", false],
    // a parent that is a public suffix (ICANN or private section) is shared by strangers: no siblings
    ["presence.example.co.uk", "pr1.example.co.uk", true],
    ["presence.co.uk", "evil.co.uk", false],
    ["presence.co.uk", "presence.co.uk", true],
    ["presence.azurewebsites.net", "evil.azurewebsites.net", false],
    ["presence.github.io", "attacker.github.io", false],
    ["presence.me.github.io", "pr1.me.github.io", true],
    // one or two labels: no parent domain, only the load balancer itself
    ["example.com", "example.com", true],
    ["example.com", "pr1.example.com", false],
    ["example.com", "other.com", false],
    ["localhost", "localhost", true],
    ["localhost", "evil.localhost", false],
    ["localhost", "127.0.0.1", false],
    // IP literals: equal to the load balancer's host, compared as addresses
    ["127.0.0.1", "127.0.0.1", true],
    ["127.0.0.1", "127.0.0.2", false],
    ["127.0.0.1", "localhost", false],
    ["127.0.0.1", "::1", false],
    ["[::1]", "::1", true],
    ["[::1]", "0:0:0:0:0:0:0:1", true],
    ["[::1]", "::2", false],
    ["10.1.2.3", "1.2.3", false],
    // presenceServerDomains widens: a domain with the hosts under it, an IP address exactly
    ["presence.example.com", "pr1.example.net", true, ["example.net"]],
    ["presence.example.com", "eu.pr1.example.net", true, ["example.net"]],
    ["presence.example.com", "example.net", true, ["example.net"]],
    ["presence.example.com", "example.net.evil.org", false, ["example.net"]],
    ["presence.example.com", "notexample.net", false, ["example.net"]],
    ["127.0.0.1", "10.0.0.5", true, ["example.net", "10.0.0.5"]],
    ["127.0.0.1", "10.0.0.6", false, ["10.0.0.5"]],
    ["127.0.0.1", "10.0.0.5.example.net", true, ["example.net"]],
    ["127.0.0.1", "0:0:0:0:0:0:0:1", true, ["::1"]],
  ];
  it.each(cases)("load balancer %s, named server %s: allowed %s (domains %j)", (lb, host, allowed, domains) => {
    expect(isAllowedPresenceServer(host, lb, domains ? parsePresenceServerDomains(domains, "test") : [])).toBe(allowed);
  });
});

describe("describeAllowedPresenceServers", () => {
  it("says what is allowed", () => {
    expect(describeAllowedPresenceServers("presence.example.com")).toBe(
      '"presence.example.com" (the load balancer) and hosts directly under "example.com"',
    );
    expect(describeAllowedPresenceServers("[::1]")).toBe('"::1" (the load balancer) only');
    expect(describeAllowedPresenceServers("127.0.0.1", ["example.net", "10.0.0.5"])).toBe(
      '"127.0.0.1" (the load balancer), plus presenceServerDomains "example.net", "10.0.0.5"',
    );
  });
});

describe("parsePresenceServerDomains", () => {
  it("reads a comma-separated setting or a list, trimmed, lower case, leading dot dropped", () => {
    expect(parsePresenceServerDomains(" example.net , .Example.ORG,,10.0.0.5, 0:0::1 ", "f")).toEqual([
      "example.net",
      "example.org",
      "10.0.0.5",
      "::1",
    ]);
    expect(parsePresenceServerDomains(["pr.example.net"], "f")).toEqual(["pr.example.net"]);
    expect(parsePresenceServerDomains(undefined, "f")).toEqual([]);
  });

  const bad = [
    "com",
    "localhost",
    "*.example.com",
    "example.com/x",
    "https://example.com",
    "a@example.com",
    "example.com:443",
    "[::1]",
  ];
  it.each(bad)("refuses %j, naming the field and the rule", (entry) => {
    const call = () => parsePresenceServerDomains(`example.net,${entry}`, "grouproles:presenceServerDomains");
    expect(call).toThrow(ConfigurationError);
    expect(call).toThrow(
      `grouproles:presenceServerDomains: ${JSON.stringify(entry)} is not a domain of at least two labels ` +
        "(e.g. example.com) or an IP address; a single label would trust a whole top-level domain",
    );
  });

  it.each(["co.uk", "github.io", "azurewebsites.net"])("refuses the public suffix %j, naming it", (entry) => {
    expect(() => parsePresenceServerDomains(`example.net,${entry}`, "grouproles:presenceServerDomains")).toThrow(
      `grouproles:presenceServerDomains: ${JSON.stringify(entry)} is a public suffix, shared by unrelated sites`,
    );
  });
});

describe("checkNamedServer", () => {
  const lb = parseServiceUrl("https://presence.example.com", "presenceUrl");
  const found = (fields: Partial<VisitorLocation>): VisitorLocation => ({ visitorFound: true, ...fields });

  it("returns the host and port of an allowed server, from directserver/httpsport or from direct", () => {
    const pr16 = "pr0016.example.com";
    const full = found({ directServer: pr16, httpsPort: 443, direct: `${pr16}:443` });
    expect(checkNamedServer(full, lb)).toEqual({ host: pr16, port: 443 });
    expect(checkNamedServer(found({ direct: `${pr16}:8443` }), lb)).toEqual({ host: pr16, port: 8443 });
    expect(checkNamedServer(found({ directServer: "pr0016.example.com" }), lb)).toEqual({ host: "pr0016.example.com" });
    const v6 = parseServiceUrl("http://[::1]:9000", "presenceUrl");
    const location = found({ direct: "[::1]:9100", directServer: "::1" });
    expect(checkNamedServer(location, v6)).toEqual({ host: "::1", port: 9100 });
  });

  it.each<[string, Partial<VisitorLocation>, string]>([
    [
      "direct with a path",
      { direct: "pr0016.example.com:443/x" },
      "findvisitor reply: direct must be <host>:<port> ([<IPv6>]:<port> for IPv6) with a port from 1 to 65535, " +
        'got "pr0016.example.com:443/x"',
    ],
    ["direct without a port", { direct: "pr0016.example.com" }, "direct must be <host>:<port>"],
    ["direct with port 0", { direct: "pr0016.example.com:0" }, "direct must be <host>:<port>"],
    ["direct with port 65536", { direct: "pr0016.example.com:65536" }, "direct must be <host>:<port>"],
    ["direct with a port of letters", { direct: "pr0016.example.com:443abc" }, 'got "pr0016.example.com:443abc"'],
    ["direct with a leading-zero port", { direct: "pr0016.example.com:0443" }, 'got "pr0016.example.com:0443"'],
    ["direct with unbracketed IPv6", { direct: "::1:443" }, 'got "::1:443"'],
    ["direct with an IPv4 in brackets", { direct: "[127.0.0.1]:443" }, 'got "[127.0.0.1]:443"'],
    [
      "direct with user info",
      { direct: "a@pr0016.example.com:443" },
      "the host of direct must be a plain host name or IP address, with no port, path, user info or other URL " +
        'syntax, got "a@pr0016.example.com"',
    ],
    ["direct on another domain", { direct: "pr1.evil.net:443" }, 'the host of direct "pr1.evil.net" is not an allowed'],
    [
      "directserver fine but direct hostile",
      { directServer: "pr0016.example.com", direct: "evil.net:443" },
      'the host of direct "evil.net" is not an allowed presence server',
    ],
    ["directserver with a port", { directServer: "pr0016.example.com:8443" }, "directserver must be a plain host name"],
    ["directserver in brackets", { directServer: "[::1]" }, "directserver must be a plain host name or IP address"],
    ["httpsport 0", { directServer: "pr0016.example.com", httpsPort: 0 }, "httpsport must be an integer from 1 to"],
    ["httpsport 65536", { directServer: "pr0016.example.com", httpsPort: 65536 }, "from 1 to 65535, got 65536"],
    ["httpsport fractional", { directServer: "pr0016.example.com", httpsPort: 443.5 }, "from 1 to 65535, got 443.5"],
    ["no server at all", { ds: "pr0016.example.com/0" }, "names no presence server (neither directserver nor direct)"],
  ])("%s: UnexpectedReplyError naming the field and the rule", (_name, fields, message) => {
    const call = () => checkNamedServer(found(fields), lb);
    expect(call).toThrow(UnexpectedReplyError);
    expect(call).toThrow(message);
    expect(call).toThrow(/^findvisitor reply: .*; the message and the access token were not sent$/);
  });
});
