import { describe, expect, it } from "vitest";
import { parseSimpleRequestHead } from "../../../../shells/sqlsvc/http-front/simple-request-head.js";

const LINE = "POST /mcp HTTP/1.1\r\n";

describe("parseSimpleRequestHead", () => {
  it("reads the lane's headers whatever the case of their names, with the spaces around values trimmed", () => {
    const head =
      `${LINE}HOST: a:1\r\ncontent-LENGTH:\t12 \r\nConnection: Keep-Alive\r\n` +
      `Content-Type: application/json\r\nMcp-Protocol-Version: 2025-06-18\r\n` +
      `X-Request-Id: r1\r\nAuthorization: Bearer t\r\nOrigin: http://a\r\nAccept: */*`;
    expect(parseSimpleRequestHead(head)).toEqual({
      contentLength: 12,
      headers: {
        host: "a:1",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-06-18",
        "x-request-id": "r1",
        authorization: "Bearer t",
        origin: "http://a",
      },
    });
  });

  it.each([
    ["a Transfer-Encoding in any case", "tRaNsFeR-eNcOdInG: chunked\r\n"],
    ["a TE", "TE: trailers\r\n"],
    ["a second Content-Length", "Content-Length: 12\r\n"],
    ["a Connection other than keep-alive", "Connection: keep-alive, close\r\n"],
    ["a repeated header the lane reads", "HOST: b\r\n"],
    ["a name with a space before the colon", "X-A : b\r\n"],
    ["a line without a colon", "X-A\r\n"],
    ["a folded line", "X-A: b\r\n c\r\n"],
    ["a bare CR in a value", "X-A: b\rc\r\n"],
    ["a bare LF between lines", "X-A: b\nX-B: c\r\n"],
    ["a byte over 0x7e", "X-A: caf\u00e9\r\n"],
    ["65 header lines", "X-A: b\r\n".repeat(63)],
  ])("refuses %s", (_name, extra) => {
    expect(parseSimpleRequestHead(`${LINE}Host: a\r\n${extra}Content-Length: 12`)).toBeUndefined();
  });

  it("accepts 64 header lines and a Content-Length of 15 digits, but not 16", () => {
    const many = "X-A: b\r\n".repeat(62);
    expect(
      parseSimpleRequestHead(`${LINE}Host: a\r\n${many}Content-Length: 123456789012345`),
    ).toEqual({ contentLength: 123456789012345, headers: { host: "a" } });
    expect(
      parseSimpleRequestHead(`${LINE}Host: a\r\nContent-Length: 1234567890123456`),
    ).toBeUndefined();
  });

  it("refuses a head without a Host or a Content-Length, or with another request line", () => {
    expect(parseSimpleRequestHead(`${LINE}Content-Length: 1`)).toBeUndefined();
    expect(parseSimpleRequestHead(`${LINE}Host: a`)).toBeUndefined();
    expect(
      parseSimpleRequestHead("POST /mcp HTTP/1.0\r\nHost: a\r\nContent-Length: 1"),
    ).toBeUndefined();
  });
});
