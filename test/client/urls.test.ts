import { describe, expect, it } from "vitest";
import { ConfigurationError, GroupRolesClient } from "../../client";
import { isLoopbackHost, parseServiceUrl } from "../../client/urls";

describe("service URLs", () => {
  it("accepts https anywhere and http on loopback", () => {
    expect(parseServiceUrl("https://api.example.com/", "baseUrl")).toEqual({
      origin: "https://api.example.com",
      hostname: "api.example.com",
      basePath: "",
      secure: true,
      loopback: false,
    });
    expect(parseServiceUrl("http://127.0.0.1:8080/x/", "baseUrl")).toMatchObject({
      origin: "http://127.0.0.1:8080",
      basePath: "/x",
      loopback: true,
    });
    expect(parseServiceUrl("http://localhost:1", "baseUrl").loopback).toBe(true);
    expect(parseServiceUrl("http://[::1]:1", "baseUrl").loopback).toBe(true);
  });

  it("refuses http for a non-loopback host unless allowed, naming the field", () => {
    expect(() => new GroupRolesClient({ baseUrl: "http://api.example.com", accessToken: "t" })).toThrow(
      ConfigurationError,
    );
    expect(() => parseServiceUrl("http://api.example.com", "presenceUrl")).toThrow(
      /presenceUrl: plain http is refused/,
    );
    expect(parseServiceUrl("http://api.example.com", "baseUrl", true).secure).toBe(false);
  });

  it("refuses malformed URLs, other schemes and embedded credentials", () => {
    expect(() => parseServiceUrl("api.example.com", "baseUrl")).toThrow(/baseUrl: .* is not an absolute URL/);
    expect(() => parseServiceUrl("ftp://api.example.com", "baseUrl")).toThrow(/scheme must be https/);
    expect(() => parseServiceUrl("https://u:p@api.example.com", "baseUrl")).toThrow(/must not contain credentials/);
  });

  it("knows loopback hosts", () => {
    expect(isLoopbackHost("127.4.5.6")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
  });

  it("loopback: names under .localhost, 127/8 as four numbers only, ::1 in brackets or not, any case", () => {
    for (const host of ["localhost", "LOCALHOST", "emu.localhost", "127.0.0.1", "127.255.10.200", "::1", "[::1]"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["127.0.0.1.example.com", "x127.0.0.1", "127.0.0", "127.1000.0.1", "a.localhost.com", "::2"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("a scheme must come first, with surrounding spaces allowed; the message names the field and the value", () => {
    expect(() => parseServiceUrl("localhost:8080", "baseUrl")).toThrow(
      'baseUrl: "localhost:8080" is not an absolute URL: it has no scheme (expected e.g. https://api.example.com, ' +
        "or http://localhost:8080 for a loopback emulator)",
    );
    expect(() => parseServiceUrl("see https://api.example.com", "baseUrl")).toThrow(/it has no scheme/);
    expect(() => parseServiceUrl("1http://api.example.com", "baseUrl")).toThrow(/it has no scheme/);
    expect(parseServiceUrl("  https://api.example.com", "baseUrl").origin).toBe("https://api.example.com");
    expect(() => parseServiceUrl("git+https://api.example.com", "baseUrl")).toThrow(/scheme must be https/);
    expect(() => parseServiceUrl("h2://api.example.com", "baseUrl")).toThrow(/scheme must be https .* got h2:$/);
    // A scheme and `//` that `URL` cannot read as an address.
    expect(() => parseServiceUrl("https://exa mple.com", "authUrl")).toThrow(
      'authUrl: "https://exa mple.com" is not an absolute URL (expected e.g. https://api.example.com)',
    );
  });

  it("refuses a user name alone, a password alone, a query and a fragment, each naming the field", () => {
    expect(() => parseServiceUrl("https://user@api.example.com", "baseUrl")).toThrow(
      "baseUrl: must not contain credentials; set grouproles:accessToken instead",
    );
    expect(() => parseServiceUrl("https://:secret@api.example.com", "baseUrl")).toThrow(/must not contain credentials/);
    expect(() => parseServiceUrl("https://api.example.com/?tenant=a", "presenceUrl")).toThrow(
      "presenceUrl: must not contain a query or fragment",
    );
    expect(() => parseServiceUrl("https://api.example.com/#top", "baseUrl")).toThrow(
      /must not contain a query or fragment/,
    );
  });

  it("keeps a path prefix without its trailing slashes", () => {
    expect(parseServiceUrl("https://api.example.com/tenant-a//", "baseUrl").basePath).toBe("/tenant-a");
    expect(parseServiceUrl("https://api.example.com/a/b", "baseUrl").basePath).toBe("/a/b");
    expect(parseServiceUrl("https://api.example.com", "baseUrl").basePath).toBe("");
  });
});
