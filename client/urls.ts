/**
 * Validation of the service addresses. Plain `http://` is accepted only for loopback hosts (the local
 * emulator) unless explicitly allowed, so a typo never sends a token over the network in clear text.
 */
import { ConfigurationError } from "./errors";

/** True for `localhost`, `127.0.0.0/8` and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A checked service address: origin plus path prefix without a trailing slash. */
export interface ServiceUrl {
  origin: string;
  /** Host as `URL` reads it: lower case, IPv6 in brackets, e.g. `presence.example.com` or `[::1]`. */
  hostname: string;
  /** Path prefix, "" or e.g. "/tenant-a". */
  basePath: string;
  secure: boolean;
  loopback: boolean;
}

/**
 * Parses and checks a service URL. `field` names the setting in error messages.
 * @throws ConfigurationError naming the field and the rule.
 */
export function parseServiceUrl(value: string, field: string, allowInsecureHttp = false): ServiceUrl {
  // `localhost:8080` parses as the scheme "localhost:"; say what is missing instead.
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(value.trim())) {
    throw new ConfigurationError(
      `${field}: "${value}" is not an absolute URL: it has no scheme (expected e.g. https://api.example.com, or ` +
        "http://localhost:8080 for a loopback emulator)",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${field}: "${value}" is not an absolute URL (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(
      `${field}: scheme must be https (or http for a loopback emulator), got ${url.protocol}`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`${field}: must not contain credentials; set grouproles:accessToken instead`);
  }
  if (url.search || url.hash) {
    throw new ConfigurationError(`${field}: must not contain a query or fragment`);
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === "http:" && !loopback && !allowInsecureHttp) {
    throw new ConfigurationError(
      `${field}: plain http is refused for non-loopback host ${url.hostname}; use https (or, for a trusted network, set grouproles:allowInsecureHttp, or the client option allowInsecureHttp)`,
    );
  }
  return {
    origin: url.origin,
    hostname: url.hostname,
    basePath: url.pathname.replace(/\/+$/, ""),
    secure: url.protocol === "https:",
    loopback,
  };
}
