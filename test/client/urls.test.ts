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
});
