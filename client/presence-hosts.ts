/**
 * Which named presence servers may receive the access token. The load balancer's `/findvisitor` reply
 * names the server to signal; a misconfigured, spoofed or compromised load balancer (or a proxy) must not
 * be able to collect the token by naming a host of its choosing. So the name is checked as raw text,
 * before anything is sent: `new URL()` would quietly turn `a@b`, `host/x`, `%41`, a trailing dot or
 * `0x7f.1` into something else, so it is never the first judge.
 *
 * The rule (also in docs/security.md):
 * - the name is a plain host name or IP address, nothing else;
 * - a host name is the load balancer's host, or a sibling of it: the same parent domain, which is the
 *   load balancer's host without its first label (`presence.example.com` -> `example.com`, so
 *   `pr0016.example.com` is allowed), provided that parent is someone's own domain: the registrable
 *   domain of the load balancer's host or a name under it, by the Public Suffix List (the `tldts`
 *   package, its ICANN and private sections). So `presence.co.uk`, `x.azurewebsites.net` and
 *   `me.github.io` have no siblings (`co.uk`, `azurewebsites.net`, `github.io` are shared by strangers),
 *   nor do `example.com` or `localhost`; each allows only itself;
 * - an IP address equals the load balancer's host;
 * - `presenceServerDomains` widens this: a domain entry allows itself and every host under it, an IP
 *   entry allows that address.
 */
import { isIP } from "node:net";
import { getDomain, getPublicSuffix } from "tldts";
import { ConfigurationError } from "./errors";

/** One DNS label: 1 to 63 letters, digits or '-', not starting or ending with '-'. */
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
/** A last label that URL parsers read as a number, which turns the whole name into an IPv4 address. */
const NUMERIC_LABEL = /^(0x[0-9a-f]*|\d+)$/i;

/** True for a host name of dot-separated labels (see `LABEL`), at most 253 characters, not numeric. */
export function isPlainHostName(text: string): boolean {
  const labels = text.split(".");
  return text.length <= 253 && labels.every((l) => LABEL.test(l)) && !NUMERIC_LABEL.test(labels.at(-1) ?? "");
}

/** True for an IPv4 or IPv6 address with nothing around it: no brackets, no `%zone`. */
export function isIpLiteral(text: string): boolean {
  return !text.includes("%") && isIP(text) !== 0;
}

/** The form in which equal hosts compare equal: lower case, IPv6 compressed (brackets are dropped first). */
function canonicalHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return isIP(bare) === 6 ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare;
}

/** Public suffixes include the private section: `github.io` and `azurewebsites.net` are shared too. */
const PSL = { allowPrivateDomains: true } as const;

/**
 * The load balancer's parent domain, whose direct subdomains are its siblings: none for an IP, or when
 * the parent is not within the load balancer's registrable domain (a public suffix such as `co.uk`).
 */
function parentDomain(loadBalancerHost: string): string | undefined {
  const host = canonicalHost(loadBalancerHost);
  if (!isPlainHostName(host)) return undefined;
  const parent = host.slice(host.indexOf(".") + 1);
  const registrable = getDomain(host, PSL);
  if (!host.includes(".") || !registrable) return undefined;
  return parent === registrable || parent.endsWith(`.${registrable}`) ? parent : undefined;
}

/**
 * True when the named server `host` may receive the token: see the rule at the top of this file.
 * `host` must already be a plain host name or IP literal; `domains` come from {@link parsePresenceServerDomains}.
 */
export function isAllowedPresenceServer(
  host: string,
  loadBalancerHost: string,
  domains: readonly string[] = [],
): boolean {
  const name = canonicalHost(host);
  if (name === canonicalHost(loadBalancerHost)) return true;
  if (isIpLiteral(host)) return domains.some((d) => isIpLiteral(d) && canonicalHost(d) === name);
  const parent = parentDomain(loadBalancerHost);
  if (parent !== undefined && name.slice(name.indexOf(".") + 1) === parent) return true;
  return domains.some((d) => !isIpLiteral(d) && (name === d || name.endsWith(`.${d}`)));
}

/** The allowed hosts in words, for error messages. */
export function describeAllowedPresenceServers(loadBalancerHost: string, domains: readonly string[] = []): string {
  const lb = canonicalHost(loadBalancerHost);
  const parent = parentDomain(loadBalancerHost);
  const own = `"${lb}" (the load balancer)${parent ? ` and hosts directly under "${parent}"` : ""}`;
  if (domains.length) return `${own}, plus presenceServerDomains ${domains.map((d) => `"${d}"`).join(", ")}`;
  return parent ? own : `${own} only`;
}

/**
 * Checks and normalises `presenceServerDomains` (a comma-separated string, or a list): each entry is a
 * domain of at least two labels (a leading `.` is dropped) or an IP address.
 * @throws ConfigurationError naming `field` and the rule.
 */
export function parsePresenceServerDomains(value: string | readonly string[] | undefined, field: string): string[] {
  if (value === undefined) return [];
  const entries = (typeof value === "string" ? value.split(",") : value).map((d) => String(d).trim()).filter(Boolean);
  return entries.map((entry) => {
    const domain = entry.replace(/^\./, "").toLowerCase();
    if (isIpLiteral(domain)) return canonicalHost(domain);
    if (isPlainHostName(domain) && domain.includes(".") && getPublicSuffix(domain, PSL) === domain)
      throw new ConfigurationError(
        `${field}: ${JSON.stringify(entry.slice(0, 80))} is a public suffix, shared by unrelated sites: it would ` +
          "send the token to any of them; give your own domain under it (e.g. example.co.uk)",
      );
    if (isPlainHostName(domain) && domain.includes(".")) return domain;
    throw new ConfigurationError(
      `${field}: ${JSON.stringify(entry.slice(0, 80))} is not a domain of at least two labels (e.g. example.com) ` +
        "or an IP address; a single label would trust a whole top-level domain",
    );
  });
}
