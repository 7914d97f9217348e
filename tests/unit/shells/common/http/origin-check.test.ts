import { describe, expect, it } from "vitest";
import { OriginPolicy } from "../../../../../shells/common/http/origin-check.js";

describe("OriginPolicy (issue 26: DNS rebinding and cross-site calls)", () => {
  const loopback = new OriginPolicy({ listenHost: "127.0.0.1", port: 8080 });

  it("serves IP addresses, localhost names and the listen host, whatever their port", () => {
    for (const host of [
      "127.0.0.1:8080",
      "127.0.0.1",
      "LOCALHOST:18080",
      "localhost.",
      "app.localhost:8080",
      "[::1]:8080",
      "192.168.1.20:8080",
    ]) {
      expect(loopback.refusal(host, undefined), host).toBeUndefined();
    }
  });

  it("refuses a foreign name in Host with 421 naming it and the setting (a rebound DNS name)", () => {
    expect(loopback.refusal("evil.example:8080", undefined)).toEqual({
      status: 421,
      message: expect.stringMatching(
        /^host 'evil\.example' is not served here; .*allowed-hosts setting/,
      ) as unknown as string,
    });
    expect(loopback.admits("evil.example:8080", undefined)).toBe(false);
    expect(loopback.admits("localhost.evil.example", undefined)).toBe(false);
  });

  it("serves a request without Host or Origin (HTTP/1.0, curl, SDK clients)", () => {
    expect(loopback.refusal(undefined, undefined)).toBeUndefined();
    expect(loopback.refusal("localhost:8080", undefined)).toBeUndefined();
  });

  it("allows the same origin as the served Host, and the listen address's own origins", () => {
    expect(loopback.refusal("localhost:18080", "http://localhost:18080")).toBeUndefined();
    expect(loopback.refusal("127.0.0.1:8080", "http://localhost:8080")).toBeUndefined();
    expect(loopback.refusal("127.0.0.1:8080", "https://[::1]:8080")).toBeUndefined();
    expect(loopback.refusal("localhost:80", "http://localhost")).toBeUndefined();
  });

  it("refuses a foreign Origin with 403, also another port of localhost and `null`", () => {
    for (const origin of [
      "https://evil.example",
      "http://localhost:3000",
      "null",
      "http://evil.example:8080",
    ]) {
      expect(loopback.refusal("127.0.0.1:8080", origin), origin).toEqual({
        status: 403,
        message: `origin '${origin}' is not allowed to call this service (add it with the allowed-origins setting)`,
      });
    }
  });

  it("takes the bound port once the server listens on port 0", () => {
    const policy = new OriginPolicy({ listenHost: "127.0.0.1", port: 0 });
    expect(policy.admits("127.0.0.1:40000", "http://localhost:40000")).toBe(false);
    policy.boundTo(40000);
    expect(policy.admits("127.0.0.1:40000", "http://localhost:40000")).toBe(true);
  });

  it("adds configured hosts and origins, normalised, and `*` for any", () => {
    const policy = new OriginPolicy({
      listenHost: undefined,
      port: 8080,
      allowedHosts: ["memsvc", "Box.LAN:8080"],
      allowedOrigins: ["HTTP://Dev.Example:3000", "https://app.example:443"],
    });
    expect(policy.admits("memsvc:8080", undefined)).toBe(true);
    expect(policy.admits("box.lan", undefined)).toBe(true);
    expect(policy.admits("other", undefined)).toBe(false);
    expect(policy.admits("memsvc:8080", "http://dev.example:3000")).toBe(true);
    expect(policy.admits("memsvc:8080", "https://app.example")).toBe(true);
    expect(policy.admits("memsvc:8080", "https://other.example")).toBe(false);
    const open = new OriginPolicy({ allowedHosts: ["*"], allowedOrigins: ["*"] });
    expect(open.admits("anything.example", "https://evil.example")).toBe(true);
  });

  it("serves a named listen host (an IPv6 one written bare too)", () => {
    expect(
      new OriginPolicy({ listenHost: "box.lan", port: 1 }).admits("box.lan:1", undefined),
    ).toBe(true);
    const v6 = new OriginPolicy({ listenHost: "fd00::5", port: 9 });
    expect(v6.admits("[fd00::5]:9", "http://[fd00::5]:9")).toBe(true);
  });
});
