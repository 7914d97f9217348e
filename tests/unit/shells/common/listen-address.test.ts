import { describe, expect, it } from "vitest";
import {
  formatHostPort,
  isLoopbackHost,
  parseListenAddress,
} from "../../../../shells/common/listen-address.js";

describe("parseListenAddress", () => {
  it("reads :PORT as every interface", () => {
    expect(parseListenAddress(":8080")).toEqual({
      ok: true,
      value: { host: undefined, port: 8080 },
    });
  });

  it("reads HOST:PORT and [IPv6]:PORT", () => {
    expect(parseListenAddress("127.0.0.1:0")).toEqual({
      ok: true,
      value: { host: "127.0.0.1", port: 0 },
    });
    expect(parseListenAddress("[::1]:9000")).toEqual({
      ok: true,
      value: { host: "::1", port: 9000 },
    });
    expect(parseListenAddress("localhost:1")).toEqual({
      ok: true,
      value: { host: "localhost", port: 1 },
    });
  });

  it("rejects a bare port, a port above 65535 and garbage", () => {
    for (const bad of ["8080", ":65536", "host:", "a b:80", "::1:80"]) {
      expect(parseListenAddress(bad).ok, bad).toBe(false);
    }
  });
});

describe("isLoopbackHost", () => {
  it("knows localhost, 127.0.0.0/8 and ::1 as loopback and every interface as not", () => {
    expect(["localhost", "127.0.0.1", "127.1.2.3", "::1"].every(isLoopbackHost)).toBe(true);
    expect([undefined, "0.0.0.0", "10.0.0.1", "::"].some(isLoopbackHost)).toBe(false);
  });
});

describe("formatHostPort", () => {
  it("brackets IPv6 hosts", () => {
    expect(formatHostPort("::1", 80)).toBe("[::1]:80");
    expect(formatHostPort("127.0.0.1", 80)).toBe("127.0.0.1:80");
  });
});
